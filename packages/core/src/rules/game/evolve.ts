import { simple } from '../five-dice/options';
import { familyById } from '../registry';
import { asFamilyEvent } from './play';
import { DEFAULT_COMPUTER_LEVEL, type GameEvent, type GameState, isLifecycle, type SeatState } from './types';

/** The state before any event. */
export const emptyGame = (id: string): GameState => ({
  id,
  ruleSet: 'simple',
  family: 'five-dice',
  options: simple,
  seatCount: 0,
  visibility: 'public',
  creatorId: '',
  commitment: '',
  organizerSeed: null,
  turnTimeLimitSeconds: null,
  computerLevel: DEFAULT_COMPUTER_LEVEL,
  advice: 'allowed',
  rematchOf: null,
  rated: false,
  seats: [],
  status: 'open',
  version: 0,
  rollCount: 0,
  play: null,
  standings: null,
});

/**
 * Applies one stored event. Lifecycle events are handled here, the rest by the family.
 * The new state is built once per event: one copy of `state`, whose fields are then set on
 * the copy (never on `state`), so earlier states stay untouched.
 */
export function evolveGame(state: GameState, event: GameEvent): GameState {
  const next: GameState = { ...state };
  next.version = state.version + 1;
  if (event.rollNumber !== null) next.rollCount = state.rollCount + 1;
  if (!isLifecycle(event)) {
    if (state.play !== null) next.play = familyById(state.family).evolve(state.play, asFamilyEvent(event.data)); // null cannot happen for events decide produced
    return next;
  }
  switch (event.type) {
    case 'gameCreated': {
      const d = event.data;
      next.ruleSet = d.ruleSet;
      next.family = d.family;
      next.options = d.options;
      next.seatCount = d.seatCount;
      next.visibility = d.visibility;
      next.creatorId = d.creatorId;
      next.commitment = d.commitment;
      next.organizerSeed = d.organizerSeed ?? null;
      next.turnTimeLimitSeconds = d.turnTimeLimitSeconds ?? null;
      next.computerLevel = d.computerLevel ?? DEFAULT_COMPUTER_LEVEL;
      if (d.tournament) next.tournament = { ...d.tournament };
      next.advice = d.advice === 'forbidden' ? 'forbidden' : 'allowed';
      next.rematchOf = typeof d.rematchOf === 'string' ? d.rematchOf : null;
      next.rated = d.rated === true;
      const seats: SeatState[] = [];
      for (let seat = 0; seat < d.seatCount; seat++) seats.push(emptySeat(seat));
      next.seats = seats;
      next.status = 'open';
      return next;
    }
    case 'seatTaken': {
      const d = event.data;
      next.seats = state.seats.map((s) =>
        s.seat === event.seat
          ? {
              ...emptySeat(s.seat),
              playerId: d.playerId,
              hotSeat: Boolean(d.hotSeat),
              name: typeof d.name === 'string' ? d.name : null,
              clientSeed: d.clientSeed ?? null,
            }
          : s,
      );
      return next;
    }
    case 'computerSeated': {
      const level = event.data.level;
      next.seats = state.seats.map((s) => (s.seat === event.seat ? { ...emptySeat(s.seat), computer: level } : s));
      return next;
    }
    case 'seatLeft':
      next.seats = state.seats.map((s) => (s.seat === event.seat ? emptySeat(s.seat) : s));
      return next;
    case 'seedSet': {
      const d = event.data;
      if (d.seat === null) next.organizerSeed = d.clientSeed;
      else next.seats = state.seats.map((s) => (s.seat === d.seat ? { ...s, clientSeed: d.clientSeed } : s));
      return next;
    }
    case 'gameStarted': {
      // The seeds in force from here on (seat order); `clientSeedsGenerated` is absent in legacy events.
      const seeds = event.data.clientSeeds;
      const generated = Array.isArray(event.data.clientSeedsGenerated) ? event.data.clientSeedsGenerated : null;
      next.seats = state.seats.map((s, i) => ({
        ...s,
        clientSeed: seeds[i] ?? s.clientSeed,
        clientSeedGenerated: generated ? generated[i] === true : null,
      }));
      next.status = 'playing';
      next.play = familyById(state.family).initialState(state.options, state.seatCount);
      return next;
    }
    case 'gameAbandoned':
      next.status = 'abandoned';
      return next;
    case 'gameFinished':
      next.status = 'finished';
      next.standings = event.data.standings;
      return next;
  }
}

/** A seat nobody holds. */
const emptySeat = (seat: number): SeatState => ({
  seat,
  playerId: null,
  hotSeat: false,
  computer: null,
  name: null,
  clientSeed: null,
  clientSeedGenerated: null,
});

export function replayGame(id: string, events: readonly GameEvent[]): GameState {
  let state = emptyGame(id);
  for (const event of events) state = evolveGame(state, event);
  return state;
}
