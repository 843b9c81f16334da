/**
 * Micro-benchmarks of the game aggregate (src/rules/game) and of the server's per-roll dice
 * stream, the pieces the existing family benches do not cover:
 * - replayGame over the events of a played game (what a cold load does), per event;
 * - the same from stored JSON (JSON.parse of the payloads + replay), per event;
 * - decideGame + evolveGame for one command (what the server runs per action, minus I/O);
 * - a rolling command's dice from DiceService (its kept stream, node:crypto's HMAC: decision
 *   0157), and the roller built per command with @noble/hashes, as before that decision.
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/game-aggregate.bench.js
 */
import { performance } from 'node:perf_hooks';
import { diceRoller } from '@fairdice/core/fairness/derivation';
import { orderedClientSeeds } from '@fairdice/core/fairness/seeds';
import { RuleError } from '@fairdice/core/rules/core/errors';
import { computerChoice, computerHold, type FiveDiceState } from '@fairdice/core/rules/five-dice';
import {
  decideGame,
  emptyGame,
  evolveGame,
  type GameCommand,
  type GameEvent,
  type GameState,
  replayGame,
} from '@fairdice/core/rules/game';
import { RULE_SETS, type RuleSetName } from '@fairdice/core/rules/registry';
import { DiceService } from '../src/games/dice.service';
import { seededRoller } from './simulate-computer';

export interface AggregateBenchResult {
  name: string;
  opsPerSec: number;
  usPerOp: number;
}

function measure(name: string, body: (i: number) => unknown, ms: number, opsPerCall = 1): AggregateBenchResult {
  let sink: unknown;
  for (let i = 0; i < 300; i++) sink = body(i);
  let calls = 0;
  let batch = 16;
  const t0 = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let i = 0; i < batch; i++) sink = body(calls + i);
    calls += batch;
    elapsed = performance.now() - t0;
    if (elapsed < ms / 10) batch *= 2;
  }
  if (sink === Symbol.for('never')) console.log(sink);
  const usPerOp = (elapsed * 1000) / (calls * opsPerCall);
  return { name, opsPerSec: Math.round(1e6 / usPerOp), usPerOp: Math.round(usPerOp * 1000) / 1000 };
}

const must = (r: GameEvent[] | RuleError): GameEvent[] => {
  if (r instanceof RuleError) throw new Error(`bench game: ${r.code} ${r.message}`);
  return r;
};

/**
 * Plays one five-dice game through the aggregate (create, start, computer moves), returning the
 * events and the commands with the state each was decided on.
 */
export function playAggregateGame(
  ruleSet: RuleSetName = 'simple',
  seats = 1,
  seed = 7,
): { events: GameEvent[]; steps: Array<{ state: GameState; command: GameCommand }> } {
  const id = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
  const creatorId = '6f1c2b8e-9a41-4c3e-8d0a-2b7f1e5c9d10';
  const roll = seededRoller(seed);
  const events: GameEvent[] = [];
  const steps: Array<{ state: GameState; command: GameCommand }> = [];
  let state = emptyGame(id);
  const run = (command: GameCommand) => {
    steps.push({ state, command });
    const out = must(decideGame(state, command, roll));
    for (const e of out) state = evolveGame(state, e);
    events.push(...out);
  };
  run({
    type: 'create',
    gameId: id,
    ruleSet,
    options: {},
    seatCount: seats,
    visibility: 'public',
    creatorId,
    hotSeats: seats - 1,
    commitment: 'c'.repeat(64),
    organizerSeed: null,
    clientSeeds: Array.from({ length: seats }, (_, i) => `seed-${i}`),
    turnTimeLimitSeconds: null,
  });
  run({ type: 'start', playerId: creatorId });
  const options = RULE_SETS[ruleSet].options as never;
  for (let guard = 0; guard < 10_000 && state.status === 'playing'; guard++) {
    const p = state.play as FiveDiceState;
    const turn = p.turn!;
    if (turn.rollInTurn === 0) run({ type: 'play', playerId: creatorId, move: { type: 'roll' } });
    else {
      const hold = turn.rollInTurn < 3 ? computerHold(p.sheets[turn.seat], turn.dice, turn.rollInTurn, options) : null;
      if (hold !== null && hold.length < 5) run({ type: 'play', playerId: creatorId, move: { type: 'roll', hold } });
      else
        run({
          type: 'play',
          playerId: creatorId,
          move: { type: 'score', box: computerChoice(p.sheets[turn.seat], turn.dice, options) },
        });
    }
  }
  if (state.status !== 'finished') throw new Error('bench game did not finish');
  return { events, steps };
}

export function runGameAggregateMicroBenchmarks(options: { durationMs?: number } = {}): AggregateBenchResult[] {
  const ms = options.durationMs ?? 500;
  const solo = playAggregateGame('simple', 1, 7);
  const four = playAggregateGame('penta', 4, 11);
  const soloJson = JSON.stringify(solo.events);
  const id = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
  const roll = seededRoller(3);
  const plays = solo.steps.filter((s) => s.command.type === 'play');
  const seeds = orderedClientSeeds({ organizerSeed: null, seats: [{ seat: 0, clientSeed: 'seed-0' }] });
  const serverSeed = Buffer.alloc(32, 0x5a);
  const serverSeedHex = serverSeed.toString('hex');
  const dice = new DiceService();
  const played = solo.steps[solo.steps.length - 1].state;
  const soloState = { ...played, id, organizerSeed: null, seats: [{ ...played.seats[0], clientSeed: 'seed-0' }] };
  return [
    measure(
      `replayGame, simple solo (${solo.events.length} events), per event`,
      () => replayGame(id, solo.events),
      ms,
      solo.events.length,
    ),
    measure(
      `replayGame, penta 4 seats (${four.events.length} events), per event`,
      () => replayGame(id, four.events),
      ms,
      four.events.length,
    ),
    measure(
      `JSON.parse + replayGame, simple solo, per event`,
      () => replayGame(id, JSON.parse(soloJson)),
      ms,
      solo.events.length,
    ),
    measure(
      'decideGame + evolveGame, one play command',
      (i) => {
        const s = plays[i % plays.length];
        const out = decideGame(s.state, s.command, roll);
        return out instanceof RuleError ? out : out.reduce(evolveGame, s.state);
      },
      ms,
    ),
    measure(
      'DiceService roller, roll(5), stream kept (per rolling command)',
      (i) => dice.rollerFor({ serverSeed: serverSeedHex, state: { ...soloState, rollCount: i & 0xffff } })(5),
      ms,
    ),
    measure(
      'diceRoller(...).roll(5) built per command, @noble/hashes (before decision 0157)',
      (i) => diceRoller({ serverSeed, clientSeeds: seeds, gameId: id, firstRollNumber: i & 0xffff }).roll(5),
      ms,
    ),
  ];
}

if (require.main === module) {
  console.table(runGameAggregateMicroBenchmarks());
}
