/**
 * Post-game analysis of a finished two-seat Farkle game (docs/advice.md "Post-game analysis"):
 * the events replayed, every decision (a roll's set-aside with its bank-or-roll) scored by its
 * chance to win against the best one in the two-player table, labelled by its win-chance loss,
 * and summed per seat.
 */
import {
  adviseTwoPlayerSetAside,
  winChanceAtTurnStart,
  type FarkleTwoPlayerSolution,
} from '@fairdice/core/rules/advice';
import type { Die } from '@fairdice/core/rules/core/dice';
import { emptyGame, evolveGame, farklePlay, type GameEvent, type GameState } from '@fairdice/core/rules/game';
import type { DecisionView, GameAnalysisView } from './dto/advice.dto';
import { labelOfWinLoss, summariseSeats } from './game-analysis';

const sorted = (faces: readonly number[]) => [...faces].sort((a, b) => a - b);
const sameFaces = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && sorted(a).every((f, i) => f === sorted(b)[i]);

/** A roll that scores, waiting for its set-aside and then the bank or the next roll. */
interface Pending {
  seat: number;
  roll: Die[];
  banked: number;
  opponent: number;
  turnPoints: number;
  setAside: { faces: number[]; version: number; reason: string | null } | null;
}

/** Replays a finished two-seat Farkle game's events and scores every decision against the two-player table. */
export function analyseFarkleTwoPlayer(
  sol: FarkleTwoPlayerSolution,
  finalState: GameState,
  events: GameEvent[],
): GameAnalysisView {
  let state = emptyGame(finalState.id);
  const decisions: DecisionView[] = [];
  const turns = new Map<number, number>();
  let pending = null as Pending | null;

  const decide = (p: Pending, then: 'bank' | 'roll') => {
    const chosenFaces = p.setAside!.faces;
    const list = adviseTwoPlayerSetAside(
      sol,
      { banked: p.banked, opponent: p.opponent, turnPoints: p.turnPoints },
      p.roll,
    );
    const chosen = list.find((a) => sameFaces(a.faces, chosenFaces));
    const value = chosen && (then === 'bank' ? chosen.bank : chosen.roll);
    if (value === null || value === undefined)
      throw new Error(`analysis: the set-aside ${chosenFaces.join(',')} then ${then} is not a move of this position`);
    const best = list[0];
    const winChanceLoss = Math.max(0, best.winChance - value);
    decisions.push({
      version: p.setAside!.version,
      seat: p.seat,
      turn: turns.get(p.seat) ?? 1,
      kind: 'setAside',
      dice: p.roll,
      rollsLeft: 0,
      kept: sorted(chosenFaces),
      box: null,
      bestKept: sorted(best.faces),
      bestBox: null,
      turnPoints: p.turnPoints,
      then,
      bestThen: best.best,
      expected: value,
      bestExpected: best.winChance,
      loss: winChanceLoss,
      winChance: value,
      bestWinChance: best.winChance,
      winChanceLoss,
      label: labelOfWinLoss(winChanceLoss),
      reason: p.setAside!.reason,
    });
  };

  for (const event of events) {
    const before = state;
    state = evolveGame(state, event);
    if (before.family !== 'farkle' || before.status !== 'playing') continue;
    const seat = event.seat ?? -1;
    const reason = typeof event.data.reason === 'string' ? event.data.reason : null;
    switch (event.type) {
      case 'turnStarted':
        turns.set(seat, (turns.get(seat) ?? 0) + 1);
        pending = null;
        break;
      case 'rolled': {
        if (pending?.seat === seat && pending.setAside) decide(pending, 'roll');
        pending = null;
        const play = farklePlay(state)!;
        const roll = event.data.dice as Die[];
        // A farkle ends the turn (its `farkled` event follows): no choice was left.
        if (play.turn?.seat === seat && play.turn.roll !== null)
          pending = {
            seat,
            roll,
            banked: play.totals[seat],
            opponent: play.totals[1 - seat],
            turnPoints: play.turn.points,
            setAside: null,
          };
        break;
      }
      case 'setAside':
        if (pending?.seat === seat)
          pending.setAside = { faces: event.data.faces as number[], version: before.version + 1, reason };
        break;
      case 'banked':
        if (pending?.seat === seat && pending.setAside) decide(pending, 'bank');
        pending = null;
        break;
      default:
        // farkled, passed (a timed-out turn that could not bank), quit, busted, the end: no decision.
        if (event.type !== 'lastRound') pending = null;
    }
  }

  const play = farklePlay(finalState);
  if (play === null) throw new Error('analysis: not a started Farkle game');
  // Accuracy: the share of a whole game's win chance the seat's decisions kept (docs/advice.md).
  const seats = summariseSeats(
    finalState,
    decisions,
    (totalLoss) => 100 * Math.max(0, 1 - totalLoss),
    (seat) => play.totals[seat] ?? null,
  );
  return { gameId: finalState.id, optimalExpectedScore: winChanceAtTurnStart(sol, 0, 0), seats, decisions };
}
