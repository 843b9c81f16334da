/**
 * Check `seeds`: players (seat, playerId, hotSeat, clientSeed; format 2: clientSeedGenerated) = the
 * seats at the start (format 3: computer seats too, playerId null), organizerSeed = the creation
 * event's, clientSeeds = orderedClientSeeds(...) of the seats at the start.
 */
import type { AuditBundle } from '../audit-bundle';
import { validateClientSeed } from '../seeds';
import { brief, type Checks, isObject, listedSeats, same, streamSeeds } from './checks';
import type { Replay } from './replay';

export function checkSeeds(checks: Checks, b: AuditBundle, replay: Replay): void {
  const { state, startState, startVersion, seatVersion } = replay;
  if (b.organizerSeed !== state.organizerSeed) {
    checks.fail(
      'seeds',
      1,
      `organizerSeed ${JSON.stringify(b.organizerSeed)} differs from the log's ${JSON.stringify(state.organizerSeed)}`,
    );
  }
  const seats = listedSeats(startState ?? state, b.formatVersion);
  const players = b.players as unknown[];
  for (let k = 0; k < Math.max(seats.length, players.length); k++) {
    const s = seats[k];
    const p = players[k] as Record<string, unknown> | undefined;
    if (!s || !isObject(p)) {
      checks.fail(
        'seeds',
        s ? (seatVersion.get(s.seat) ?? null) : null,
        s ? `seat ${s.seat} is missing from players` : 'players lists more seats than the events',
      );
      break;
    }
    // Before the start a seat may have no seed yet (null); from the start on, every seat has one.
    const seedErr = p.clientSeed === null && !startState ? null : validateClientSeed(p.clientSeed);
    // Format 2: whether the seed was generated is recorded in gameStarted, so it must match.
    // Format 1 bundles carried it as unverified information (or null).
    const generatedDiffers = b.formatVersion >= 2 && p.clientSeedGenerated !== s.clientSeedGenerated;
    if (
      p.seat !== s.seat ||
      p.playerId !== s.playerId ||
      p.clientSeed !== s.clientSeed ||
      p.hotSeat !== s.hotSeat ||
      seedErr ||
      generatedDiffers
    ) {
      checks.fail(
        'seeds',
        seatVersion.get(s.seat) ?? null,
        seedErr && p.clientSeed === s.clientSeed
          ? `seat ${s.seat}: ${seedErr}`
          : generatedDiffers && p.clientSeed === s.clientSeed
            ? `players[${k}].clientSeedGenerated is ${String(p.clientSeedGenerated)}, the gameStarted event says ${String(s.clientSeedGenerated)}`
            : `players[${k}] ${brief({ seat: p.seat, playerId: p.playerId, hotSeat: p.hotSeat, clientSeed: p.clientSeed })} differs from the seat taken in the log ${brief({ seat: s.seat, playerId: s.playerId, hotSeat: s.hotSeat, clientSeed: s.clientSeed })}`,
      );
      break;
    }
  }
  if (startState) {
    let expected: string[] | null = null;
    try {
      expected = streamSeeds(startState);
    } catch (err) {
      checks.fail('seeds', startVersion, `the seeds at the start are invalid: ${(err as Error).message}`);
    }
    if (expected && !same(b.clientSeeds, expected)) {
      checks.fail(
        'seeds',
        startVersion,
        `clientSeeds ${brief(b.clientSeeds)} differ from the derivation order fixed at the start ${brief(expected)}`,
      );
    }
  } else if (b.clientSeeds !== null) {
    checks.fail('seeds', null, 'clientSeeds must be null: the game has not started');
  }
}
