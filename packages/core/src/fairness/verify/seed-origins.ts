/**
 * Where each seed in force came from (the report's summary.seedOrigins and its seed claims),
 * followed event by event during the replay; the rules already checked legality.
 */
import type { GameState } from '../../rules/game';
import type { Envelope } from './checks';
import type { SeedOrigin } from './types';

/** Origin of each seed in force, by seat (-1: the organizer seed). */
export type SeedOrigins = Map<number, SeedOrigin>;

/** The origins in report order: the organizer seed first, then by seat. */
export const sortedOrigins = (origins: SeedOrigins): SeedOrigin[] =>
  [...origins.values()].sort((x, y) => (x.seat ?? -1) - (y.seat ?? -1));

/** Follows who fixed each seed, event by event (for the report; the rules already checked legality). */
export function trackOrigin(
  origins: SeedOrigins,
  e: Envelope,
  version: number,
  commandType: unknown,
  after: GameState,
): void {
  const d = e.data;
  const set = (seat: number | null, clientSeed: unknown, source: SeedOrigin['source']) => {
    if (typeof clientSeed !== 'string') return void origins.delete(seat ?? -1);
    origins.set(seat ?? -1, {
      seat,
      clientSeed,
      source,
      version,
      afterCommitment: source === 'join' || source === 'setSeed' || source === 'start',
    });
  };
  switch (e.type) {
    case 'gameCreated':
      if (typeof d.organizerSeed === 'string') set(null, d.organizerSeed, 'create');
      break;
    case 'seatTaken':
      set(e.seat, d.clientSeed, commandType === 'create' ? 'create' : 'join');
      break;
    case 'seatLeft':
      origins.delete(e.seat ?? -1);
      break;
    case 'seedSet':
      set(d.seat === null ? null : (d.seat as number), d.clientSeed, 'setSeed');
      break;
    case 'gameStarted':
      for (const s of after.seats) {
        const known = origins.get(s.seat);
        if (s.clientSeedGenerated === true) set(s.seat, s.clientSeed, 'generated');
        else if (!known || known.clientSeed !== s.clientSeed) set(s.seat, s.clientSeed, 'start');
      }
      break;
  }
}
