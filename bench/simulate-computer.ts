/**
 * Average score of the computer player (computerHold + computerChoice) over simulated solo games.
 *   npx tsc -p tsconfig.build.json && node dist/bench/simulate-computer.js [games] [seed]
 * Dice come from a seeded sfc32 generator, so a run is reproducible (same seed → same averages).
 */
import type { Die, RollDice } from '@fairdice/core/rules/core/dice';
import {
  FIVE_DICE_PRESETS,
  type FiveDicePresetName,
  type SimulationResult,
  simulateComputer,
} from '@fairdice/core/rules/five-dice';

/** sfc32: small fast counter PRNG (32-bit state words), returns floats in [0, 1). */
export function sfc32(a: number, b: number, c: number, d: number): () => number {
  return () => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}

/** A deterministic RollDice from a seed (not for real games: those use the commit–reveal stream). */
export function seededRoller(seed: number): RollDice {
  const next = sfc32(0x9e3779b9, 0x243f6a88, 0xb7e15162, seed >>> 0);
  for (let i = 0; i < 20; i++) next(); // mix the seed in
  return (count) => Array.from({ length: count }, () => (1 + Math.floor(next() * 6)) as Die);
}

export function runSimulation(
  games = 100_000,
  seed = 20261129,
): Array<{ preset: FiveDicePresetName } & SimulationResult & { seconds: number }> {
  const out = [];
  for (const preset of Object.keys(FIVE_DICE_PRESETS) as FiveDicePresetName[]) {
    const t0 = performance.now();
    const result = simulateComputer(FIVE_DICE_PRESETS[preset], seededRoller(seed), games);
    out.push({ preset, ...result, seconds: (performance.now() - t0) / 1000 });
  }
  return out;
}

if (require.main === module) {
  const games = Number(process.argv[2] ?? 100_000);
  const seed = Number(process.argv[3] ?? 20261129);
  console.log(`five-dice computer player: ${games} solo games per preset, seed ${seed}`);
  for (const r of runSimulation(games, seed)) {
    console.log(
      `${r.preset.padEnd(7)} average ${r.average.toFixed(2)}  min ${r.min}  max ${r.max}  ` +
        `upper bonus ${(100 * r.upperBonusRate).toFixed(1)}%  fives/game ${r.fiveOfAKindPerGame.toFixed(3)}  (${r.seconds.toFixed(1)} s)`,
    );
  }
}
