/**
 * Re-derivation of the moves the service made itself (docs/fairness.md §6, docs/advice.md
 * "Computer players"): a computer seat's turn (`computer`), a timeout at a level other than
 * standard (`timeout` with moves) and an auto-score (`autoScore`). The rules only check that such
 * moves are legal; every level is deterministic, so the verifier also re-derives each move from the
 * state before it and the same dice, and names the first one that differs.
 *
 * Levels `optimal` and `expert` play from solved tables that take seconds to build: they are
 * injected (`OptimalTablesFor`), never built here on their own. Without them those moves are "not
 * checked".
 */
import type { RollDice } from '../rules/core/dice';
import { RuleError } from '../rules/core/errors';
import {
  computerMove,
  farkleExpertTwoPlayer,
  fiveDiceBox,
  MissingTableError,
  type OptimalTables,
  playsFromTables,
} from '../rules/computer';
import { assertTwoPlayerSolvable, solveFarkle, solveFarkleTwoPlayer, solveFiveDice } from '../rules/advice';
import type { ComputerLevel, GameCommand, GameState, SeatMove } from '../rules/game';
import { asFamilyCommand, fiveDicePlay, withPlay } from '../rules/game/play';
import { familyById } from '../rules/registry';
import { canonicalJson } from './canonical';

/** The solved tables levels `optimal` and `expert` play with, for a game's options (null: not available). */
export type OptimalTablesFor = (state: GameState) => OptimalTables | null;

/** The outcome of re-deriving one service-made command. */
export type ServiceMoveResult =
  | { outcome: 'same'; level: ComputerLevel }
  | { outcome: 'not-checked'; level: ComputerLevel; reason: string }
  | {
      outcome: 'differs';
      level: ComputerLevel;
      /** Events of this command before the first one the differing move produced. */
      offset: number;
      /** The position of the differing move in the command's list (0 for an auto-score's box). */
      move: number;
      expected: unknown;
      found: unknown;
      detail: string;
    };

const canon = (v: unknown): string => {
  try {
    return canonicalJson(v ?? null);
  } catch {
    return String(v);
  }
};

const noTables = (level: ComputerLevel) =>
  `level ${level} plays from the solved tables, which were not given (\`fairdice verify\` solves them, seconds per rule set)`;

/** The tables for levels `optimal` and `expert`, or the reason they are missing. */
function optimalTables(level: ComputerLevel, state: GameState, tables?: OptimalTablesFor): OptimalTables | string {
  if (!playsFromTables(level)) return {};
  const t = tables?.(state) ?? null;
  return t ?? noTables(level);
}

/**
 * Re-derives the listed moves of `seat`'s turn at `level`, one at a time on the state so far, with
 * the command's own dice (`roll` continues at the state's roll count, as the service's planner did).
 */
function checkTurnMoves(
  before: GameState,
  seat: number,
  level: ComputerLevel,
  listed: readonly SeatMove[],
  roll: RollDice,
  tables?: OptimalTablesFor,
): ServiceMoveResult {
  const loaded = optimalTables(level, before, tables);
  if (typeof loaded === 'string') return { outcome: 'not-checked', level, reason: loaded };
  const family = familyById(before.family);
  let play = before.play;
  let offset = 0;
  for (let k = 0; k < listed.length; k++) {
    let expected: SeatMove | null;
    try {
      expected = play === null ? null : computerMove(withPlay(before, play), level, loaded);
    } catch (err) {
      if (err instanceof MissingTableError) return { outcome: 'not-checked', level, reason: err.message };
      throw err;
    }
    if (canon(expected) !== canon(listed[k]))
      return {
        outcome: 'differs',
        level,
        offset,
        move: k,
        expected,
        found: listed[k],
        detail: `move ${k + 1} of the turn: level ${level} plays ${canon(expected)}, the log has ${canon(listed[k])}`,
      };
    if (play === null) throw new Error('a service move in a game that has not started');
    const events = family.decide(play, asFamilyCommand(listed[k], seat), roll);
    // Unreachable when the command check passed (the same moves on the same dice).
    if (events instanceof RuleError)
      return { outcome: 'not-checked', level, reason: `move ${k + 1} is refused: ${events.message}` };
    for (const e of events) play = family.evolve(play, e);
    offset += events.length;
  }
  return { outcome: 'same', level };
}

/** A computer seat's turn: the level is the seat's, and every move is the one that level makes. */
export function checkComputerTurn(
  before: GameState,
  command: Extract<GameCommand, { type: 'computer' }>,
  roll: RollDice,
  tables?: OptimalTablesFor,
): ServiceMoveResult {
  const level = before.seats[command.seat]?.computer ?? command.level;
  if (command.level !== level)
    return {
      outcome: 'differs',
      level,
      offset: 0,
      move: 0,
      expected: level,
      found: command.level,
      detail: `the command plays seat ${command.seat} at level ${String(command.level)}, the seat was created at level ${level}`,
    };
  return checkTurnMoves(before, command.seat, level, command.moves, roll, tables);
}

/**
 * A timeout with listed moves: the service lists them only in a five-dice game at a level other
 * than standard (the game's level); a timeout without moves is re-run by the rules themselves.
 */
export function checkTimeoutMoves(
  before: GameState,
  command: Extract<GameCommand, { type: 'timeout' }>,
  roll: RollDice,
  tables?: OptimalTablesFor,
): ServiceMoveResult {
  const level = before.computerLevel;
  if (before.family !== 'five-dice' || level === 'standard')
    return {
      outcome: 'differs',
      level,
      offset: 0,
      move: 0,
      expected: null,
      found: command.moves,
      detail: `a timeout at level ${level} in a ${before.family} game lists no moves (the rules play it), the log lists ${canon(command.moves)}`,
    };
  return checkTurnMoves(before, command.seat, level, command.moves ?? [], roll, tables);
}

/** An auto-score: the box is the one the game's computer level enters the dice in. */
export function checkAutoScore(
  before: GameState,
  command: Extract<GameCommand, { type: 'autoScore' }>,
  tables?: OptimalTablesFor,
): ServiceMoveResult {
  const level = before.computerLevel;
  const loaded = optimalTables(level, before, tables);
  if (typeof loaded === 'string') return { outcome: 'not-checked', level, reason: loaded };
  const play = fiveDicePlay(before);
  // Unreachable for a stored command: the rules refuse an auto-score outside a started five-dice game.
  if (play === null) throw new Error('an auto-score outside a started five-dice game');
  const turn = play.turn!;
  let expected: string;
  try {
    expected = fiveDiceBox(play.sheets[turn.seat], turn.dice, play.options, level, loaded);
  } catch (err) {
    if (err instanceof MissingTableError) return { outcome: 'not-checked', level, reason: err.message };
    throw err;
  }
  if (expected === command.box) return { outcome: 'same', level };
  return {
    outcome: 'differs',
    level,
    offset: 0,
    move: 0,
    expected,
    found: command.box,
    detail: `auto-score of ${turn.dice.join(' ')}: level ${level} enters them in ${expected}, the log has ${String(command.box)}`,
  };
}

/**
 * The re-derivation of `command` applied to `before` (its events already matched the rules), or
 * null when the command is not a move the service chose (a player's move, a timeout the rules play).
 */
export function checkServiceMove(
  before: GameState,
  command: GameCommand,
  roll: RollDice,
  tables?: OptimalTablesFor,
): ServiceMoveResult | null {
  if (command.type === 'computer') return checkComputerTurn(before, command, roll, tables);
  if (command.type === 'timeout' && command.moves !== undefined)
    return checkTimeoutMoves(before, command, roll, tables);
  if (command.type === 'autoScore') return checkAutoScore(before, command, tables);
  return null;
}

/** Whether a game's moves at level `expert` need the two-player Farkle table. */
const needsTwoPlayer = (state: GameState) =>
  state.family === 'farkle' &&
  farkleExpertTwoPlayer(state.seats.length) &&
  state.seats.some((s) => s.computer === 'expert');

/**
 * Tables built on demand with the solvers of @fairdice/core, one per rule set options (what
 * `fairdice verify` injects; a few seconds each, the two-player Farkle table about half a minute,
 * built only for a two-seat Farkle game with a computer seat at `expert` and options it covers).
 * `onBuild` is told before each build.
 */
export function solvedTables(onBuild?: (table: string) => void): OptimalTablesFor {
  const cache = new Map<string, OptimalTables>();
  const get = (key: string, table: string, solve: () => OptimalTables) => {
    let t = cache.get(key);
    if (!t) {
      onBuild?.(table);
      t = solve();
      cache.set(key, t);
    }
    return t;
  };
  return (state) => {
    const options = canon(state.options);
    if (state.family === 'five-dice')
      return get(`five-dice ${options}`, 'five-dice', () => ({ fiveDice: solveFiveDice(state.options) }));
    const farkle = get(`farkle ${options}`, 'farkle', () => ({ farkle: solveFarkle(state.options) }));
    if (!needsTwoPlayer(state)) return farkle;
    try {
      assertTwoPlayerSolvable(state.options);
    } catch {
      return farkle; // the expert seat's moves are then "not checked" (MissingTableError), with the reason
    }
    const two = get(`farkle two-player ${options}`, 'two-player Farkle', () => ({
      farkleTwoPlayer: solveFarkleTwoPlayer(state.options),
    }));
    return { ...farkle, ...two };
  };
}

/** What the report says about the service-made moves of one bundle (check and claim `service-moves`). */
export interface ServiceMovesSummary {
  status: 'pass' | 'fail' | 'skipped';
  /** The first event the differing move produced (fail). */
  version: number | null;
  detail: string;
  checked: number;
  notChecked: number;
}

/** Collects the re-derivation of every service-made command, in log order. */
export class ServiceMovesTally {
  private checked = 0;
  private readonly notChecked = new Map<string, number>();
  private first: { version: number; detail: string } | null = null;

  /** `version`: the position of the command's first event. */
  note(version: number, r: ServiceMoveResult | null): void {
    if (r === null) return;
    if (r.outcome === 'same') this.checked++;
    else if (r.outcome === 'not-checked') this.notChecked.set(r.reason, (this.notChecked.get(r.reason) ?? 0) + 1);
    else this.first ??= { version: version + r.offset, detail: r.detail };
  }

  summary(): ServiceMovesSummary {
    const notChecked = [...this.notChecked.values()].reduce((a, b) => a + b, 0);
    const counts = { checked: this.checked, notChecked };
    if (this.first) return { status: 'fail', version: this.first.version, detail: this.first.detail, ...counts };
    const reasons = [...this.notChecked].map(([reason, n]) => `${n} not checked: ${reason}`).join('; ');
    if (notChecked > 0)
      return {
        status: 'skipped',
        version: null,
        detail: `${this.checked} service-made command(s) re-derived; ${reasons}`,
        ...counts,
      };
    return {
      status: 'pass',
      version: null,
      detail:
        this.checked === 0
          ? 'the service made no move of its own choosing'
          : `${this.checked} service-made command(s) re-derived, each the one its level makes`,
      ...counts,
    };
  }
}
