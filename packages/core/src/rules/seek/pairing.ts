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

/** Seeks of one rating, oldest first: the steps of the outward walk. */
interface Block {
  rating: number;
  seeks: WaitingSeek[];
}

function pairGroup(group: WaitingSeek[], nowMs: number): Array<Pairing & { first: WaitingSeek }> {
  const seats = group[0].seats;
  const byRating = [...group].sort((a, b) => a.rating - b.rating || older(a, b));
  const blocks: Block[] = [];
  const blockOf = new Map<string, number>();
  for (const s of byRating) {
    const last = blocks[blocks.length - 1];
    if (last && last.rating === s.rating) last.seeks.push(s);
    else blocks.push({ rating: s.rating, seeks: [s] });
    blockOf.set(s.id, blocks.length - 1);
  }
  const taken = new Set<string>();
  const out: Array<Pairing & { first: WaitingSeek }> = [];
  for (const anchor of [...group].sort(older)) {
    if (taken.has(anchor.id)) continue;
    const window = acceptableWindow(anchor, nowMs);
    const chosen = [anchor];
    const consider = (c: WaitingSeek) => {
      if (taken.has(c.id) || c.id === anchor.id) return;
      if (chosen.every((m) => compatible(m, c, nowMs))) chosen.push(c);
    };
    const k = blockOf.get(anchor.id)!;
    for (const c of blocks[k].seeks) if (chosen.length < seats) consider(c);
    let left = k - 1;
    let right = k + 1;
    while (chosen.length < seats) {
      const l = left >= 0 && blocks[left].rating >= window.low ? blocks[left] : null;
      const r = right < blocks.length && blocks[right].rating <= window.high ? blocks[right] : null;
      if (!l && !r) break;
      const dl = l ? anchor.rating - l.rating : Infinity;
      const dr = r ? r.rating - anchor.rating : Infinity;
      let next: WaitingSeek[];
      if (dl < dr) {
        next = l!.seeks;
        left--;
      } else if (dr < dl) {
        next = r!.seeks;
        right++;
      } else {
        // As far below as above: the two blocks by waiting time together.
        next = [...l!.seeks, ...r!.seeks].sort(older);
        left--;
        right++;
      }
      for (const c of next) {
        if (chosen.length >= seats) break;
        consider(c);
      }
    }
    if (chosen.length < seats) continue;
    for (const c of chosen) taken.add(c.id);
    out.push({ seekIds: chosen.map((c) => c.id), first: anchor });
  }
  return out;
}
