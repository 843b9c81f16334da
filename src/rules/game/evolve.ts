import { familyById, RuleSetName } from '../registry';
import { FamilyId, SeatStanding } from '../core/family';
import { GameEvent, GameState, SeatState, Visibility } from './types';

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
  seats: [],
  status: 'open',
  version: 0,
  rollCount: 0,
  play: null,
  standings: null,
});

/** Applies one stored event. Lifecycle events are handled here, the rest by the family. */
export function evolveGame(state: GameState, event: GameEvent): GameState {
  const next: GameState = { ...state, version: state.version + 1, rollCount: state.rollCount + (event.rollNumber === null ? 0 : 1) };
  const d = event.data;
  switch (event.type) {
    case 'gameCreated':
      return {
        ...next,
        ruleSet: d.ruleSet as RuleSetName,
        family: d.family as FamilyId,
        options: d.options as Record<string, unknown>,
        seatCount: d.seatCount as number,
        visibility: d.visibility as Visibility,
        creatorId: d.creatorId as string,
        commitment: d.commitment as string,
        organizerSeed: (d.organizerSeed as string | null) ?? null,
        turnTimeLimitSeconds: (d.turnTimeLimitSeconds as number | null) ?? null,
        seats: Array.from({ length: d.seatCount as number }, (_, seat): SeatState => ({ seat, playerId: null, hotSeat: false, clientSeed: null })),
        status: 'open',
      };
    case 'seatTaken':
      return {
        ...next,
        seats: next.seats.map((s) =>
          s.seat === event.seat ? { seat: s.seat, playerId: d.playerId as string, hotSeat: Boolean(d.hotSeat), clientSeed: d.clientSeed as string } : s,
        ),
      };
    case 'seatLeft':
      return { ...next, seats: next.seats.map((s) => (s.seat === event.seat ? { seat: s.seat, playerId: null, hotSeat: false, clientSeed: null } : s)) };
    case 'gameStarted': {
      const family = familyById(next.family);
      return { ...next, status: 'playing', play: family.initialState(next.options, next.seatCount) };
    }
    case 'gameAbandoned':
      return { ...next, status: 'abandoned' };
    case 'gameFinished':
      return { ...next, status: 'finished', standings: d.standings as SeatStanding[] };
    default: {
      if (next.play === null) return next; // cannot happen for events decide produced
      const family = familyById(next.family);
      return { ...next, play: family.evolve(next.play, d) };
    }
  }
}

export function replayGame(id: string, events: readonly GameEvent[]): GameState {
  let state = emptyGame(id);
  for (const event of events) state = evolveGame(state, event);
  return state;
}
