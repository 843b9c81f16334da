/**
 * The list of checks a verification builds (each PASS / FAIL / SKIPPED, the first failure kept),
 * and the small value helpers every check uses: canonical comparison and brief display.
 */
import type { GameCommand, GameEvent, GameState } from '../../rules/game';
import { canonicalJson } from '../canonical';
import type { EventEnvelope } from '../hash-chain';
import { orderedClientSeeds } from '../seeds';
import type { CheckStatus, VerifyCheck } from './types';

/** An event as a bundle carries it: the hashed envelope, with its stored hash. */
export type Envelope = EventEnvelope & { hash?: string };

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
export const canon = (v: unknown): string => {
  try {
    return canonicalJson(v);
  } catch (err) {
    return `<not canonical: ${(err as Error).message}>`;
  }
};
export const same = (a: unknown, b: unknown) => canon(a) === canon(b);
export const brief = (v: unknown, max = 160) => {
  const s = canon(v);
  return s.length > max ? `${s.slice(0, max)}…` : s;
};

export class Checks {
  readonly list: VerifyCheck[] = [];
  private readonly byName = new Map<string, VerifyCheck>();

  add(name: string, status: CheckStatus = 'pass', detail?: string): VerifyCheck {
    const c: VerifyCheck = { name, status, ...(detail !== undefined ? { detail } : {}) };
    this.list.push(c);
    this.byName.set(name, c);
    return c;
  }
  /** Records the first failure of a check (later ones are consequences or less useful). */
  fail(name: string, version: number | null, detail: string): void {
    const c = this.byName.get(name) ?? this.add(name);
    if (c.status === 'fail') return;
    c.status = 'fail';
    c.version = version;
    c.detail = detail;
  }
  skip(name: string, detail: string): void {
    const c = this.byName.get(name) ?? this.add(name);
    if (c.status === 'fail') return;
    c.status = 'skipped';
    c.detail = detail;
  }
  failed(name: string): boolean {
    return this.byName.get(name)?.status === 'fail';
  }
  /** The status of a check (undefined: not in the list). */
  status(name: string): CheckStatus | undefined {
    return this.list.find((c) => c.name === name)?.status;
  }
  find(name: string): VerifyCheck | undefined {
    return this.list.find((c) => c.name === name);
  }
}

export const toGameEvent = (e: Envelope): GameEvent => ({
  type: e.type,
  seat: e.seat,
  data: e.data,
  rollNumber: e.rollNumber,
  command: (e.command ?? null) as GameCommand | null,
});

/** The client seeds of the dice stream in derivation order, for the seats of `state`. */
export function streamSeeds(state: GameState): string[] {
  return orderedClientSeeds({
    organizerSeed: state.organizerSeed,
    seats: state.seats.map((s) => ({ seat: s.seat, clientSeed: s.clientSeed as string })),
  });
}

/** The seats a bundle's `players` lists: those of players, and from format 3 the computer seats too. */
export function listedSeats(state: GameState, formatVersion: number): GameState['seats'] {
  return state.seats.filter((s) => s.playerId !== null || (formatVersion >= 3 && s.computer !== null));
}
