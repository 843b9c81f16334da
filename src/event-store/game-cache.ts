/**
 * The event store's per-process cache of game states, least recently used first out, bounded by
 * an entry count AND by an approximate number of bytes (decision 0052): a cache bounded by count
 * alone holds 5,000 two-seat games or 5,000 eight-seat ones, whose memory differs several-fold.
 *
 * The size of an entry is estimated, not measured (V8 does not tell an object's retained size):
 * `estimateGameEntryBytes` counts the fixed part and the per-seat part with constants calibrated
 * against heap snapshots (see the function). The estimate is taken once when an entry is stored.
 */
import { evolveGame, type GameState } from '@fairdice/core/rules/game';
import { type GameRow, type StoredEvent, toGameEvent } from './event-store.types';
import type { ReadStamp } from './read-freshness';

export interface GameCacheLimits {
  /** Most entries kept (GAME_CACHE_MAX_ENTRIES). */
  maxEntries: number;
  /** Most estimated bytes kept (GAME_CACHE_MAX_BYTES). */
  maxBytes: number;
}

export const DEFAULT_GAME_CACHE_LIMITS: GameCacheLimits = { maxEntries: 5000, maxBytes: 16 * 1024 * 1024 };

/** A Map-like LRU whose total of `sizeOf(value)` stays at most `maxBytes` and whose size stays at most `maxEntries`. */
export class BoundedLru<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private total = 0;

  constructor(
    private readonly limits: GameCacheLimits,
    private readonly sizeOf: (value: V) => number,
  ) {
    if (!(limits.maxEntries >= 1) || !(limits.maxBytes >= 1)) throw new Error('cache limits must be positive');
  }

  /** Number of entries. */
  get size(): number {
    return this.entries.size;
  }

  /** Estimated bytes of all entries. */
  get bytes(): number {
    return this.total;
  }

  get(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  /** Stores `value` as the most recently used entry, then evicts the least recently used ones over a limit. */
  set(key: string, value: V): void {
    this.delete(key);
    const bytes = Math.max(1, Math.ceil(this.sizeOf(value)));
    // One entry larger than the whole budget is not kept (it would evict everything else).
    if (bytes > this.limits.maxBytes) return;
    this.entries.set(key, { value, bytes });
    this.total += bytes;
    while (this.entries.size > this.limits.maxEntries || this.total > this.limits.maxBytes) {
      const oldest = this.entries.keys().next().value as string;
      this.delete(oldest);
    }
  }

  delete(key: string): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    this.entries.delete(key);
    this.total -= entry.bytes;
    return true;
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }
}

/**
 * Approximate heap bytes of one cached game (state, head hash, last roll, games row, names).
 * Calibration (2026-12-01, node --expose-gc, heapUsed after gc() around 2,000 entries of
 * five-dice games half played, each state replayed from parsed JSON): 2,665 B per entry with one
 * seat, 2,977 with two, 3,816 with four, 5,546 with eight, i.e. about 2.2 KiB + 0.4 KiB per
 * seat. The constants round both up, so the byte budget errs on the side of less memory.
 */
export function estimateGameEntryBytes(entry: { state: GameState; names?: Record<string, string> | null }): number {
  const seats = Math.max(1, entry.state.seatCount || entry.state.seats.length);
  return ENTRY_BASE_BYTES + seats * ENTRY_SEAT_BYTES;
}

export const ENTRY_BASE_BYTES = 2560;
export const ENTRY_SEAT_BYTES = 512;

/** One cached game: its state, chain head and last roll, and (when read at that version) row and names. */
export interface CacheEntry {
  state: GameState;
  head: string;
  lastRolled: Record<string, unknown> | null;
  /** The games row and seated names as of `state.version` (null: read them on the next load). */
  row?: GameRow | null;
  names?: Record<string, string> | null;
  /** When, and in which LISTEN epoch, the entry was confirmed (read-freshness.ts; unset: never serves a read). */
  confirmed?: ReadStamp;
}

/** `entry` with `events` (the versions right after its own) applied. */
export function applyAll(entry: CacheEntry, events: readonly StoredEvent[]): CacheEntry {
  let { state, head, lastRolled } = entry;
  for (const e of events) {
    if (e.version !== state.version + 1)
      throw new Error(`event store: version ${e.version} after ${state.version} for game ${e.gameId}`);
    state = evolveGame(state, toGameEvent(e));
    head = e.hash;
    if (e.type === 'rolled') lastRolled = e.data;
  }
  return { state, head, lastRolled };
}
