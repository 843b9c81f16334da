/**
 * The moves the service makes for a seat (a computer seat's turn, an auto-score, a timeout with
 * listed moves): each checked for legality on the state so far, and marked with why it was made.
 */
import type { RollDice } from '../core/dice';
import { RuleError, ruleError } from '../core/errors';
import { familyById } from '../registry';
import { evolveGame } from './evolve';
import { asFamilyCommand, startedPlay } from './play';
import type { GameCommand, GameEvent, GameState, SeatMove } from './types';
import { tagRolls, withFinish } from './decision';

/** Events the service made by itself carry why in `data.reason`. */
type ServiceReason = 'timeout' | 'computer' | 'autoScore';

/** A computer seat's turn, or an auto-score: moves the service chose, checked for legality. */
export function decideServiceMove(
  state: GameState,
  command: Extract<GameCommand, { type: 'computer' | 'autoScore' }>,
  roll: RollDice,
): GameEvent[] | RuleError {
  if (state.status !== 'playing' || state.play === null)
    return ruleError('GAME_NOT_STARTED', 'The game has not started');
  const family = familyById(state.family);
  const play = state.play;
  const current = family.currentSeat(play);
  if (current !== command.seat)
    return ruleError('NOT_YOUR_TURN', `It is seat ${current}'s turn`, { currentSeat: current });
  if (command.type === 'computer') {
    if (state.seats[command.seat]?.computer == null)
      return ruleError('INVALID_COMMAND', `Seat ${command.seat} is not played by the computer`);
    if (!Array.isArray(command.moves)) return ruleError('INVALID_COMMAND', 'moves must be a list');
    return serviceTurn(state, command.seat, command.moves, 'computer', roll);
  }
  // autoScore: the family's own (five dice with the option on, after the turn's last roll).
  if (!family.autoScoreMove) return ruleError('INVALID_COMMAND', 'This game does not score automatically');
  const move = family.autoScoreMove(play, command.seat, command.box);
  if (move instanceof RuleError) return move;
  const events = tagRolls(state, (r) => family.decide(play, move, r), roll);
  if (events instanceof RuleError) return events;
  return withFinish(state, [], mark(events, 'autoScore'));
}

/**
 * Marks the family events the service made. `timeout` overwrites every event's reason (as it always
 * did: Farkle's `finished` says `timeout` when a timed-out move ended the game); `computer` and
 * `autoScore` keep a reason the family gave (Farkle's `finished`: `target` or `quit`).
 */
const mark = (events: GameEvent[], reason: ServiceReason): GameEvent[] =>
  events.map((e) => (reason !== 'timeout' && e.data.reason !== undefined ? e : { ...e, data: { ...e.data, reason } }));

/**
 * Applies the listed moves of `seat` one by one (each must be legal on the state so far) and
 * requires that together they end the seat's turn: the turn passes, the game ends, or (a solo
 * game) the seat's turn starts again; no move may come after that.
 */
export function serviceTurn(
  state: GameState,
  seat: number,
  moves: readonly SeatMove[],
  reason: ServiceReason,
  roll: RollDice,
): GameEvent[] | RuleError {
  if (!Array.isArray(moves) || moves.length === 0 || moves.length > 256)
    return ruleError('INVALID_COMMAND', 'moves must list 1 to 256 moves');
  const family = familyById(state.family);
  const all: GameEvent[] = [];
  let s = state;
  let ended = false;
  for (const move of moves) {
    if (ended) return ruleError('INVALID_COMMAND', "A move after the end of the seat's turn");
    if (typeof move !== 'object' || move === null || typeof move.type !== 'string' || 'seat' in move)
      return ruleError('INVALID_COMMAND', 'A move is { type, ... } without a seat');
    const now = startedPlay(s);
    const events = tagRolls(s, (r) => family.decide(now, asFamilyCommand(move, seat), r), roll);
    if (events instanceof RuleError) return events;
    const marked = mark(events, reason);
    for (const e of marked) s = evolveGame(s, e);
    all.push(...marked);
    ended =
      s.play === null ||
      family.isFinished(s.play) ||
      family.currentSeat(s.play) !== seat ||
      family.isTurnStart?.(s.play) === true;
  }
  if (!ended) return ruleError('INVALID_COMMAND', "The moves do not end the seat's turn");
  return withFinish(state, [], all);
}
