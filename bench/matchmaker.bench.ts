/**
 * The matchmaker's pairing pass (docs/matchmaking.md §2): the pure `pairSeeks` over 10,000 waiting
 * seeks, ms per pass, in two shapes:
 * - mixed: the seeks spread over the 4 pools, 2–4 seats, rated or casual and 5 time controls
 *   (120 kinds), ratings around 1500 (σ ≈ 300), waits of 0–2 min: most seeks pair;
 * - none pair: 10,000 seeks of one kind, each asking for opponents 100–300 above its own rating,
 *   so none accepts another (the lower one is outside the higher one's window): the steady state
 *   of a lobby where everyone waits, and the walk's worst shape (each seek walks ~1,400 others
 *   inside its window and finds nobody).
 * The database part of a pass (reading the open seeks, creating each game) is the games'
 * creation cost, measured elsewhere (tournament round bench: ~4 ms per game).
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/matchmaker.bench.js
 */
import { performance } from 'node:perf_hooks';
import { RATING_POOLS } from '@fairdice/core/rules/ratings';
import { pairSeeks, TIME_CONTROLS, type WaitingSeek } from '@fairdice/core/rules/seek';

export interface MatchmakerBenchResult {
  name: string;
  opsPerSec: number;
  usPerOp: number;
}

const N = 10_000;
const NOW = Date.UTC(2026, 11, 26, 12);

/** A deterministic pseudo-random sequence in [0, 1) (mulberry32: the same seeks every run). */
function lcg(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function mixed(): WaitingSeek[] {
  const rnd = lcg(11);
  return Array.from({ length: N }, (_, i) => {
    const rated = rnd() < 0.7;
    const normal = (rnd() + rnd() + rnd() + rnd() - 2) * 520; // σ ≈ 300
    return {
      id: `s${String(i).padStart(5, '0')}`,
      playerId: `p${i}`,
      pool: RATING_POOLS[Math.floor(rnd() * RATING_POOLS.length)],
      seats: 2 + Math.floor(rnd() * 3),
      rated,
      turnTimeLimitSeconds: TIME_CONTROLS[Math.floor(rnd() * TIME_CONTROLS.length)],
      ratingMin: null,
      ratingMax: null,
      rating: Math.round(1500 + normal),
      createdAtMs: NOW - Math.floor(rnd() * 120_000),
    };
  });
}

function nonePair(): WaitingSeek[] {
  const rnd = lcg(5);
  return Array.from({ length: N }, (_, i) => {
    const rating = 800 + Math.floor(rnd() * 1400);
    return {
      id: `s${String(i).padStart(5, '0')}`,
      playerId: `p${i}`,
      pool: 'penta',
      seats: 2,
      rated: true,
      turnTimeLimitSeconds: 60,
      // Only players rated 100–300 above: nobody is ever inside both windows.
      ratingMin: rating + 100,
      ratingMax: rating + 300,
      rating,
      createdAtMs: NOW - Math.floor(rnd() * 5_000),
    };
  });
}

function measure(name: string, seeks: WaitingSeek[], runs: number): MatchmakerBenchResult & { games: number } {
  let games = 0;
  games = pairSeeks(seeks, NOW).length; // warm-up
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    games = pairSeeks(seeks, NOW).length;
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const ms = times[Math.floor(times.length / 2)];
  return { name: `${name} (${games} games)`, opsPerSec: Math.round(1000 / ms), usPerOp: Math.round(ms * 1000), games };
}

export function runMatchmakerMicroBenchmarks(opts: { runs?: number } = {}): MatchmakerBenchResult[] {
  const runs = opts.runs ?? 5;
  return [
    measure('matchmaker pass over 10,000 waiting seeks, mixed kinds', mixed(), runs),
    measure('matchmaker pass over 10,000 waiting seeks, none can pair', nonePair(), Math.min(runs, 3)),
  ].map(({ name, opsPerSec, usPerOp }) => ({ name, opsPerSec, usPerOp }));
}

if (require.main === module) {
  for (const r of runMatchmakerMicroBenchmarks())
    console.log(`${r.name}: ${(r.usPerOp / 1000).toFixed(1)} ms per pass (median)`);
}
