/** A die face. */
export type Die = 1 | 2 | 3 | 4 | 5 | 6;

/**
 * Supplies the faces of one roll of `count` dice. The rules never draw random numbers:
 * the application passes a roller (backed by the commit–reveal stream), the resulting
 * dice are recorded in the event, and a replay never calls it again.
 * Each call is one "roll" in the fairness stream, so call it exactly once per physical roll.
 */
export type RollDice = (count: number, at?: RollAddress) => Die[];

/**
 * Where a roll sits in the game, given by families whose dice have fixed positions (five-dice):
 * the seat's turn (0-based: boxes it had filled), the roll within the turn (0-based) and the
 * positions (0..4) the roll throws. Ordinary games ignore it; duplicate tournament games take each
 * position's face from the round's shared stream (docs/fairness.md §10), so equal holds give equal dice.
 */
export interface RollAddress {
  turn: number;
  roll: number;
  positions: readonly number[];
}

export const isDie = (value: unknown): value is Die =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 6;

/** A roller for tests and replays that must not roll: fails loudly if called. */
export const noDice: RollDice = () => {
  throw new Error('no dice expected for this command');
};

/** A roller that hands out pre-scripted faces in order (tests, simulations). */
export function scriptedDice(faces: readonly number[]): RollDice {
  let next = 0;
  return (count) => {
    if (next + count > faces.length) throw new Error(`scripted dice exhausted at ${next} (+${count})`);
    const out = faces.slice(next, next + count) as Die[];
    next += count;
    return out;
  };
}
