import {
  bounded,
  currentDeviation,
  elapsedPeriods,
  glicko2,
  INITIAL_RATING,
  isProvisional,
  pairScore,
  RATING_PERIOD_MS,
  rateGame,
} from './index';

describe('Glicko-2 (Glickman, "Example of the Glicko-2 system")', () => {
  it('reproduces the worked example: 1500/200/0.06, τ 0.5, vs 1400/30 won, 1550/100 lost, 1700/300 lost', () => {
    const after = glicko2(
      { rating: 1500, rd: 200, volatility: 0.06 },
      [
        { opponent: { rating: 1400, rd: 30 }, score: 1 },
        { opponent: { rating: 1550, rd: 100 }, score: 0 },
        { opponent: { rating: 1700, rd: 300 }, score: 0 },
      ],
      1,
    );
    // The paper rounds μ′ = −0.2069 and φ′ = 0.8722 before converting back (1464.06, 151.52);
    // unrounded arithmetic gives 1464.0507 and 151.5165 (docs/ratings.md §2).
    expect(((after.rating - 1500) / 173.7178).toFixed(4)).toBe('-0.2069');
    expect((after.rd / 173.7178).toFixed(4)).toBe('0.8722');
    expect((-0.2069 * 173.7178 + 1500).toFixed(2)).toBe('1464.06');
    expect(Math.abs(after.rating - 1464.06)).toBeLessThan(0.01);
    expect(after.rd.toFixed(2)).toBe('151.52');
    // The paper gives σ′ = 0.05999 (truncated): 0.0599959…
    expect(after.volatility.toFixed(6)).toBe('0.059996');
  });

  it('grows the deviation with the time without play (docs/ratings.md, the time-decay case)', () => {
    // 1500 / 50 / 0.06, 52 weeks (52 periods) without a rated game: RD √(50²/s² + 52·0.06²)·s = 90.27
    const last = Date.UTC(2026, 0, 1);
    const now = last + 52 * RATING_PERIOD_MS;
    expect(elapsedPeriods(last, now)).toBe(52);
    expect(currentDeviation({ rating: 1500, rd: 50, volatility: 0.06 }, last, now).toFixed(2)).toBe('90.27');
    // Never above the starting deviation.
    expect(currentDeviation({ rating: 1500, rd: 300, volatility: 0.06 }, last, now + 1000 * RATING_PERIOD_MS)).toBe(
      350,
    );
    // No previous game: one period, as in the paper.
    expect(elapsedPeriods(null, now)).toBe(1);
  });

  it('a game played right after the last one barely grows the deviation; a long pause lowers the gain in certainty', () => {
    const r = { rating: 1600, rd: 80, volatility: 0.06 };
    const opp = [{ opponent: { rating: 1600, rd: 80 }, score: 1 as const }];
    const soon = glicko2(r, opp, 0);
    const late = glicko2(r, opp, 100);
    expect(soon.rd).toBeLessThan(late.rd);
    expect(late.rating - 1600).toBeGreaterThan(soon.rating - 1600);
  });

  it('bounds rating, deviation and volatility', () => {
    expect(bounded({ rating: 10, rd: 10, volatility: 0.5 })).toEqual({ rating: 400, rd: 45, volatility: 0.1 });
    expect(bounded({ rating: 5000, rd: 900, volatility: 0.05 })).toEqual({ rating: 4000, rd: 350, volatility: 0.05 });
  });

  it('is provisional while the deviation is above 110', () => {
    expect(isProvisional({ rd: 110.01 })).toBe(true);
    expect(isProvisional({ rd: 110 })).toBe(false);
  });
});

describe('rated games as pairwise results', () => {
  it('scores pairs by forfeit, then totals (equal totals: a draw)', () => {
    const a = { playerId: 'a', total: 200, forfeited: false };
    expect(pairScore(a, { playerId: 'b', total: 150, forfeited: false })).toBe(1);
    expect(pairScore(a, { playerId: 'b', total: 200, forfeited: false })).toBe(0.5);
    expect(pairScore(a, { playerId: 'b', total: 300, forfeited: true })).toBe(1);
    expect(pairScore({ ...a, forfeited: true }, { playerId: 'b', total: 10, forfeited: false })).toBe(0);
    expect(pairScore({ ...a, forfeited: true }, { playerId: 'b', total: 10, forfeited: true })).toBe(1);
  });

  it('rates a three-player game as one period per player from everyone’s rating before it', () => {
    const seats = [
      { playerId: 'a', total: 250, forfeited: false },
      { playerId: 'b', total: 180, forfeited: false },
      { playerId: 'c', total: 250, forfeited: false },
    ];
    const b = { rating: 1700, rd: 100, volatility: 0.06, lastGameAtMs: 0 };
    const t = 2 * RATING_PERIOD_MS;
    const changes = rateGame(seats, new Map([['b', b]]), t);
    expect(changes.map((c) => [c.playerId, c.wins, c.draws, c.losses])).toEqual([
      ['a', 1, 1, 0],
      ['b', 0, 0, 2],
      ['c', 1, 1, 0],
    ]);
    const start = { rating: 1500, rd: 350 };
    expect(changes[0].after).toEqual(
      bounded(
        glicko2(
          INITIAL_RATING,
          [
            { opponent: { rating: 1700, rd: 100 }, score: 1 },
            { opponent: start, score: 0.5 },
          ],
          1,
        ),
      ),
    );
    expect(changes[1].after).toEqual(
      bounded(
        glicko2(
          b,
          [
            { opponent: start, score: 0 },
            { opponent: start, score: 0 },
          ],
          2,
        ),
      ),
    );
    expect(changes[1].after.rating).toBeLessThan(1700);
    expect(changes[0].after.rating).toBeGreaterThan(1500);
  });
});
