/** Farkle's decide: an untrusted command checked against the state, and the events it causes. */
import type { RollDice } from '../core/dice';
import { type RuleError, ruleError } from '../core/errors';
import { evolve } from './evolve';
import { activeSeatsAfter } from './queries';
import { isFarkle, scoreFaces } from './scoring';
import { HOT_DICE, rollChecked } from './setup';
import type { FarkleCommand, FarkleEvent, FarkleState } from './types';

const KNOWN = ['roll', 'setAside', 'bank', 'quit', 'pass'];

class Batch {
  readonly events: FarkleEvent[] = [];
  constructor(public state: FarkleState) {}
  push(event: FarkleEvent): void {
    this.state = evolve(this.state, event);
    this.events.push(event);
  }
}

/**
 * Validates an (untrusted) command against the state and returns the events it causes, or a
 * RuleError. Never mutates the state; calls `roll` at most once, only when the command rolls dice.
 */
export function decide(state: FarkleState, command: FarkleCommand, roll: RollDice): FarkleEvent[] | RuleError {
  const c = command as unknown;
  if (typeof c !== 'object' || c === null || Array.isArray(c))
    return ruleError('INVALID_COMMAND', 'A command must be an object');
  const { type, seat } = c as { type?: unknown; seat?: unknown };
  if (typeof type !== 'string') return ruleError('INVALID_COMMAND', 'A command needs a string "type"');
  if (typeof seat !== 'number' || !Number.isSafeInteger(seat) || seat < 0)
    return ruleError('INVALID_COMMAND', 'A command needs a non-negative integer "seat"', { type });
  if (state.phase === 'finished') return ruleError('GAME_FINISHED', 'The game is over', { seat });
  if (state.phase === 'waiting' || !state.turn)
    return ruleError('GAME_NOT_STARTED', 'The game has not started (roll-off pending)');
  if (!KNOWN.includes(type))
    return ruleError('INVALID_COMMAND', `Unknown Farkle command "${type.slice(0, 40)}"`, { known: KNOWN });
  if (seat !== state.turn.seat)
    return ruleError('NOT_YOUR_TURN', `It is seat ${state.turn.seat}'s turn, not seat ${seat}'s`, {
      seat,
      currentSeat: state.turn.seat,
    });

  const batch = new Batch(state);
  const cmd = c as Record<string, unknown>;
  let error: RuleError | null = null;
  switch (type) {
    case 'roll':
      if (cmd.setAside !== undefined) error = setAside(batch, seat, cmd.setAside);
      error ??= doRoll(batch, seat, roll);
      break;
    case 'setAside':
      error = setAside(batch, seat, cmd.dice);
      break;
    case 'bank':
      if (cmd.setAside !== undefined) error = setAside(batch, seat, cmd.setAside);
      error ??= bank(batch, seat);
      break;
    case 'quit':
      batch.push({ type: 'quit', seat, lost: batch.state.turn!.points });
      endTurn(batch, seat, false);
      break;
    case 'pass':
      batch.push({ type: 'passed', seat, lost: batch.state.turn!.points });
      endTurn(batch, seat, false);
      break;
  }
  return error ?? batch.events;
}

function setAside(batch: Batch, seat: number, selection: unknown): RuleError | null {
  const turn = batch.state.turn!;
  if (!turn.roll) return ruleError('ROLL_REQUIRED', 'Roll the dice before setting any aside', { seat });
  if (turn.setAside)
    return ruleError('ALREADY_SET_ASIDE', 'Dice were already set aside from this roll; roll again or bank', {
      seat,
      setAside: turn.setAside,
    });
  const n = turn.roll.length;
  if (!Array.isArray(selection) || selection.length === 0 || selection.length > n)
    return ruleError(
      'INVALID_SELECTION',
      `Choose 1 to ${n} dice by their indices (0 to ${n - 1}) in the current roll`,
      { seat },
    );
  const seen = new Set<number>();
  for (const i of selection) {
    if (typeof i !== 'number' || !Number.isInteger(i) || i < 0 || i >= n)
      return ruleError(
        'INVALID_SELECTION',
        `Die index ${JSON.stringify(i)?.slice(0, 20)} is not an index of the current roll (0 to ${n - 1})`,
        { seat },
      );
    if (seen.has(i)) return ruleError('INVALID_SELECTION', `Die index ${i} is chosen twice`, { seat });
    seen.add(i);
  }
  const dice = [...seen].sort((a, b) => a - b);
  const faces = dice.map((i) => turn.roll![i]);
  const points = scoreFaces(faces, batch.state.options);
  if (points === null)
    return ruleError(
      'SELECTION_DOES_NOT_SCORE',
      `Not every die in [${faces.join(', ')}] scores: every die set aside must be part of a scoring combination`,
      { seat, faces },
    );
  batch.push({
    type: 'setAside',
    seat,
    dice,
    faces,
    points,
    turnPoints: turn.points + points,
    hotDice: turn.diceLeft - dice.length === 0,
  });
  return null;
}

function doRoll(batch: Batch, seat: number, roll: RollDice): RuleError | null {
  const turn = batch.state.turn!;
  if (turn.roll && !turn.setAside)
    return ruleError('NOTHING_SET_ASIDE', 'Set aside at least one scoring die from this roll before rolling again', {
      seat,
    });
  const count = !turn.roll || turn.diceLeft === 0 ? HOT_DICE : turn.diceLeft;
  const dice = rollChecked(roll, count);
  batch.push({ type: 'rolled', seat, dice });
  if (isFarkle(dice, batch.state.options)) {
    const streak = batch.state.farkleStreak[seat] + 1;
    batch.push({ type: 'farkled', seat, lost: turn.points, streak });
    const penalty = batch.state.options.threeFarklePenalty;
    if (penalty > 0 && streak % 3 === 0) {
      const before = batch.state.totals[seat];
      const points = Math.min(penalty, before);
      batch.push({ type: 'penalty', seat, points, total: before - points });
    }
    endTurn(batch, seat, false);
  }
  return null;
}

function bank(batch: Batch, seat: number): RuleError | null {
  const { turn, options, totals: t, onBoard } = batch.state;
  if (!turn!.roll) return ruleError('ROLL_REQUIRED', 'Roll the dice before banking', { seat });
  if (!turn!.setAside)
    return ruleError('NOTHING_SET_ASIDE', 'Set aside at least one scoring die from this roll before banking', { seat });
  const points = turn!.points;
  if (!onBoard[seat] && points < options.entryThreshold)
    return ruleError(
      'BELOW_ENTRY_THRESHOLD',
      `A first banked turn must be worth at least ${options.entryThreshold} points (this turn: ${points})`,
      { seat, points, entryThreshold: options.entryThreshold },
    );
  const total = t[seat] + points;
  if (options.exactTarget && total > options.target) {
    batch.push({ type: 'busted', seat, lost: points });
    endTurn(batch, seat, false);
    return null;
  }
  batch.push({ type: 'banked', seat, points, total });
  endTurn(batch, seat, options.exactTarget ? total === options.target : total >= options.target);
  return null;
}

/** After a turn ended: open the last round, finish the game, or start the next seat's turn. */
function endTurn(batch: Batch, seat: number, reachedTarget: boolean): void {
  if (reachedTarget && batch.state.lastRound === null) {
    batch.push({ type: 'lastRound', seat, seats: activeSeatsAfter(batch.state, seat) });
  }
  const s = batch.state;
  if (s.lastRound) {
    const remaining = s.lastRound.remaining.filter((x) => !s.quit[x]);
    if (remaining.length === 0) return batch.push({ type: 'finished', reason: 'target' });
    const active = s.quit.filter((q) => !q).length;
    if (active <= 1) return batch.push({ type: 'finished', reason: 'quit' });
    return batch.push({ type: 'turnStarted', seat: remaining[0] });
  }
  const next = activeSeatsAfter(s, seat);
  const active = s.quit.filter((q) => !q).length;
  if (active === 0 || (s.seatCount > 1 && active === 1)) return batch.push({ type: 'finished', reason: 'quit' });
  batch.push({ type: 'turnStarted', seat: next.length ? next[0] : seat });
}
