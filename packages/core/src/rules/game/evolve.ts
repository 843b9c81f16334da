import { familyById, type RuleSetName } from '../registry';
import type { FamilyId, SeatStanding } from '../core/family';
import {
  type ComputerLevel,
  DEFAULT_COMPUTER_LEVEL,
  type GameEvent,
  type GameState,
  type SeatState,
  type TournamentRef,
  type Visibility,
} from './types';

/** The state before any event. */
export const emptyGame = (id: string): GameState => ({
  id,
  ruleSet: 'simple',
  family: 'five-dice',
  options: {},
  seatCount: 0,
  visibility: 'public',
  creatorId: '',
  commitment: '',
  organizerSeed: null,
  turnTimeLimitSeconds: null,
  computerLevel: DEFAULT_COMPUTER_LEVEL,
  advice: 'allowed',
  rematchOf: null,
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
  const d = event.data;
  switch (event.type) {
    case 'gameCreated': {
      const seatCount = d.seatCount as number;
      next.ruleSet = d.ruleSet as RuleSetName;
      next.family = d.family as FamilyId;
      next.options = d.options as Record<string, unknown>;
      next.seatCount = seatCount;
      next.visibility = d.visibility as Visibility;
      next.creatorId = d.creatorId as string;
      next.commitment = d.commitment as string;
      next.organizerSeed = (d.organizerSeed as string | null) ?? null;
      next.turnTimeLimitSeconds = (d.turnTimeLimitSeconds as number | null) ?? null;
      next.computerLevel = (d.computerLevel as ComputerLevel | undefined) ?? DEFAULT_COMPUTER_LEVEL;
      if (d.tournament) next.tournament = { ...(d.tournament as TournamentRef) };
      next.advice = d.advice === 'forbidden' ? 'forbidden' : 'allowed';
      next.rematchOf = typeof d.rematchOf === 'string' ? d.rematchOf : null;
      const seats: SeatState[] = [];
      for (let seat = 0; seat < seatCount; seat++)
        seats.push({
          seat,
          playerId: null,
          hotSeat: false,
          computer: null,
          name: null,
          clientSeed: null,
          clientSeedGenerated: null,
        });
      next.seats = seats;
      next.status = 'open';
      return next;
    }
    case 'seatTaken':
      next.seats = state.seats.map((s) =>
        s.seat === event.seat
          ? {
              seat: s.seat,
              playerId: d.playerId as string,
              hotSeat: Boolean(d.hotSeat),
              computer: null,
              name: typeof d.name === 'string' ? d.name : null,
              clientSeed: (d.clientSeed as string | null | undefined) ?? null,
              clientSeedGenerated: null,
            }
          : s,
      );
      return next;
    case 'computerSeated':
      next.seats = state.seats.map((s) =>
        s.seat === event.seat
          ? {
              seat: s.seat,
              playerId: null,
              hotSeat: false,
              computer: d.level as ComputerLevel,
              name: null,
              clientSeed: null,
              clientSeedGenerated: null,
            }
          : s,
      );
      return next;
    case 'seatLeft':
      next.seats = state.seats.map((s) =>
        s.seat === event.seat
          ? {
              seat: s.seat,
              playerId: null,
              hotSeat: false,
              computer: null,
              name: null,
              clientSeed: null,
              clientSeedGenerated: null,
            }
          : s,
      );
      return next;
    case 'seedSet':
      if (d.seat === null) next.organizerSeed = d.clientSeed as string;
      else next.seats = state.seats.map((s) => (s.seat === d.seat ? { ...s, clientSeed: d.clientSeed as string } : s));
      return next;
    case 'gameStarted': {
      // The seeds in force from here on (seat order); `clientSeedsGenerated` is absent in legacy events.
      const seeds = d.clientSeeds as string[];
      const generated = Array.isArray(d.clientSeedsGenerated) ? (d.clientSeedsGenerated as boolean[]) : null;
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
      next.standings = d.standings as SeatStanding[];
      return next;
    default:
      if (state.play !== null) next.play = familyById(state.family).evolve(state.play, d); // null cannot happen for events decide produced
      return next;
  }
}

export function replayGame(id: string, events: readonly GameEvent[]): GameState {
  let state = emptyGame(id);
  for (const event of events) state = evolveGame(state, event);
  return state;
}
