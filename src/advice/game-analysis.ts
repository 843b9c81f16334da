/**
 * Post-game analysis of a finished five-dice game (docs/advice.md "Post-game analysis"): every
 * decision replayed and scored against the solved table, labelled by its expected-value loss,
 * and summed per seat.
 */
import {
  adviseBox,
  adviseEndgameBox,
  adviseEndgameHolds,
  adviseHolds,
  createEndgame,
  endgameCovers,
  expectedScoreFromStart,
  TIE_EPSILON,
  type FiveDiceSolution,
} from '@fairdice/core/rules/advice';
import type { Die } from '@fairdice/core/rules/core/dice';
import { totals, type FiveDiceSheet, type FiveDiceState } from '@fairdice/core/rules/five-dice';
import {
  emptyGame,
  evolveGame,
  fiveDicePlay,
  type GameEvent,
  type GameState,
  startedPlay,
} from '@fairdice/core/rules/game';
import { fiveDiceEndgameTarget } from '@fairdice/core/rules/computer';
import type { DecisionView, GameAnalysisView, SeatAnalysisView } from './dto/advice.dto';

/** Labels by expected-value loss in points (docs/advice.md "Post-game analysis"). */
export const LOSS_THRESHOLDS = { good: 0.5, inaccuracy: 2, mistake: 6 } as const;

/** Labels by win-chance loss in probability units (two-player Farkle; docs/advice.md "Post-game analysis"). */
export const WIN_LOSS_THRESHOLDS = { best: 1e-9, good: 0.01, inaccuracy: 0.03, mistake: 0.08 } as const;

export function labelOfWinLoss(loss: number): DecisionView['label'] {
  if (loss <= WIN_LOSS_THRESHOLDS.best) return 'best';
  if (loss < WIN_LOSS_THRESHOLDS.good) return 'good';
  if (loss < WIN_LOSS_THRESHOLDS.inaccuracy) return 'inaccuracy';
  if (loss < WIN_LOSS_THRESHOLDS.mistake) return 'mistake';
  return 'blunder';
}

export function labelOf(loss: number): DecisionView['label'] {
  if (loss <= TIE_EPSILON) return 'best';
  if (loss < LOSS_THRESHOLDS.good) return 'good';
  if (loss < LOSS_THRESHOLDS.inaccuracy) return 'inaccuracy';
  if (loss < LOSS_THRESHOLDS.mistake) return 'mistake';
  return 'blunder';
}

/** The fields of a decision judged by expected score only. */
const NOT_BY_WIN_CHANCE = {
  turnPoints: null,
  then: null,
  bestThen: null,
  winChance: null,
  bestWinChance: null,
  winChanceLoss: null,
} as const;

/** Replays a finished five-dice game's events and scores every decision against the table. */
export function analyseFiveDice(table: FiveDiceSolution, finalState: GameState, events: GameEvent[]): GameAnalysisView {
  let state = emptyGame(finalState.id);
  const decisions: DecisionView[] = [];
  const turns = new Map<number, number>();
  // After a roll with rolls left, the decision is what the next event of that seat does.
  let pending: {
    seat: number;
    sheet: FiveDiceSheet;
    dice: Die[];
    rollsLeft: 1 | 2;
    version: number;
    toBeat: number | null;
  } | null = null;
  // Endgame decisions (every other seat that has not quit finished, the sheet within the endgame
  // solver's open-box maximum) are judged by win chance (docs/advice.md "Post-game analysis").
  const eg = createEndgame(table.options);
  const endgameTarget = (play: FiveDiceState, seat: number, sheet: FiveDiceSheet) => {
    const toBeat = fiveDiceEndgameTarget(play, seat);
    return toBeat !== null && endgameCovers(eg, sheet) ? toBeat : null;
  };
  const byWin = (win: number | null, bestWin: number | null) => {
    if (win === null || bestWin === null) return { winChance: null, bestWinChance: null, winChanceLoss: null };
    return { winChance: win, bestWinChance: bestWin, winChanceLoss: Math.max(0, bestWin - win) };
  };
  for (const event of events) {
    const before = state;
    state = evolveGame(state, event);
    if (before.family !== 'five-dice' || before.status !== 'playing') continue;
    const play = startedPlay(before);
    const reason = typeof event.data.reason === 'string' ? event.data.reason : null;
    const seat = event.seat ?? -1;
    if (pending && pending.seat === seat && (event.type === 'rolled' || event.type === 'scored')) {
      const kept =
        event.type === 'rolled'
          ? (event.data.held as number[]).map((i) => pending!.dice[i]).sort((a, b) => a - b)
          : [...pending.dice].sort((a, b) => a - b);
      const holds = adviseHolds(table, pending.sheet, pending.dice, pending.rollsLeft);
      const same = (h: { kept: readonly number[] }) =>
        h.kept.length === kept.length && h.kept.every((f, i) => f === kept[i]);
      const chosen = holds.find(same)!;
      const loss = Math.max(0, holds[0].expected - chosen.expected);
      const wins =
        pending.toBeat === null
          ? null
          : adviseEndgameHolds(eg, pending.sheet, pending.toBeat, pending.dice, pending.rollsLeft);
      const win = byWin(wins?.find(same)?.winChance ?? null, wins?.[0].winChance ?? null);
      decisions.push({
        version: before.version + 1,
        seat,
        turn: turns.get(seat) ?? 1,
        kind: 'hold',
        dice: pending.dice,
        rollsLeft: pending.rollsLeft,
        kept,
        box: null,
        bestKept: holds[0].kept,
        bestBox: null,
        expected: chosen.expected,
        bestExpected: holds[0].expected,
        loss,
        ...NOT_BY_WIN_CHANCE,
        ...win,
        label: win.winChanceLoss === null ? labelOf(loss) : labelOfWinLoss(win.winChanceLoss),
        reason,
      });
    }
    pending = null;
    if (event.type === 'rolled') {
      const rollInTurn = event.data.rollInTurn as number;
      if (rollInTurn < 3)
        pending = {
          seat,
          sheet: play.sheets[seat],
          dice: event.data.dice as Die[],
          rollsLeft: (3 - rollInTurn) as 1 | 2,
          version: before.version + 1,
          toBeat: endgameTarget(play, seat, play.sheets[seat]),
        };
    } else if (event.type === 'scored') {
      const dice = play.turn!.dice as Die[];
      const boxes = adviseBox(table, play.sheets[seat], dice);
      const chosen = boxes.find((b) => b.box === event.data.box)!;
      const loss = Math.max(0, boxes[0].expected - chosen.expected);
      const toBeat = endgameTarget(play, seat, play.sheets[seat]);
      const wins = toBeat === null ? null : adviseEndgameBox(eg, play.sheets[seat], toBeat, dice);
      const win = byWin(wins?.find((b) => b.box === chosen.box)?.winChance ?? null, wins?.[0].winChance ?? null);
      decisions.push({
        version: before.version + 1,
        seat,
        turn: turns.get(seat) ?? 1,
        kind: 'box',
        dice: [...dice],
        rollsLeft: 3 - play.turn!.rollInTurn,
        kept: null,
        box: chosen.box,
        bestKept: null,
        bestBox: boxes[0].box,
        expected: chosen.expected,
        bestExpected: boxes[0].expected,
        loss,
        ...NOT_BY_WIN_CHANCE,
        ...win,
        label: win.winChanceLoss === null ? labelOf(loss) : labelOfWinLoss(win.winChanceLoss),
        reason,
      });
      turns.set(seat, (turns.get(seat) ?? 1) + 1);
    }
  }
  const optimalExpectedScore = expectedScoreFromStart(table);
  const finalPlay = fiveDicePlay(finalState);
  if (finalPlay === null) throw new Error('analysis: not a started five-dice game');
  const seats = summariseSeats(
    finalState,
    decisions,
    (totalLoss) => (100 * Math.max(0, optimalExpectedScore - totalLoss)) / optimalExpectedScore,
    (seat) => (finalPlay.sheets[seat] ? totals(finalPlay.sheets[seat], finalPlay.options).total : null),
  );
  return { gameId: finalState.id, optimalExpectedScore, seats, decisions };
}

/** Each seat's counts of its decisions by label, total loss, accuracy (from the total loss) and final score. */
export function summariseSeats(
  finalState: GameState,
  decisions: readonly DecisionView[],
  accuracy: (totalLoss: number) => number,
  score: (seat: number) => number | null,
): SeatAnalysisView[] {
  return finalState.seats.map(({ seat, playerId }) => {
    const mine = decisions.filter((d) => d.seat === seat);
    const totalLoss = mine.reduce((sum, d) => sum + d.loss, 0);
    const count = (label: string) => mine.filter((d) => d.label === label).length;
    return {
      seat,
      playerId,
      decisions: mine.length,
      optimal: count('best'),
      inaccuracies: count('inaccuracy'),
      mistakes: count('mistake'),
      blunders: count('blunder'),
      totalLoss,
      accuracy: accuracy(totalLoss),
      score: score(seat),
    };
  });
}
