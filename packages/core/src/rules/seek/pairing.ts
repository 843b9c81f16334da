/**
 * The matchmaker's pairing rule (docs/matchmaking.md §2), pure: the caller passes the open seeks,
 * each with its player's current rating in the pool, and `now`.
 *
 * - Seeks meet only with the same pool, seats, rated flag and time per move, and different players.
 * - A seek's acceptable window is [ratingMin, ratingMax], each bound defaulting to the seeker's
 *   rating ∓ WINDOW.halfWidth, widened on both sides by `widening(waited)`. Two seeks are
 *   compatible when each player's rating is inside the other's window.
 * - The oldest open seek is served first (then the next oldest still open…). Its game is filled
 *   with the compatible seeks closest in rating to it, ties by waiting time (older first), then by
 *   seek id; every seat's seek must be compatible with every other. A seek that cannot fill its
 *   game waits for the next pass.
 *
 * Cost: seeks are sorted by rating once; each served seek walks outward in rating from its own,
 * so a pass with n seeks is O(n log n) when partners are near (bench: matchmaker pass).
 */
import type { RatingPool } from '../ratings/pools';

export const WINDOW = {
  /** Half the default window around the seeker's rating. */
  halfWidth: 200,
  /** The window widens by `perStep` on each side for every full `stepMs` waited, up to `max`. */
  perStep: 50,
  stepMs: 10_000,
  max: 500,
} as const;

/** How far a window has widened on each side after waiting `waitedMs`. */
export const widening = (waitedMs: number): number =>
  Math.min(WINDOW.max, WINDOW.perStep * Math.floor(Math.max(0, waitedMs) / WINDOW.stepMs));

export interface WaitingSeek {
  id: string;
  playerId: string;
  pool: RatingPool;
  seats: number;
  rated: boolean;
  turnTimeLimitSeconds: number | null;
  ratingMin: number | null;
  ratingMax: number | null;
  /** The player's current rating in the pool (1500 without one). */
  rating: number;
  createdAtMs: number;
}

/** The acceptable opponent ratings of `seek` at `nowMs`, widened by its wait. */
export function acceptableWindow(seek: WaitingSeek, nowMs: number): { low: number; high: number } {
  const w = widening(nowMs - seek.createdAtMs);
  return {
    low: (seek.ratingMin ?? seek.rating - WINDOW.halfWidth) - w,
    high: (seek.ratingMax ?? seek.rating + WINDOW.halfWidth) + w,
  };
}

const sameGame = (a: WaitingSeek, b: WaitingSeek) =>
  a.pool === b.pool && a.seats === b.seats && a.rated === b.rated && a.turnTimeLimitSeconds === b.turnTimeLimitSeconds;

/** Each inside the other's window, two different players, the same game asked for. */
export function compatible(a: WaitingSeek, b: WaitingSeek, nowMs: number): boolean {
  if (a.playerId === b.playerId || !sameGame(a, b)) return false;
  const wa = acceptableWindow(a, nowMs);
  const wb = acceptableWindow(b, nowMs);
  return b.rating >= wa.low && b.rating <= wa.high && a.rating >= wb.low && a.rating <= wb.high;
}

/** One game the matchmaker makes: its seeks, the served (oldest) one first. */
export interface Pairing {
  seekIds: string[];
}

const older = (a: WaitingSeek, b: WaitingSeek) =>
  a.createdAtMs - b.createdAtMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The games of one pass over the open seeks (each seek in at most one). */
export function pairSeeks(seeks: readonly WaitingSeek[], nowMs: number): Pairing[] {
  const groups = new Map<string, WaitingSeek[]>();
  for (const s of seeks) {
    const key = `${s.pool}|${s.seats}|${s.rated}|${s.turnTimeLimitSeconds}`;
    const list = groups.get(key);
    if (list) list.push(s);
    else groups.set(key, [s]);
  }
  const made: Array<Pairing & { first: WaitingSeek }> = [];
  for (const group of groups.values()) made.push(...pairGroup(group, nowMs));
  // Oldest served seek first: the order a pass creates its games in.
  return made.sort((a, b) => older(a.first, b.first)).map(({ seekIds }) => ({ seekIds }));
}

/** A seek of one group as the walk needs it: its window computed once (a small fixed shape). */
interface Walker {
  id: string;
  playerId: string;
  rating: number;
  createdAtMs: number;
  low: number;
  high: number;
  /** Paired in this pass. */
  taken: boolean;
}

/** Seeks of one rating, oldest first: the steps of the outward walk. */
interface Block {
  rating: number;
  seeks: Walker[];
}

/** `compatible` on seeks of one group (the same game asked for). */
const mutual = (a: Walker, b: Walker) =>
  a.playerId !== b.playerId && b.rating >= a.low && b.rating <= a.high && a.rating >= b.low && a.rating <= b.high;

const olderWalker = (a: Walker, b: Walker) => a.createdAtMs - b.createdAtMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The first index in `blocks` (ascending ratings) whose rating is ≥ `rating` (> with `strictly`). */
function firstFrom(blocks: Block[], rating: number, strictly: boolean): number {
  let lo = 0;
  let hi = blocks.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (blocks[mid].rating < rating || (strictly && blocks[mid].rating === rating)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function pairGroup(group: WaitingSeek[], nowMs: number): Array<Pairing & { first: WaitingSeek }> {
  const seats = group[0].seats;
  const seeks: Walker[] = group.map((s) => {
    const w = acceptableWindow(s, nowMs);
    return {
      id: s.id,
      playerId: s.playerId,
      rating: s.rating,
      createdAtMs: s.createdAtMs,
      low: w.low,
      high: w.high,
      taken: false,
    };
  });
  const byRating = [...seeks].sort((a, b) => a.rating - b.rating || olderWalker(a, b));
  const blocks: Block[] = [];
  const blockOf = new Map<string, number>();
  for (const s of byRating) {
    const last = blocks[blocks.length - 1];
    if (last && last.rating === s.rating) last.seeks.push(s);
    else blocks.push({ rating: s.rating, seeks: [s] });
    blockOf.set(s.id, blocks.length - 1);
  }
  const original = new Map(group.map((s) => [s.id, s]));
  const out: Array<Pairing & { first: WaitingSeek }> = [];
  for (const anchor of seeks.sort(olderWalker)) {
    if (anchor.taken) continue;
    const chosen = [anchor];
    const consider = (c: Walker) => {
      if (c.taken || c === anchor) return;
      for (let i = 0; i < chosen.length; i++) if (!mutual(chosen[i], c)) return;
      chosen.push(c);
    };
    const k = blockOf.get(anchor.id)!;
    if (anchor.rating >= anchor.low && anchor.rating <= anchor.high)
      for (const c of blocks[k].seeks) if (chosen.length < seats) consider(c);
    // Outward from the anchor's rating, skipping at once what lies outside its window.
    let left = Math.min(k - 1, firstFrom(blocks, anchor.high, true) - 1);
    let right = Math.max(k + 1, firstFrom(blocks, anchor.low, false));
    while (chosen.length < seats) {
      const l = left >= 0 && blocks[left].rating >= anchor.low ? blocks[left] : null;
      const r = right < blocks.length && blocks[right].rating <= anchor.high ? blocks[right] : null;
      if (!l && !r) break;
      const dl = l ? anchor.rating - l.rating : Infinity;
      const dr = r ? r.rating - anchor.rating : Infinity;
      let next: Walker[];
      if (dl < dr) {
        next = l!.seeks;
        left--;
      } else if (dr < dl) {
        next = r!.seeks;
        right++;
      } else {
        // As far below as above: the two blocks by waiting time together.
        next = [...l!.seeks, ...r!.seeks].sort(olderWalker);
        left--;
        right++;
      }
      for (const c of next) {
        if (chosen.length >= seats) break;
        consider(c);
      }
    }
    if (chosen.length < seats) continue;
    for (const c of chosen) c.taken = true;
    out.push({ seekIds: chosen.map((c) => c.id), first: original.get(anchor.id)! });
  }
  return out;
}
