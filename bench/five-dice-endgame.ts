/**
 * The five-dice endgame (packages/core/src/rules/advice/five-dice-endgame.ts; docs/advice.md "Five
 * dice: the endgame and the bonus chance").
 *
 * latency: the first decision of a turn on a random sheet with k open boxes and a random total to
 * beat, from an empty memo (the solve of every state reachable from the sheet, then the holds of
 * the first roll): p50 / p99 / max CPU-bound wall time, states solved and the heap they hold.
 *   npm run build && node --expose-gc dist/bench/five-dice-endgame.js latency [decisions] [maxOpen] [seed]
 *
 * simulate: for k open boxes, N random (sheet, toBeat) situations; each is played out twice with the
 * same seeded dice, once by the endgame policy and once by expected-score play (adviseHolds /
 * adviseBox), and the share of wins (a tie counts half) is compared: both shares with a 95 %
 * confidence interval and the paired difference with its own.
 *   npm run build && node dist/bench/five-dice-endgame.js simulate [situations] [k] [seed] [preset]
 *
 * bonus: the cost of the upper-bonus chance table (withBonusChance) beside the solve: CPU time of
 * each, bytes in memory and serialized (table format v2), and the empty sheet's chance.
 *   npm run build && node dist/bench/five-dice-endgame.js bonus [preset|official]
 */
import { performance } from 'node:perf_hooks';
import type { Die, RollDice } from '@fairdice/core/rules/core/dice';
import {
  ENDGAME_MAX_OPEN_BOXES,
  type FiveDiceEndgame,
  type FiveDiceSolution,
  adviseBox,
  adviseEndgameBox,
  adviseEndgameHolds,
  adviseHolds,
  createEndgame,
  endgameWinChance,
  expectedFinalScore,
  serializeSolution,
  solveFiveDice,
  upperBonusChance,
  withBonusChance,
} from '@fairdice/core/rules/advice';
import {
  BOX_IDS,
  type BoxId,
  FIVE_DICE_PRESETS,
  type FiveDiceOptions,
  type FiveDiceSheet,
  totals,
} from '@fairdice/core/rules/five-dice';
import { seededRoller, sfc32 } from './simulate-computer';

/** A random sheet with exactly `open` open boxes (values as advice.bench's random decisions). */
export function randomEndgameSheet(next: () => number, open: number, options: FiveDiceOptions): FiveDiceSheet {
  const boxes: Partial<Record<BoxId, number>> = {};
  const order = BOX_IDS.slice().sort(() => next() - 0.5);
  for (const box of order.slice(open)) {
    const upper = BOX_IDS.indexOf(box);
    if (upper < 6) boxes[box] = Math.floor(next() * 6) * (upper + 1);
    else if (box === 'fiveOfAKind') boxes[box] = next() < 0.3 ? 50 : 0;
    else if (box === 'fullHouse') boxes[box] = next() < 0.5 ? 25 : 0;
    else if (box === 'smallStraight') boxes[box] = next() < 0.5 ? 30 : 0;
    else if (box === 'largeStraight') boxes[box] = next() < 0.5 ? 40 : 0;
    else boxes[box] = next() < 0.3 ? 0 : 5 + Math.floor(next() * 26);
  }
  const extraBonus = boxes.fiveOfAKind === 50 && next() < 0.3 ? options.extraFiveOfAKindBonus : 0;
  return { boxes, extraBonus };
}

const cpuMs = (since: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
};

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

export function endgameLatency(options: FiveDiceOptions, decisions: number, maxOpen: number, seed: number) {
  const next = sfc32(0x5eed, 0xe17d, 0x6a3e, seed >>> 0);
  const gc = (globalThis as { gc?: () => void }).gc;
  const rows = [];
  for (let k = 1; k <= maxOpen; k++) {
    const ms: number[] = [];
    const cpu: number[] = [];
    let maxStates = 0;
    let maxHeap = 0;
    for (let i = 0; i < decisions; i++) {
      const sheet = randomEndgameSheet(next, k, options);
      // A total to beat somewhere in what the open boxes can add (30 points a box, the upper bonus).
      const toBeat = totals(sheet, options).total + Math.floor(next() * (30 * k + 36));
      const dice = Array.from({ length: 5 }, () => (1 + Math.floor(next() * 6)) as Die);
      gc?.();
      const heap0 = process.memoryUsage().heapUsed;
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      const eg = createEndgame(options, 13);
      endgameWinChance(eg, sheet, toBeat);
      adviseEndgameHolds(eg, sheet, toBeat, dice, 2);
      cpu.push(cpuMs(c0));
      ms.push(performance.now() - t0);
      const heap = process.memoryUsage().heapUsed - heap0;
      if (eg.memo.size > maxStates) {
        maxStates = eg.memo.size;
        maxHeap = heap;
      }
    }
    ms.sort((a, b) => a - b);
    cpu.sort((a, b) => a - b);
    rows.push({
      open: k,
      decisions,
      cpuP50Ms: quantile(cpu, 0.5),
      cpuP99Ms: quantile(cpu, 0.99),
      p50Ms: quantile(ms, 0.5),
      p99Ms: quantile(ms, 0.99),
      maxMs: ms[ms.length - 1],
      maxStates,
      heapAtMaxStatesBytes: maxHeap,
    });
  }
  return rows;
}

type Policy = 'endgame' | 'expected';

/** Plays the rest of a sheet (its open boxes) with one policy; returns the final total. */
export function playOut(
  sheet: FiveDiceSheet,
  toBeat: number,
  policy: Policy,
  table: FiveDiceSolution,
  eg: FiveDiceEndgame,
  roll: RollDice,
): number {
  const options = table.options;
  let s: FiveDiceSheet = sheet;
  while (BOX_IDS.some((b) => s.boxes[b] === undefined)) {
    let dice = roll(5);
    for (let rollsLeft = 2; rollsLeft > 0; rollsLeft--) {
      const hold =
        policy === 'endgame'
          ? adviseEndgameHolds(eg, s, toBeat, dice, rollsLeft as 1 | 2)[0].hold
          : adviseHolds(table, s, dice, rollsLeft as 1 | 2)[0].hold;
      if (hold.length === 5) break;
      const fresh = roll(5 - hold.length);
      const kept = new Set(hold);
      let j = 0;
      dice = dice.map((d, i) => (kept.has(i) ? d : fresh[j++]));
    }
    const box = policy === 'endgame' ? adviseEndgameBox(eg, s, toBeat, dice)[0] : adviseBox(table, s, dice)[0];
    s = {
      boxes: { ...s.boxes, [box.box]: box.points },
      extraBonus: s.extraBonus + box.bonus,
    };
  }
  return totals(s, options).total;
}

const result = (total: number, toBeat: number) => (total > toBeat ? 1 : total === toBeat ? 0.5 : 0);

export function simulateEndgame(options: FiveDiceOptions, situations: number, open: number, seed: number) {
  const table = solveFiveDice(options);
  const eg = createEndgame(options);
  const next = sfc32(0xbeef, 0x1234, 0x9876, seed >>> 0);
  let sumE = 0;
  let sumX = 0;
  let sumSqE = 0;
  let sumSqX = 0;
  let sumD = 0;
  let sumSqD = 0;
  let exact = 0;
  let differ = 0;
  const t0 = performance.now();
  for (let g = 0; g < situations; g++) {
    const sheet = randomEndgameSheet(next, open, options);
    // The best other total: near the sheet's expected final score, so that the situation is open.
    const expected = expectedFinalScore(table, sheet);
    const toBeat = Math.max(0, Math.round(expected + (next() - 0.5) * 2 * (12 * open + 10)));
    exact += endgameWinChance(eg, sheet, toBeat);
    const diceSeed = Math.floor(next() * 2 ** 32);
    const e = result(playOut(sheet, toBeat, 'endgame', table, eg, seededRoller(diceSeed)), toBeat);
    const x = result(playOut(sheet, toBeat, 'expected', table, eg, seededRoller(diceSeed)), toBeat);
    sumE += e;
    sumSqE += e * e;
    sumX += x;
    sumSqX += x * x;
    sumD += e - x;
    sumSqD += (e - x) ** 2;
    if (e !== x) differ++;
    if (eg.memo.size > 2_000_000) eg.memo.clear();
  }
  const n = situations;
  const ci = (sum: number, sumSq: number) => {
    const mean = sum / n;
    const sd = Math.sqrt(Math.max(0, (sumSq - n * mean * mean) / (n - 1)));
    return { mean, half: (1.96 * sd) / Math.sqrt(n) };
  };
  return {
    open,
    situations,
    endgame: ci(sumE, sumSqE),
    expected: ci(sumX, sumSqX),
    difference: ci(sumD, sumSqD),
    exactEndgameChance: exact / n,
    outcomesDiffer: differ,
    seconds: (performance.now() - t0) / 1000,
  };
}

const pct = (x: number) => (100 * x).toFixed(2);

export function bonusTableCost(options: FiveDiceOptions) {
  let t0 = performance.now();
  let c0 = process.cpuUsage();
  const plain = solveFiveDice(options);
  const solve = { wallMs: performance.now() - t0, cpuMs: cpuMs(c0) };
  t0 = performance.now();
  c0 = process.cpuUsage();
  const sol = withBonusChance(plain);
  const bonus = { wallMs: performance.now() - t0, cpuMs: cpuMs(c0) };
  return {
    solve,
    bonus,
    valuesBytes: sol.values.byteLength,
    bonusBytes: sol.bonusChance?.byteLength ?? 0,
    serializedWithout: serializeSolution(plain).byteLength,
    serializedWith: serializeSolution(sol).byteLength,
    emptySheet: upperBonusChance(sol, { boxes: {} }),
  };
}

if (require.main === module) {
  const mode = process.argv[2] ?? 'latency';
  if (mode === 'latency') {
    const decisions = Number(process.argv[3] ?? 200);
    const maxOpen = Number(process.argv[4] ?? ENDGAME_MAX_OPEN_BOXES + 1);
    const seed = Number(process.argv[5] ?? 20261203);
    console.log(
      `five-dice endgame, first decision of a turn from an empty memo (penta), ${decisions} random sheets per k, seed ${seed}`,
    );
    for (const r of endgameLatency(FIVE_DICE_PRESETS.penta, decisions, maxOpen, seed))
      console.log(
        `k=${r.open} open: CPU p50 ${r.cpuP50Ms.toFixed(2)} ms  p99 ${r.cpuP99Ms.toFixed(2)} ms;  wall p50 ${r.p50Ms.toFixed(2)} ms  p99 ${r.p99Ms.toFixed(2)} ms  max ${r.maxMs.toFixed(2)} ms  ` +
          `states (max) ${r.maxStates}  heap at that decision ${(r.heapAtMaxStatesBytes / 1e6).toFixed(2)} MB`,
      );
  } else if (mode === 'bonus') {
    const name = process.argv[3] ?? 'penta';
    const options =
      name === 'official'
        ? { ...FIVE_DICE_PRESETS.penta, joker: 'freeChoice' as const, jokerAfterSacrifice: true }
        : FIVE_DICE_PRESETS[name as keyof typeof FIVE_DICE_PRESETS];
    const r = bonusTableCost(options);
    console.log(
      `${name}: solve ${r.solve.cpuMs.toFixed(0)} ms CPU (${r.solve.wallMs.toFixed(0)} wall), bonus-chance table ` +
        `${r.bonus.cpuMs.toFixed(0)} ms CPU (${r.bonus.wallMs.toFixed(0)} wall); in memory ${r.valuesBytes} + ${r.bonusBytes} bytes; ` +
        `serialized ${r.serializedWithout} → ${r.serializedWith} bytes; empty sheet P(bonus) ${r.emptySheet?.toFixed(4)}`,
    );
  } else {
    const situations = Number(process.argv[3] ?? 10_000);
    const open = Number(process.argv[4] ?? 1);
    const seed = Number(process.argv[5] ?? 20261203);
    const preset = (process.argv[6] ?? 'penta') as keyof typeof FIVE_DICE_PRESETS;
    const r = simulateEndgame(FIVE_DICE_PRESETS[preset], situations, open, seed);
    console.log(
      `${preset} k=${open}: ${situations} situations, seed ${seed}: endgame ${pct(r.endgame.mean)} % ± ${pct(r.endgame.half)}  ` +
        `expected-score ${pct(r.expected.mean)} % ± ${pct(r.expected.half)}  difference ${pct(r.difference.mean)} ± ${pct(r.difference.half)} points (95 % CI, paired)  ` +
        `exact endgame chance ${pct(r.exactEndgameChance)} %  outcomes differ in ${r.outcomesDiffer}  (${r.seconds.toFixed(0)} s)`,
    );
  }
}
