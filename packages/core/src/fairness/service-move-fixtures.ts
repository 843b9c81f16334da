/**
 * Games with moves the service makes itself (a computer seat, auto-score, timeouts at a level),
 * played purely in memory as the service plays them (src/games/games.service.ts: planTurn and
 * fiveDiceBox on the game's own dice), as audit bundles. Also the forger's tool: `bundleOf` re-runs
 * an edited command list through the rules and re-hashes the chain. For the verifier's tests.
 */
import { noDice } from '../rules/core/dice';
import { isRuleError } from '../rules/core/errors';
import { fiveDiceBox, type OptimalTables, planTurn } from '../rules/computer';
import { computerChoice, computerHold } from '../rules/five-dice/computer';
import {
  type ComputerLevel,
  decideGame,
  emptyGame,
  evolveGame,
  type GameCommand,
  type GameState,
  seedsStateFor,
  startedPlay,
} from '../rules/game';
import { familyById, type RuleSetName } from '../rules/registry';
import { assembleBundle, type AuditBundle } from './audit-bundle';
import { rollerFor } from './bundle-fixtures';
import { bytesToHex, hexToBytes } from './bytes';
import { appendEvent, type HashedEventEnvelope } from './hash-chain';
import { commitmentOf } from './seeds';

export interface ServiceGameOptions {
  ruleSet: RuleSetName;
  /** Option overrides of the preset (e.g. autoScoreAfterMs). */
  options?: Record<string, unknown>;
  /** Seat 1 is played by the computer at this level (absent: seat 1 is player p-1). */
  computerSeat?: ComputerLevel;
  /** The game's level for timeouts and auto-scores (absent: standard). */
  computerLevel?: ComputerLevel;
  /** Five dice: the players' turns that reach the third roll are auto-scored by the service. */
  autoScore?: boolean;
  /** Every n-th turn of a player times out at its start (0: never). */
  timeoutEvery?: number;
  /** Level optimal's tables for the game's options. */
  tables?: OptimalTables;
}

export interface ServiceGame {
  bundle: AuditBundle;
  /** Every command in log order (edit and pass to `bundleOf` to forge). */
  commands: GameCommand[];
}

const SERVER_SEED = hexToBytes('1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100');
const GAME_ID = '7a1c0d3e-5b2f-4c6a-9e8d-1f2a3b4c5d6e';

/** Runs commands through the rules with the game's dice, hashing each event as the server does. */
class Runner {
  state: GameState = emptyGame(GAME_ID);
  readonly events: HashedEventEnvelope[] = [];
  readonly commands: GameCommand[] = [];
  private head = commitmentOf(SERVER_SEED);

  run(command: GameCommand): void {
    const live = this.state.status === 'playing' || command.type === 'start';
    const produced = decideGame(
      this.state,
      command,
      live ? rollerFor(SERVER_SEED, seedsStateFor(this.state, command)) : noDice,
    );
    if (isRuleError(produced)) throw new Error(`${command.type} rejected: ${produced.code} ${produced.message}`);
    this.commands.push(command);
    for (const e of produced) {
      const env = appendEvent(this.head, {
        gameId: GAME_ID,
        version: this.state.version + 1,
        type: e.type,
        seat: e.seat,
        data: JSON.parse(JSON.stringify(e.data)),
        rollNumber: e.rollNumber,
        command: e.command === null ? null : JSON.parse(JSON.stringify(e.command)),
      });
      this.events.push(env);
      this.head = env.hash;
      this.state = evolveGame(this.state, e);
    }
  }

  bundle(): AuditBundle {
    const ended = this.state.status === 'finished' || this.state.status === 'abandoned';
    return assembleBundle({
      gameId: GAME_ID,
      events: this.events,
      serverSeed: bytesToHex(SERVER_SEED),
      displayNames: { 'p-0': 'Player 0', 'p-1': 'Player 1' },
      createdAt: '2026-11-29T10:00:00.000Z',
      endedAt: ended ? '2026-11-29T10:41:07.000Z' : null,
      generatedAt: '2026-11-29T10:45:00.000Z',
    });
  }
}

/** The bundle these commands make (each re-decided by the rules, the chain hashed anew). */
export function bundleOf(commands: readonly GameCommand[]): AuditBundle {
  const r = new Runner();
  for (const c of commands) r.run(c);
  return r.bundle();
}

/** The state after these commands (the forger's starting point for a re-played turn). */
export function stateAfter(commands: readonly GameCommand[]): GameState {
  const r = new Runner();
  for (const c of commands) r.run(c);
  return r.state;
}

/** The moves `seat` makes for the rest of its turn at `level` on the game's dice (as the service plans). */
export function planAt(state: GameState, level: ComputerLevel, tables?: OptimalTables) {
  const seat = familyById(state.family).currentSeat(startedPlay(state)) as number;
  const moves = planTurn(state, seat, level, rollerFor(SERVER_SEED, state), tables);
  if (isRuleError(moves)) throw new Error(`planTurn: ${moves.message}`);
  return moves;
}

/** A player's own move (the simple deterministic strategy of bundle-fixtures). */
function playerMove(state: GameState, level: ComputerLevel, o: ServiceGameOptions): GameCommand {
  const seat = familyById(state.family).currentSeat(startedPlay(state)) as number;
  const playerId = state.seats[seat].playerId as string;
  if (state.family !== 'five-dice')
    return { type: 'play', playerId, move: familyById(state.family).timeoutMove!(startedPlay(state))! };
  const p = startedPlay(state);
  const turn = p.turn!;
  if (turn.rollInTurn === 0) return { type: 'play', playerId, move: { type: 'roll' } };
  const sheet = p.sheets[seat];
  if (turn.rollInTurn < 3) {
    const hold = computerHold(sheet, turn.dice, turn.rollInTurn, p.options);
    if (hold.length < 5) return { type: 'play', playerId, move: { type: 'roll', hold } };
    return { type: 'play', playerId, move: { type: 'score', box: computerChoice(sheet, turn.dice, p.options) } };
  }
  // After the last roll the player waits: the service scores at the game's level.
  if (o.autoScore) return { type: 'autoScore', seat, box: fiveDiceBox(sheet, turn.dice, p.options, level, o.tables) };
  return { type: 'play', playerId, move: { type: 'score', box: computerChoice(sheet, turn.dice, p.options) } };
}

/** A complete two-seat game with service-made moves, played as the service plays them. */
export function simulateServiceGame(o: ServiceGameOptions): ServiceGame {
  const r = new Runner();
  const level = o.computerLevel ?? 'standard';
  r.run({
    type: 'create',
    gameId: GAME_ID,
    ruleSet: o.ruleSet,
    options: o.options ?? {},
    seatCount: 2,
    visibility: 'public',
    creatorId: 'p-0',
    hotSeats: 0,
    commitment: commitmentOf(SERVER_SEED),
    turnTimeLimitSeconds: o.timeoutEvery ? 60 : null,
    ...(o.computerSeat ? { computerSeats: [{ seat: 1, level: o.computerSeat }] } : {}),
    ...(o.computerLevel ? { computerLevel: o.computerLevel } : {}),
  });
  r.run({ type: 'setSeed', playerId: 'p-0', seat: 0, clientSeed: 'seed-0' });
  if (!o.computerSeat) r.run({ type: 'join', playerId: 'p-1', clientSeed: 'seed-1' });
  r.run({
    type: 'start',
    playerId: 'p-0',
    generatedSeeds: r.state.seats
      .filter((s) => s.clientSeed === null)
      .map((s) => ({ seat: s.seat, clientSeed: `generated-seed-${s.seat}` })),
  });
  const family = familyById(r.state.family);
  let turns = 0;
  let lastSeat: number | null = null;
  for (let n = 0; r.state.status === 'playing'; n++) {
    if (n > 20_000) throw new Error('the game does not end');
    const state = r.state;
    const seat = family.currentSeat(startedPlay(state)) as number;
    const turnStart = seat !== lastSeat || family.isTurnStart?.(startedPlay(state)) === true;
    if (turnStart) turns++;
    lastSeat = seat;
    const computer = state.seats[seat].computer;
    const plan = (at: ComputerLevel) => planAt(state, at, o.tables);
    if (computer) r.run({ type: 'computer', seat, level: computer, moves: plan(computer) });
    else if (o.timeoutEvery && turnStart && turns % o.timeoutEvery === 0)
      r.run(
        state.family === 'five-dice' && level !== 'standard'
          ? { type: 'timeout', seat, moves: plan(level) }
          : { type: 'timeout', seat },
      );
    else r.run(playerMove(state, level, o));
  }
  return { bundle: r.bundle(), commands: r.commands };
}

/** The box a five-dice service command enters last (computer: its last move; autoScore: its box). */
export function lastBoxOf(c: GameCommand): string | null {
  if (c.type === 'autoScore') return c.box;
  const moves = c.type === 'computer' || c.type === 'timeout' ? (c.moves ?? []) : [];
  const last = moves.at(-1);
  return last?.type === 'score' ? (last.box as string) : null;
}

/**
 * The forger's edit: the boxes of the last two service-made five-dice turns of the seat that had the last one swapped
 * (each still legal), as a new command list. Returns the list and the position of the earlier one.
 */
export function swapLastTwoBoxes(
  commands: readonly GameCommand[],
  kind: 'computer' | 'autoScore' | 'timeout',
): { commands: GameCommand[]; earlier: number } {
  const seatOf = (c: GameCommand) => (c as { seat?: number }).seat;
  const all = commands.flatMap((c, i) => (c.type === kind && lastBoxOf(c) !== null ? [i] : []));
  const seat = seatOf(commands[all.at(-1)!]);
  const [a, b] = all.filter((i) => seatOf(commands[i]) === seat).slice(-2);
  if (a === undefined || b === undefined) throw new Error(`fewer than two ${kind} turns that score`);
  const boxA = lastBoxOf(commands[a])!;
  const boxB = lastBoxOf(commands[b])!;
  const withBox = (c: GameCommand, box: string): GameCommand => {
    if (c.type === 'autoScore') return { ...c, box };
    const moves = (c as { moves: Array<Record<string, unknown> & { type: string }> }).moves;
    return { ...c, moves: [...moves.slice(0, -1), { ...moves.at(-1)!, box }] } as GameCommand;
  };
  const out = [...commands];
  out[a] = withBox(commands[a], boxB);
  out[b] = withBox(commands[b], boxA);
  return { commands: out, earlier: a };
}

/** The log version of the first event of command `index` in the bundle made by `commands`. */
export function versionOfCommand(bundle: AuditBundle, index: number): number {
  let seen = -1;
  for (const e of bundle.events) {
    if (e.command !== null && e.command !== undefined) seen++;
    if (seen === index) return e.version;
  }
  throw new Error(`no command ${index}`);
}
