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
  type LifecycleEventData,
  type LifecycleEventType,
  isComputerLevel,
  isLifecycleEvent,
  type SeatMove,
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

/** A lifecycle event, its data typed by its type (LifecycleEventData). */
const lifecycle = <T extends LifecycleEventType>(
  type: T,
  seat: number | null,
  data: LifecycleEventData[T],
): GameEvent => ({
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
        tagRolls(afterStart, (r) => family.start(afterStart.play, r), roll),
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
  if (c.computerLevel !== undefined && !isComputerLevel(c.computerLevel))
    return ruleError('INVALID_OPTIONS', 'computerLevel must be optimal, standard or beginner', {
      option: 'computerLevel',
    });
  if (c.computerSeats !== undefined) {
    const problem = computerSeatsProblem(c.seatCount, c.hotSeats, c.computerSeats);
    if (problem !== null) return ruleError('INVALID_OPTIONS', problem, { option: 'computerSeats' });
  }
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
      // Only when given, so that the create commands from before levels existed re-run to the same event.
      ...(c.computerLevel !== undefined ? { computerLevel: c.computerLevel } : {}),
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
  for (const { seat, level } of [...(c.computerSeats ?? [])].sort((a, b) => a.seat - b.seat)) {
    events.push(lifecycle('computerSeated', seat, { level }));
  }
  return events;
}

/** A seat nobody holds yet: no player and not played by the computer. */
const isOpenSeat = (s: { playerId: string | null; computer: unknown }) => s.playerId === null && s.computer === null;

/**
 * Why a create command's computer seats are wrong, or null: each `{ seat, level }` names a seat
 * from 1 to seatCount − 1 that is not a hot seat (seat 0 is the creator's), at most once, at a
 * known level. The API checks the same first (VALIDATION_FAILED, docs/api.md).
 */
export function computerSeatsProblem(seatCount: number, hotSeats: number, list: unknown): string | null {
  if (!Array.isArray(list)) return 'computerSeats must be a list of { seat, level }';
  const seen = new Set<number>();
  for (const item of list as Array<{ seat?: unknown; level?: unknown }>) {
    const seat = item?.seat;
    if (typeof seat !== 'number' || !Number.isInteger(seat) || seat < 0 || seat >= seatCount)
      return `computer seat ${String(seat)}: a seat is from 1 to ${seatCount - 1}`;
    if (seat === 0) return "computer seat 0: seat 0 is the creator's";
    if (seat <= hotSeats) return `computer seat ${seat}: seats 1 to ${hotSeats} are the creator's hot seats`;
    if (seen.has(seat)) return `computer seat ${seat} is named twice`;
    seen.add(seat);
    if (!isComputerLevel(item.level))
      return `computer seat ${seat}: level must be optimal, standard or beginner, not ${String(item.level)}`;
  }
  return null;
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

/** Events the service made by itself carry why in `data.reason`. */
type ServiceReason = 'timeout' | 'computer' | 'autoScore';

/** A computer seat's turn, or an auto-score: moves the service chose, checked for legality. */
function decideServiceMove(
  state: GameState,
  command: Extract<GameCommand, { type: 'computer' | 'autoScore' }>,
  roll: RollDice,
): GameEvent[] | RuleError {
  if (state.status !== 'playing' || state.play === null)
    return ruleError('GAME_NOT_STARTED', 'The game has not started');
  const family = familyById(state.family);
  const current = family.currentSeat(state.play);
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
  const move = family.autoScoreMove(state.play, command.seat, command.box);
  if (move instanceof RuleError) return move;
  const events = tagRolls(state, (r) => family.decide(state.play, move, r), roll);
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
function serviceTurn(
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
    const events = tagRolls(s, (r) => family.decide(s.play, { ...move, seat }, r), roll);
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

/** "Seat 1 is", "Seats 1 and 2 are", "Seats 1, 2 and 3 are" (the seats of a refused start). */
export function openSeatsSentence(seats: readonly number[]): string {
  if (seats.length === 1) return `Seat ${seats[0]} is`;
  return `Seats ${seats.slice(0, -1).join(', ')} and ${seats[seats.length - 1]} are`;
}
