/**
 * Micro-benchmark of a rating update (docs/ratings.md): the core computation of one finished rated
 * game (every player's Glicko-2 period, with the volatility iteration) for 2, 4 and 8 seats.
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/ratings.bench.js
 */
import { performance } from 'node:perf_hooks';
import { type PlayerRating, rateGame, RATING_PERIOD_MS, type RatedSeat } from '@fairdice/core/rules/ratings';

export interface RatingsBenchResult {
  name: string;
  opsPerSec: number;
  usPerOp: number;
}

function measure(name: string, fn: (i: number) => unknown, ms: number): RatingsBenchResult {
  let sink: unknown;
  for (let i = 0; i < 500; i++) sink = fn(i);
  let calls = 0;
  const t0 = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let i = 0; i < 64; i++) sink = fn(calls + i);
    calls += 64;
    elapsed = performance.now() - t0;
  }
  if (sink === Symbol.for('never')) console.log(sink);
  const usPerOp = (elapsed * 1000) / calls;
  return { name, opsPerSec: Math.round(1e6 / usPerOp), usPerOp: Math.round(usPerOp * 1000) / 1000 };
}

/** A game of `n` established players with varied ratings and totals (deterministic). */
function game(n: number, salt: number): { seats: RatedSeat[]; current: Map<string, PlayerRating> } {
  const seats: RatedSeat[] = [];
  const current = new Map<string, PlayerRating>();
  for (let s = 0; s < n; s++) {
    const id = `p${s}`;
    seats.push({ playerId: id, total: 150 + ((s * 37 + salt * 11) % 120), forfeited: false });
    current.set(id, {
      rating: 1300 + ((s * 97 + salt) % 500),
      rd: 60 + ((s * 13) % 200),
      volatility: 0.06,
      lastGameAtMs: 0,
    });
  }
  return { seats, current };
}

export function runRatingsMicroBenchmarks(opts: { durationMs?: number } = {}): RatingsBenchResult[] {
  const ms = opts.durationMs ?? 300;
  const at = 3 * RATING_PERIOD_MS;
  return [2, 4, 8].map((n) => {
    const games = Array.from({ length: 16 }, (_, salt) => game(n, salt));
    return measure(
      `rating update of one finished ${n}-seat game (${n} Glicko-2 periods of ${n - 1} results)`,
      (i) => {
        const g = games[i & 15];
        return rateGame(g.seats, g.current, at);
      },
      ms,
    );
  });
}

if (require.main === module) {
  for (const r of runRatingsMicroBenchmarks({ durationMs: 500 }))
    console.log(`${r.name}: ${r.usPerOp} µs/op (${r.opsPerSec.toLocaleString('en')} ops/s)`);
}
