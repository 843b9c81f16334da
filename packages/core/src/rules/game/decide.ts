import type { RollDice } from '../core/dice';
import { RuleError, ruleError } from '../core/errors';
import { familyById } from '../registry';
import { evolveGame } from './evolve';
import { asFamilyCommand, startedPlay } from './play';
import type { GameCommand, GameEvent, GameState, LifecycleEventData, SeatSeed, StartCommand } from './types';
import { decideCreate } from './create';
import { isOpenSeat, lifecycle, seedError, tagRolls, withFinish } from './decision';
import { decideServiceMove, serviceTurn } from './service-moves';

/**
 * The game aggregate's decider: the lobby (create, join, leave, start, cancel) and, once the game
 * started, the family's moves for the seat whose turn it is. Returns the events to append, the
 * first of which records the command, or a RuleError. Pure: dice come from `roll`.
 */
export function decideGame(state: GameState, command: GameCommand, roll: RollDice): GameEvent[] | RuleError {
  const events = decideEvents(state, command, roll);
  if (events instanceof RuleError) return events;
  if (events.length > 0) events[0] = { ...events[0], command };
  return events;
}

function decideEvents(state: GameState, command: GameCommand, roll: RollDice): GameEvent[] | RuleError {
  if (command.type === 'create') return decideCreate(state, command);
  if (state.version === 0) return ruleError('INVALID_COMMAND', 'The game does not exist yet');
  if (state.status === 'finished' || state.status === 'abandoned')
    return ruleError('GAME_FINISHED', `The game is ${state.status}`);

  switch (command.type) {
    case 'join': {
      if (state.status !== 'open') return ruleError('GAME_ALREADY_STARTED', 'The game has already started');
      if (state.seats.some((s) => s.playerId === command.playerId))
        return ruleError('ALREADY_SEATED', 'You already hold a seat in this game');
      let seat: number;
      if (command.seat !== undefined) {
        if (!Number.isInteger(command.seat) || command.seat < 0 || command.seat >= state.seatCount) {
          return ruleError('INVALID_COMMAND', `seat must be between 0 and ${state.seatCount - 1}`);
        }
        if (!isOpenSeat(state.seats[command.seat])) return ruleError('SEAT_TAKEN', `Seat ${command.seat} is taken`);
        seat = command.seat;
      } else {
        const open = state.seats.find(isOpenSeat);
        if (!open) return ruleError('NO_OPEN_SEAT', 'Every seat is taken');
        seat = open.seat;
      }
      if (command.clientSeed !== undefined) {
        const bad = seedError(command.clientSeed);
        if (bad) return bad;
      }
      return [
        lifecycle('seatTaken', seat, {
          playerId: command.playerId,
          clientSeed: command.clientSeed ?? null,
          hotSeat: false,
        }),
      ];
    }
    case 'setSeed': {
      if (state.status !== 'open')
        return ruleError('GAME_ALREADY_STARTED', 'Seeds are fixed once the game has started');
      const bad = seedError(command.clientSeed);
      if (bad) return bad;
      if (command.seat === null) {
        if (command.playerId !== state.creatorId)
          return ruleError('NOT_CREATOR', 'Only the creator may set the organizer seed');
        return [lifecycle('seedSet', null, { seat: null, playerId: command.playerId, clientSeed: command.clientSeed })];
      }
      if (!Number.isInteger(command.seat) || command.seat < 0 || command.seat >= state.seatCount)
        return ruleError('INVALID_COMMAND', `seat must be between 0 and ${state.seatCount - 1}`);
      if (state.seats[command.seat].playerId !== command.playerId)
        return ruleError('NOT_YOUR_SEAT', `Seat ${command.seat} is not yours`, { seat: command.seat });
      return [
        lifecycle('seedSet', command.seat, {
          seat: command.seat,
          playerId: command.playerId,
          clientSeed: command.clientSeed,
        }),
      ];
    }
    case 'abandon': {
      if (command.reason === 'expired') {
        if (state.status !== 'open') return ruleError('GAME_ALREADY_STARTED', 'Only an open game expires');
      } else if (command.reason === 'inactive') {
        if (state.status !== 'playing') return ruleError('GAME_NOT_STARTED', 'Only a started game is abandoned');
      } else return ruleError('INVALID_COMMAND', 'reason must be expired or inactive');
      return [lifecycle('gameAbandoned', null, { reason: command.reason })];
    }
    case 'leave': {
      if (state.status !== 'open')
        return ruleError('GAME_ALREADY_STARTED', 'You cannot leave a game that has started; quit on your turn instead');
      const seat = state.seats.find((s) => s.playerId === command.playerId && !s.hotSeat);
      if (!seat) return ruleError('NOT_SEATED', 'You do not hold a seat in this game');
      if (command.playerId === state.creatorId)
        return ruleError('NOT_CREATOR', 'The creator cannot leave; cancel the game instead');
      return [lifecycle('seatLeft', seat.seat, { playerId: command.playerId })];
    }
    case 'cancel': {
      if (command.playerId !== state.creatorId) return ruleError('NOT_CREATOR', 'Only the creator may cancel the game');
      if (state.status !== 'open')
        return ruleError('GAME_ALREADY_STARTED', 'A game that has started cannot be cancelled');
      return [lifecycle('gameAbandoned', null, { reason: 'cancelled' })];
    }
    case 'start': {
      if (command.playerId !== state.creatorId) return ruleError('NOT_CREATOR', 'Only the creator may start the game');
      if (state.status !== 'open') return ruleError('GAME_ALREADY_STARTED', 'The game has already started');
      const empty = state.seats.filter(isOpenSeat).map((s) => s.seat);
      if (empty.length > 0)
        return ruleError('NOT_ENOUGH_PLAYERS', `${openSeatsSentence(empty)} still open`, { openSeats: empty });
      const seeds = startSeeds(state, command);
      if (seeds instanceof RuleError) return seeds;
      const started = lifecycle('gameStarted', null, seeds);
      const afterStart = evolveGame(state, started);
      const family = familyById(state.family);
      return withFinish(
        afterStart,
        [started],
        tagRolls(afterStart, (r) => family.start(startedPlay(afterStart), r), roll),
      );
    }
    case 'computer':
    case 'autoScore':
      return decideServiceMove(state, command, roll);
    case 'play':
    case 'timeout': {
      if (state.status !== 'playing' || state.play === null)
        return ruleError('GAME_NOT_STARTED', 'The game has not started');
      const family = familyById(state.family);
      const play = state.play;
      const current = family.currentSeat(play);
      let seat: number;
      let move: Record<string, unknown> & { type: string };
      if (command.type === 'play') {
        const mine = state.seats.filter((s) => s.playerId === command.playerId).map((s) => s.seat);
        if (mine.length === 0) return ruleError('NOT_SEATED', 'You do not hold a seat in this game');
        if (current === null || !mine.includes(current))
          return ruleError('NOT_YOUR_TURN', `It is seat ${current}'s turn`, { currentSeat: current });
        seat = current;
        move = command.move;
        if (typeof move !== 'object' || move === null || typeof move.type !== 'string')
          return ruleError('INVALID_COMMAND', 'A move needs a type');
        if ('seat' in move) return ruleError('INVALID_COMMAND', 'The seat is taken from your token, not from the move');
        const events = tagRolls(state, (r) => family.decide(play, asFamilyCommand(move, seat), r), roll);
        return events instanceof RuleError ? events : withFinish(state, [], events);
      }
      if (current !== command.seat)
        return ruleError('NOT_YOUR_TURN', `It is seat ${current}'s turn`, { currentSeat: current });
      // Moves chosen by the service at the game's computer level: checked for legality only.
      if (command.moves !== undefined) return serviceTurn(state, command.seat, command.moves, 'timeout', roll);
      if (typeof family.timeoutMove !== 'function')
        return ruleError('INVALID_COMMAND', 'This family has no timeout moves');
      // The computer completes the turn: one move at a time, each decided on the state so far.
      const all: GameEvent[] = [];
      let s = state;
      // It stops when the turn passed: another seat, the end, or (same seat again, as in a solo
      // game) the state is back at the start of a turn after at least one move.
      for (let guard = 0; guard < 64; guard++) {
        const now = startedPlay(s);
        if (family.currentSeat(now) !== command.seat || family.isFinished(now)) break;
        if (all.length > 0 && family.isTurnStart?.(now)) break;
        const next = family.timeoutMove(now);
        if (next === null) break;
        const events = tagRolls(s, (r) => family.decide(now, asFamilyCommand(next, command.seat), r), roll);
        if (events instanceof RuleError) return events;
        const marked = events.map((e) => ({ ...e, data: { ...e.data, reason: 'timeout' } }));
        for (const e of marked) s = evolveGame(s, e);
        all.push(...marked);
      }
      return withFinish(state, [], all);
    }
    default:
      return ruleError('INVALID_COMMAND', `Unknown command ${(command as { type: string }).type}`);
  }
}

/**
 * The state whose seeds the dice of `command` must come from. The same as `state`, except for a
 * start command: its dice (Farkle's roll-off) already use the seeds fixed BY the start (given or
 * generated in the command). Callers build their roller from this state (the rules stay pure).
 */
export function seedsStateFor(state: GameState, command: GameCommand): GameState {
  if (command.type !== 'start' || state.status !== 'open') return state;
  const seeds = startSeeds(state, command);
  if (seeds instanceof RuleError) return state;
  const list = seeds.clientSeeds;
  return { ...state, seats: state.seats.map((s, i) => ({ ...s, clientSeed: list[i] ?? s.clientSeed })) };
}

/**
 * The `gameStarted` payload: the seats' seeds in seat order after the creator's `seeds`, and (new
 * form) which of them the service generated. Legacy start commands (no `generatedSeeds`) need a
 * seed on every seat and record no generated flags, exactly as they did.
 */
function startSeeds(state: GameState, command: StartCommand): LifecycleEventData['gameStarted'] | RuleError {
  const seeds = state.seats.map((s) => s.clientSeed);
  const generated = state.seats.map(() => false);
  const apply = (list: unknown, given: boolean): RuleError | null => {
    if (!Array.isArray(list)) return ruleError('INVALID_COMMAND', 'seeds must be a list of { seat, clientSeed }');
    const seen = new Set<number>();
    for (const item of list as SeatSeed[]) {
      const seat = item?.seat;
      if (!Number.isInteger(seat) || seat < 0 || seat >= state.seatCount)
        return ruleError('INVALID_COMMAND', `seat must be between 0 and ${state.seatCount - 1}`);
      if (seen.has(seat)) return ruleError('INVALID_COMMAND', `seat ${seat} is named twice`);
      seen.add(seat);
      const bad = seedError(item.clientSeed);
      if (bad) return bad;
      if (given) {
        if (state.seats[seat].playerId !== command.playerId)
          return ruleError('NOT_YOUR_SEAT', `Seat ${seat} is not yours`, { seat });
      } else {
        if (seeds[seat] !== null)
          return ruleError('INVALID_COMMAND', `seat ${seat} has a seed: a generated one cannot replace it`);
        generated[seat] = true;
      }
      seeds[seat] = item.clientSeed;
    }
    return null;
  };
  if (command.seeds !== undefined) {
    const bad = apply(command.seeds, true);
    if (bad) return bad;
  }
  if (command.generatedSeeds === undefined) {
    const missing = seeds.findIndex((s) => s === null);
    if (missing >= 0) return ruleError('INVALID_COMMAND', `seat ${missing} has no client seed`);
    return { clientSeeds: seeds.map((s) => s!) };
  }
  const bad = apply(command.generatedSeeds, false);
  if (bad) return bad;
  const missing = seeds.findIndex((s) => s === null);
  if (missing >= 0) return ruleError('INVALID_COMMAND', `seat ${missing} has no client seed`);
  return { clientSeeds: seeds.map((s) => s!), clientSeedsGenerated: generated };
}

/** "Seat 1 is", "Seats 1 and 2 are", "Seats 1, 2 and 3 are" (the seats of a refused start). */
export function openSeatsSentence(seats: readonly number[]): string {
  if (seats.length === 1) return `Seat ${seats[0]} is`;
  return `Seats ${seats.slice(0, -1).join(', ')} and ${seats[seats.length - 1]} are`;
}
