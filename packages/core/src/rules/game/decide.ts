import type { Die, RollDice } from '../core/dice';
import { RuleError, ruleError } from '../core/errors';
import { familyById, isRuleSetName, RULE_SETS } from '../registry';
import { evolveGame } from './evolve';
import {
  ADVICE_SETTINGS,
  type CreateCommand,
  type GameCommand,
  type GameEvent,
  type GameState,
  isLifecycleEvent,
  type SeatSeed,
  type StartCommand,
} from './types';

export const MIN_SEATS = 1;
export const MAX_SEATS = 8;

/** Client seeds: 1..128 visible ASCII characters (docs/fairness.md §2.2; mirrors src/fairness/seeds.ts). */
const CLIENT_SEED = /^[\x21-\x7e]{1,128}$/;
const seedError = (s: unknown): RuleError | null =>
  typeof s === 'string' && CLIENT_SEED.test(s)
    ? null
    : ruleError('INVALID_SEED', 'a client seed is 1 to 128 visible ASCII characters (0x21-0x7E), no spaces');

const lifecycle = (type: string, seat: number | null, data: Record<string, unknown>): GameEvent => ({
  type,
  seat,
  data,
  rollNumber: null,
  command: null,
});

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
        if (state.seats[command.seat].playerId !== null)
          return ruleError('SEAT_TAKEN', `Seat ${command.seat} is taken`);
        seat = command.seat;
      } else {
        const open = state.seats.find((s) => s.playerId === null);
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
      const empty = state.seats.filter((s) => s.playerId === null).map((s) => s.seat);
      if (empty.length > 0)
        return ruleError('NOT_ENOUGH_PLAYERS', `Seats ${empty.join(', ')} are still open`, { openSeats: empty });
      const seeds = startSeeds(state, command);
      if (seeds instanceof RuleError) return seeds;
      const started = lifecycle('gameStarted', null, seeds);
      const afterStart = evolveGame(state, started);
      const family = familyById(state.family);
      return withFinish(
        afterStart,
        [started],
        tagRolls(afterStart, (r) => family.start(afterStart.play, r), roll),
      );
    }
    case 'play':
    case 'timeout': {
      if (state.status !== 'playing' || state.play === null)
        return ruleError('GAME_NOT_STARTED', 'The game has not started');
      const family = familyById(state.family);
      const current = family.currentSeat(state.play);
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
        const events = tagRolls(state, (r) => family.decide(state.play, { ...move, seat }, r), roll);
        return events instanceof RuleError ? events : withFinish(state, [], events);
      }
      if (current !== command.seat)
        return ruleError('NOT_YOUR_TURN', `It is seat ${current}'s turn`, { currentSeat: current });
      if (typeof family.timeoutMove !== 'function')
        return ruleError('INVALID_COMMAND', 'This family has no timeout moves');
      // The computer completes the turn: one move at a time, each decided on the state so far.
      const all: GameEvent[] = [];
      let s = state;
      // It stops when the turn passed: another seat, the end, or (same seat again, as in a solo
      // game) the state is back at the start of a turn after at least one move.
      for (let guard = 0; guard < 64; guard++) {
        if (family.currentSeat(s.play) !== command.seat || family.isFinished(s.play)) break;
        if (all.length > 0 && family.isTurnStart?.(s.play)) break;
        const next = family.timeoutMove(s.play) as (Record<string, unknown> & { type: string }) | null;
        if (next === null) break;
        const events = tagRolls(s, (r) => family.decide(s.play, { ...next, seat: command.seat }, r), roll);
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

function decideCreate(state: GameState, c: CreateCommand): GameEvent[] | RuleError {
  if (state.version !== 0) return ruleError('INVALID_COMMAND', 'The game already exists');
  if (!isRuleSetName(c.ruleSet)) return ruleError('INVALID_OPTIONS', `Unknown rule set ${String(c.ruleSet)}`);
  const preset = RULE_SETS[c.ruleSet];
  if (
    !Number.isInteger(c.seatCount) ||
    c.seatCount < Math.max(MIN_SEATS, preset.minSeats) ||
    c.seatCount > Math.min(MAX_SEATS, preset.maxSeats)
  ) {
    return ruleError('INVALID_OPTIONS', `seats must be between ${preset.minSeats} and ${preset.maxSeats}`);
  }
  if (!Number.isInteger(c.hotSeats) || c.hotSeats < 0 || c.hotSeats > c.seatCount - 1) {
    return ruleError('INVALID_OPTIONS', `hotSeats must be between 0 and ${c.seatCount - 1}`);
  }
  // Legacy create commands carried the creator's seeds; new ones leave the seats without a seed.
  if (c.clientSeeds !== undefined && (!Array.isArray(c.clientSeeds) || c.clientSeeds.length !== 1 + c.hotSeats))
    return ruleError('INVALID_COMMAND', 'one client seed per seat held by the creator');
  if (c.advice !== undefined && !(ADVICE_SETTINGS as readonly unknown[]).includes(c.advice))
    return ruleError('INVALID_OPTIONS', `advice must be one of ${ADVICE_SETTINGS.join(', ')}`, { option: 'advice' });
  const badName = hotSeatNamesError(c);
  if (badName) return badName;
  if (c.rematchOf !== undefined && (typeof c.rematchOf !== 'string' || c.rematchOf.length === 0))
    return ruleError('INVALID_COMMAND', 'rematchOf must be a game id');
  const family = familyById(preset.family);
  const options = family.resolveOptions(preset.options, c.options ?? {});
  if (options instanceof RuleError) return options;
  const events: GameEvent[] = [
    lifecycle('gameCreated', null, {
      ruleSet: c.ruleSet,
      family: preset.family,
      options: options as Record<string, unknown>,
      seatCount: c.seatCount,
      visibility: c.visibility,
      creatorId: c.creatorId,
      commitment: c.commitment,
      organizerSeed: c.organizerSeed ?? null,
      turnTimeLimitSeconds: c.turnTimeLimitSeconds,
      ...(c.tournament ? { tournament: { ...c.tournament } } : {}),
      ...(c.advice !== undefined ? { advice: c.advice } : {}),
      ...(c.rematchOf !== undefined ? { rematchOf: c.rematchOf } : {}),
    }),
  ];
  for (let seat = 0; seat <= c.hotSeats; seat++) {
    events.push(
      lifecycle('seatTaken', seat, {
        playerId: c.creatorId,
        clientSeed: c.clientSeeds ? c.clientSeeds[seat] : null,
        hotSeat: seat > 0,
        ...(seat > 0 && c.hotSeatNames !== undefined ? { name: c.hotSeatNames[seat - 1] } : {}),
      }),
    );
  }
  return events;
}

/** Visible characters, none of them control or format characters: the rule of display names. */
export const SEAT_NAME_PATTERN = /^[^\p{Cc}\p{Cf}]*[^\p{Cc}\p{Cf}\s][^\p{Cc}\p{Cf}]*$/u;
export const SEAT_NAME_MAX_LENGTH = 40;

function hotSeatNamesError(c: CreateCommand): RuleError | null {
  if (c.hotSeatNames === undefined) return null;
  const names: unknown = c.hotSeatNames;
  if (!Array.isArray(names) || names.length !== c.hotSeats)
    return ruleError('INVALID_OPTIONS', `hotSeatNames must name each of the ${c.hotSeats} hot seats, in seat order`, {
      option: 'hotSeatNames',
    });
  for (const [i, name] of names.entries()) {
    if (
      typeof name !== 'string' ||
      name.length < 1 ||
      name.length > SEAT_NAME_MAX_LENGTH ||
      !SEAT_NAME_PATTERN.test(name)
    )
      return ruleError(
        'INVALID_OPTIONS',
        `hotSeatNames[${i}] must be 1 to ${SEAT_NAME_MAX_LENGTH} characters with a visible one and no control characters`,
        { option: 'hotSeatNames' },
      );
  }
  return null;
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
  const list = seeds.clientSeeds as Array<string | null>;
  return { ...state, seats: state.seats.map((s, i) => ({ ...s, clientSeed: list[i] ?? s.clientSeed })) };
}

/**
 * The `gameStarted` payload: the seats' seeds in seat order after the creator's `seeds`, and (new
 * form) which of them the service generated. Legacy start commands (no `generatedSeeds`) need a
 * seed on every seat and record no generated flags, exactly as they did.
 */
function startSeeds(state: GameState, command: StartCommand): Record<string, unknown> | RuleError {
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
    return { clientSeeds: seeds };
  }
  const bad = apply(command.generatedSeeds, false);
  if (bad) return bad;
  const missing = seeds.findIndex((s) => s === null);
  if (missing >= 0) return ruleError('INVALID_COMMAND', `seat ${missing} has no client seed`);
  return { clientSeeds: seeds, clientSeedsGenerated: generated };
}

/**
 * Runs a family decision with a roller that numbers each physical roll, and stamps the roll
 * number on the event that records those dice (the family says which via `rolledDice`).
 */
function tagRolls(
  state: GameState,
  run: (roll: RollDice) => unknown[] | RuleError,
  roll: RollDice,
): GameEvent[] | RuleError {
  const family = familyById(state.family);
  const rolls: Die[][] = [];
  const counting: RollDice = (count, at) => {
    const dice = roll(count, at);
    rolls.push(dice);
    return dice;
  };
  const familyEvents = run(counting);
  if (familyEvents instanceof RuleError) return familyEvents;
  let next = 0;
  const events = familyEvents.map((raw): GameEvent => {
    const e = raw as Record<string, unknown> & { type: string; seat?: number };
    if (isLifecycleEvent(e.type)) throw new Error(`family event type ${e.type} collides with a lifecycle event`);
    if (typeof family.rolledDice !== 'function')
      throw new Error(`family ${family.id} does not say which events record rolls`);
    const dice = family.rolledDice(e);
    let rollNumber: number | null = null;
    if (dice !== null) {
      const expected = rolls[next];
      if (!expected || expected.length !== dice.length || expected.some((d, i) => d !== dice[i])) {
        throw new Error(`event ${e.type} does not record roll ${next} of this command`);
      }
      rollNumber = state.rollCount + next;
      next++;
    }
    return { type: e.type, seat: typeof e.seat === 'number' ? e.seat : null, data: e, rollNumber, command: null };
  });
  if (next !== rolls.length) throw new Error(`${rolls.length} rolls made but ${next} recorded`);
  return events;
}

/** Appends `gameFinished` with the standings when the family says the game is over. */
function withFinish(state: GameState, prefix: GameEvent[], events: GameEvent[] | RuleError): GameEvent[] | RuleError {
  if (events instanceof RuleError) return events;
  let s = state;
  const all = [...prefix, ...events];
  for (const e of events) s = evolveGame(s, e);
  if (s.play !== null && familyById(s.family).isFinished(s.play)) {
    all.push(lifecycle('gameFinished', null, { standings: familyById(s.family).standings(s.play) }));
  }
  return all;
}
