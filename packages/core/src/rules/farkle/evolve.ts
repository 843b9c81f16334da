/** Farkle's evolve: one event applied to the state (pure), and the replay of a stored log. */
import { replay as foldEvents } from '../core/replay';
import { type FarkleOptions, farkle } from './options';
import { HOT_DICE, initialState } from './setup';
import type { FarkleEvent, FarkleState, FarkleTurn } from './types';

const fail = (event: FarkleEvent, why: string): never => {
  throw new Error(`Farkle event ${JSON.stringify(event)} does not apply: ${why}`);
};

const set = <T>(arr: readonly T[], i: number, v: T): T[] => {
  const out = arr.slice();
  out[i] = v;
  return out;
};

function turnOf(state: FarkleState, event: FarkleEvent & { seat: number }): FarkleTurn {
  if (!state.turn || state.turn.seat !== event.seat) fail(event, `it is not seat ${event.seat}'s turn`);
  return state.turn!;
}

/**
 * Applies one event (pure; returns a new state). Throws on an event that cannot follow the state
 * (an event after the end, the wrong seat, inconsistent totals): decide never produces those, and
 * an offline verifier replaying a stored log learns that the log is corrupt.
 */
export function evolve(state: FarkleState, event: FarkleEvent): FarkleState {
  if (state.phase === 'finished') fail(event, 'the game is over');
  switch (event.type) {
    case 'rollOff': {
      if (state.phase !== 'waiting') fail(event, 'the game has started');
      const high = Math.max(...event.dice);
      return {
        ...state,
        rollOffRound: event.round,
        rollOffSeats: event.seats.filter((_, i) => event.dice[i] === high),
      };
    }
    case 'turnStarted': {
      const starter = state.starter ?? event.seat;
      const lastRound = state.lastRound && {
        ...state.lastRound,
        remaining: state.lastRound.remaining.filter((s) => s !== event.seat),
      };
      return {
        ...state,
        phase: 'playing',
        starter,
        lastRound,
        turn: { seat: event.seat, roll: null, setAside: null, points: 0, diceLeft: HOT_DICE },
      };
    }
    case 'rolled': {
      const turn = turnOf(state, event);
      return { ...state, turn: { ...turn, roll: event.dice.slice(), setAside: null, diceLeft: event.dice.length } };
    }
    case 'setAside': {
      const turn = turnOf(state, event);
      if (event.turnPoints !== turn.points + event.points) fail(event, 'turn points do not add up');
      return {
        ...state,
        turn: {
          ...turn,
          setAside: event.dice.slice(),
          points: event.turnPoints,
          diceLeft: turn.diceLeft - event.dice.length,
        },
      };
    }
    case 'farkled':
      turnOf(state, event);
      return { ...state, turn: null, farkleStreak: set(state.farkleStreak, event.seat, event.streak) };
    case 'penalty':
      if (event.total !== state.totals[event.seat] - event.points) fail(event, 'total does not add up');
      return { ...state, totals: set(state.totals, event.seat, event.total) };
    case 'banked':
      turnOf(state, event);
      if (event.total !== state.totals[event.seat] + event.points) fail(event, 'total does not add up');
      return {
        ...state,
        turn: null,
        totals: set(state.totals, event.seat, event.total),
        onBoard: set(state.onBoard, event.seat, true),
        farkleStreak: set(state.farkleStreak, event.seat, 0),
      };
    case 'busted':
      turnOf(state, event);
      return { ...state, turn: null, farkleStreak: set(state.farkleStreak, event.seat, 0) };
    case 'passed':
      turnOf(state, event);
      return { ...state, turn: null };
    case 'lastRound':
      return { ...state, lastRound: { trigger: event.seat, remaining: event.seats.slice() } };
    case 'quit':
      turnOf(state, event);
      return { ...state, turn: null, quit: set(state.quit, event.seat, true) };
    case 'finished':
      return { ...state, phase: 'finished', turn: null, finishReason: event.reason };
    default:
      return fail(event, 'unknown event type');
  }
}

/** Rebuilds the state from the initial state and the stored events. */
export function replay(events: readonly FarkleEvent[], options: FarkleOptions = farkle, seatCount = 1): FarkleState {
  return foldEvents(evolve, initialState(options, seatCount), events);
}
