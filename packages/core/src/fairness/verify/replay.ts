/**
 * The one pass over the log's batches behind checks `commands`, `dice` and `service-moves`: each
 * batch's command is re-run on the state replayed so far (commands.ts, service-moves.ts), each
 * event's dice checked (dice.ts) and applied by evolveGame, and who fixed each seed followed
 * (seed-origins.ts). Its result feeds the checks after it (creation, seeds, standings, ...).
 */
import { emptyGame, evolveGame, type GameCommand, type GameState } from '../../rules/game';
import type { AuditBundle } from '../audit-bundle';
import { type Checks, type Envelope, isObject, toGameEvent } from './checks';
import { checkBatchCommand } from './commands';
import { checkRoll } from './dice';
import { rollerFor } from './roller';
import { type SeedOrigins, sortedOrigins, trackOrigin } from './seed-origins';
import { ServiceMovesCheck } from './service-moves';
import type { SeedOrigin, VerifyOptions } from './types';

export interface Replay {
  /** The state replayed (up to where the replay stopped, if it did). */
  state: GameState;
  /** The state right after gameStarted, and its version (null: not started). */
  startState: GameState | null;
  startVersion: number | null;
  /** The version of each seat's seatTaken event (the last one). */
  seatVersion: Map<number, number>;
  /** The origin of each seed in force at the end of the replay. */
  origins: SeedOrigins;
  /** The seeds' origins at the start (empty when the game has not started). */
  originsAtStart: SeedOrigin[];
  /** Why the replay stopped early, or null when every event was applied. */
  aborted: string | null;
  /** The version of the gameFinished event (null: none). */
  finishedVersion: number | null;
}

/** Adds checks `dice`, `commands` and `service-moves` and replays the log. */
export function replayLog(
  checks: Checks,
  b: AuditBundle,
  events: Envelope[],
  serverSeed: Uint8Array | null,
  options: VerifyOptions,
): Replay {
  const gameId = b.gameId;
  checks.add('dice');
  if (!serverSeed) checks.skip('dice', 'the server seed is not revealed yet: the dice cannot be checked yet');
  checks.add('commands');
  const serviceMoves = new ServiceMovesCheck(checks, options);

  const r: Replay = {
    state: emptyGame(gameId),
    startState: null,
    startVersion: null,
    seatVersion: new Map(),
    origins: new Map(),
    originsAtStart: [],
    aborted: null,
    finishedVersion: null,
  };

  for (let i = 0; i < events.length && r.aborted === null;) {
    const e0 = events[i];
    if (!isObject(e0) || !Number.isSafeInteger(e0.version)) {
      r.aborted = `event at index ${i} is malformed`;
      checks.fail('commands', null, r.aborted);
      break;
    }
    let j = i + 1;
    while (j < events.length && isObject(events[j]) && (events[j].command === null || events[j].command === undefined))
      j++;
    const batch = events.slice(i, j);
    const before = r.state;

    // Re-run the command; a move the service chose: legal, and the one its level makes on the same dice?
    if (!isObject(e0.command)) {
      checks.fail('commands', i + 1, 'the first event carries no command');
    } else {
      const command = e0.command as unknown as GameCommand;
      const roller = () => rollerFor(before, command, batch, serverSeed, gameId);
      if (checkBatchCommand(checks, before, command, batch, i, j, roller))
        serviceMoves.note(i + 1, before, command, roller);
    }

    // Check the dice and replay the stored events.
    for (let k = 0; k < batch.length; k++) {
      const e = batch[k];
      const at = i + k + 1;
      checkRoll(checks, r.state, e, at, serverSeed, gameId);
      try {
        r.state = evolveGame(r.state, toGameEvent(e));
      } catch (err) {
        r.aborted = `replay stopped at event ${at}: ${(err as Error).message}`;
        checks.fail('commands', at, `the event cannot be applied: ${(err as Error).message}`);
        break;
      }
      trackOrigin(r.origins, e, at, (e0.command as { type?: unknown } | null)?.type, r.state);
      if (e.type === 'seatTaken' && e.seat !== null) r.seatVersion.set(e.seat, at);
      if (e.type === 'gameStarted') {
        r.startState = r.state;
        r.startVersion = at;
        r.originsAtStart = sortedOrigins(r.origins);
      }
      if (e.type === 'gameFinished') r.finishedVersion = at;
    }
    i = j;
  }

  serviceMoves.conclude();
  return r;
}
