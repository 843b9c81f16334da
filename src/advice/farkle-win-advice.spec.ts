import {
  adviseTwoPlayerBankOrRoll,
  adviseTwoPlayerSetAside,
  onBoardChance,
  solveFarkleTwoPlayer,
  winChanceAtTurnStart,
} from '@fairdice/core/rules/advice';
import { farkle } from '@fairdice/core/rules/farkle/options';
import { onBoardChanceOf, winProbabilityView } from './farkle-win-advice';

// A small target (40 units of 50): the two-player table solves in a fraction of a second.
const small = { ...farkle, target: 2000, entryThreshold: 300 };

describe('the Farkle win-probability view and the chance to get on the board', () => {
  const sol = solveFarkleTwoPlayer(small);

  it('lists every set-aside with its win chances, best first, as the pure adviser does', () => {
    const position = { banked: 500, opponent: 1200, turnPoints: 150 };
    const roll = [1, 5, 2, 2, 2, 6] as const;
    const view = winProbabilityView(sol, position, [...roll], null, null);
    const pure = adviseTwoPlayerSetAside(sol, position, roll);
    expect(view).toMatchObject({ objective: 'winProbability', opponent: 1200, leader: null, bank: null, roll: null });
    expect(view.setAsides.map((a) => [a.dice, a.then, a.bank, a.roll, a.value])).toEqual(
      pure.map((a) => [a.dice, a.best, a.bank, a.roll, a.winChance]),
    );
    expect(view.best).toEqual({ action: 'setAside', dice: pure[0].dice, then: pure[0].best, value: pure[0].winChance });
    expect(view.value).toBe(pure[0].winChance);
  });

  it('on a farkle, the value is what is left once the opponent moves (0 on the last turn)', () => {
    const farkled = winProbabilityView(sol, { banked: 500, opponent: 1200, turnPoints: 150 }, [2, 3, 4, 6], null, null);
    expect(farkled.best).toBeNull();
    expect(farkled.value).toBe(1 - winChanceAtTurnStart(sol, 1200, 500));
    const last = winProbabilityView(sol, { banked: 500, opponent: 2100, turnPoints: 150 }, [2, 3, 4, 6], null, null);
    expect(last.value).toBe(0);
  });

  it('gives bank or roll after a set-aside and roll at the start of a turn', () => {
    const position = { banked: 1500, opponent: 1800, turnPoints: 400 };
    const after = winProbabilityView(sol, position, null, 2, null);
    const pure = adviseTwoPlayerBankOrRoll(sol, position, 2);
    expect(after).toMatchObject({ bank: pure.bank, roll: pure.roll, best: { action: pure.best } });
    const start = winProbabilityView(sol, { banked: 0, opponent: 0, turnPoints: 0 }, null, null, 0.5);
    expect(start).toMatchObject({ best: { action: 'roll' }, onBoardChance: 0.5 });
    expect(start.value).toBe(winChanceAtTurnStart(sol, 0, 0));
  });

  it('the chance to get on the board: null on the board or without a threshold, 1 once the turn holds it', () => {
    expect(onBoardChanceOf(small, true, 0, null, null)).toBeNull();
    expect(onBoardChanceOf({ ...small, entryThreshold: 0 }, false, 0, null, null)).toBeNull();
    expect(onBoardChanceOf(small, false, 0, null, null)).toBe(onBoardChance(small, 0, 6));
    expect(onBoardChanceOf(small, false, 300, null, 2)).toBe(1);
    expect(onBoardChanceOf(small, false, 100, null, 2)).toBe(onBoardChance(small, 100, 2));
    // With a roll: the best set-aside. 1,1,1 (1,000) reaches 300 at once.
    expect(onBoardChanceOf(small, false, 0, [1, 1, 1, 2, 3, 4], null)).toBe(1);
    // A single 5 (50) or 5 then roll on: the best of 50 with 5 dice left, and nothing better.
    expect(onBoardChanceOf(small, false, 0, [5, 2, 3, 4, 6, 6], null)).toBe(onBoardChance(small, 50, 5));
    expect(onBoardChanceOf(small, false, 0, [2, 3, 4, 6, 6, 2], null)).toBe(0);
  });
});
