/**
 * Complete games played purely in memory, as audit bundles: the rules engine decides every
 * command with dice from the commit–reveal stream, and the events are hashed exactly as the
 * server stores them (appendEvent with the batch's command on its first event). For the
 * verifier's tests, the CLI's tests and the spec's examples. No database, no Nest.
 */
import type { RollDice } from '../rules/core/dice';
import { noDice } from '../rules/core/dice';
import { isRuleError } from '../rules/core/errors';
import { computerChoice, computerHold } from '../rules/five-dice/computer';
import {
  decideGame,
  emptyGame,
  evolveGame,
  type GameCommand,
  type GameState,
  seedsStateFor,
  startedPlay,
} from '../rules/game';
import { familyById, type RuleSetName } from '../rules/registry';
import { assembleBundle, type AuditBundle } from './audit-bundle';
import { bytesToHex, hexToBytes } from './bytes';
import { diceRoller } from './derivation';
import { appendEvent, type HashedEventEnvelope } from './hash-chain';
import { commitmentOf, orderedClientSeeds } from './seeds';
import {
  encodeLeaf,
  inclusionProof,
  leafHash,
  logIdOf,
  logPublicKey,
  merkleRoot,
  signTreeHead,
  toHex,
} from './transparency-log';

export interface SimulateOptions {
  ruleSet: RuleSetName;
  /** Number of seats (players p-0, p-1, ...; seat 0 is the creator). Default 2. */
  seats?: number;
  serverSeed?: Uint8Array;
  gameId?: string;
  /** Set by the creator after creation (setSeed with seat null). */
  organizerSeed?: string | null;
  /**
   * Client seed of each seat (default: "seed-<seat>"), set after the commitment: the creator's by
   * setSeed (or in the start with `creatorSeedInStart`), the others' when joining; null: nobody
   * supplies one and the start carries a generated one (`generatedSeed(seat)`).
   */
  clientSeeds?: Array<string | null>;
  /** The creator gives their seat's seed in the start command instead of setSeed. */
  creatorSeedInStart?: boolean;
  /** The "generated" seed of a seat nobody supplied (deterministic for fixtures). */
  generatedSeed?: (seat: number) => string;
  /** Option overrides of the preset. */
  options?: Record<string, unknown>;
  /** Play every n-th turn of Farkle through the `timeout` command (0: never). Default 3. */
  timeoutEvery?: number;
  /** Stop after this many commands after the start (the game stays in play). */
  maxCommands?: number;
  /** Player ids of the seats (default p-0, p-1, ...) and their display names (default "Player n"). */
  playerIds?: string[];
  displayNames?: string[];
  /** With maxCommands: then the service abandons the stalled game (abandon, reason inactive). */
  abandonWhenStalled?: boolean;
}

export interface SimulatedGame {
  bundle: AuditBundle;
  state: GameState;
  serverSeed: Uint8Array;
}

const DEFAULT_SEED = hexToBytes('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f');

/** The roller the server uses for the next command on `state` (src/games/dice.service.ts). */
export function rollerFor(serverSeed: Uint8Array, state: GameState): RollDice {
  let roll: RollDice | null = null;
  return (count) => {
    roll ??= diceRoller({
      serverSeed,
      clientSeeds: orderedClientSeeds({
        organizerSeed: state.organizerSeed,
        seats: state.seats.map((s) => ({ seat: s.seat, clientSeed: s.clientSeed as string })),
      }),
      gameId: state.id,
      firstRollNumber: state.rollCount,
    }).roll;
    return roll(count);
  };
}

/** A legal move for the seat whose turn it is (a simple deterministic strategy). */
function nextCommand(state: GameState, turnNo: number, timeoutEvery: number): GameCommand {
  const seat = familyById(state.family).currentSeat(startedPlay(state)) as number;
  const playerId = state.seats[seat].playerId as string;
  if (state.family === 'five-dice') {
    const p = startedPlay(state);
    const turn = p.turn!;
    if (turn.rollInTurn === 0) return { type: 'play', playerId, move: { type: 'roll' } };
    const sheet = p.sheets[seat];
    if (turn.rollInTurn < 3) {
      const hold = computerHold(sheet, turn.dice, turn.rollInTurn, p.options);
      if (hold.length < 5) return { type: 'play', playerId, move: { type: 'roll', hold } };
    }
    return {
      type: 'play',
      playerId,
      move: { type: 'score', box: computerChoice(sheet, turn.dice, p.options) },
    };
  }
  const f = startedPlay(state);
  if (timeoutEvery > 0 && turnNo % timeoutEvery === timeoutEvery - 1 && f.turn && !f.turn.roll)
    return { type: 'timeout', seat };
  const move = familyById(state.family).timeoutMove!(f)!;
  return { type: 'play', playerId, move };
}

/** Plays a complete game (or `maxCommands` commands of it) and returns its audit bundle. */
export function simulateGame(o: SimulateOptions): SimulatedGame {
  const seats = o.seats ?? 2;
  const serverSeed = o.serverSeed ?? DEFAULT_SEED;
  const gameId = o.gameId ?? '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
  const seeds = o.clientSeeds ?? Array.from({ length: seats }, (_, i) => `seed-${i}`);
  const players = o.playerIds ?? Array.from({ length: seats }, (_, i) => `p-${i}`);
  const events: HashedEventEnvelope[] = [];
  let state = emptyGame(gameId);
  let head = commitmentOf(serverSeed);

  const run = (command: GameCommand) => {
    const produced = decideGame(
      state,
      command,
      state.status === 'playing' || command.type === 'start'
        ? rollerFor(serverSeed, seedsStateFor(state, command))
        : noDice,
    );
    if (isRuleError(produced))
      throw new Error(`simulation: ${command.type} rejected: ${produced.code} ${produced.message}`);
    for (const e of produced) {
      const env = appendEvent(head, {
        gameId,
        version: state.version + 1,
        type: e.type,
        seat: e.seat,
        data: JSON.parse(JSON.stringify(e.data)),
        rollNumber: e.rollNumber,
        command: e.command === null ? null : JSON.parse(JSON.stringify(e.command)),
      });
      events.push(env);
      head = env.hash;
      state = evolveGame(state, e);
    }
  };

  // The commitment is published with the creation; every seed is given after it.
  run({
    type: 'create',
    gameId,
    ruleSet: o.ruleSet,
    options: o.options ?? {},
    seatCount: seats,
    visibility: 'public',
    creatorId: players[0],
    hotSeats: 0,
    commitment: head,
    turnTimeLimitSeconds: null,
  });
  if (o.organizerSeed) run({ type: 'setSeed', playerId: players[0], seat: null, clientSeed: o.organizerSeed });
  if (seeds[0] !== null && !o.creatorSeedInStart)
    run({ type: 'setSeed', playerId: players[0], seat: 0, clientSeed: seeds[0] });
  for (let s = 1; s < seats; s++) {
    const seed = seeds[s];
    run({ type: 'join', playerId: players[s], ...(seed !== null ? { clientSeed: seed } : {}) });
  }
  const generatedSeed = o.generatedSeed ?? ((seat: number) => `generated-seed-${seat}`);
  run({
    type: 'start',
    playerId: players[0],
    ...(seeds[0] !== null && o.creatorSeedInStart ? { seeds: [{ seat: 0, clientSeed: seeds[0] }] } : {}),
    generatedSeeds: state.seats
      .filter((x) => x.clientSeed === null && !(x.seat === 0 && o.creatorSeedInStart && seeds[0] !== null))
      .map((x) => ({ seat: x.seat, clientSeed: generatedSeed(x.seat) })),
  });
  const family = familyById(state.family);
  let turnNo = 0;
  let lastSeat: number | null = null;
  for (let n = 0; state.status === 'playing'; n++) {
    if (o.maxCommands !== undefined && n >= o.maxCommands) break;
    if (n > 20_000) throw new Error('simulation: the game does not end');
    const seat = family.currentSeat(startedPlay(state));
    if (seat !== lastSeat) {
      turnNo++;
      lastSeat = seat;
    }
    run(nextCommand(state, turnNo, o.timeoutEvery ?? 3));
  }
  if (o.abandonWhenStalled && state.status === 'playing') run({ type: 'abandon', reason: 'inactive' });
  const bundle = assembleBundle({
    gameId,
    events,
    serverSeed: bytesToHex(serverSeed),
    displayNames: Object.fromEntries(players.map((p, i) => [p, o.displayNames?.[i] ?? `Player ${i}`])),
    createdAt: '2026-11-29T10:00:00.000Z',
    endedAt: state.status === 'finished' || state.status === 'abandoned' ? '2026-11-29T10:41:07.000Z' : null,
    generatedAt: '2026-11-29T10:45:00.000Z',
  });
  return { bundle, state, serverSeed };
}

/** A deep copy (tests alter copies). */
export const cloneBundle = (b: AuditBundle): AuditBundle => JSON.parse(JSON.stringify(b));

/**
 * Re-links the chain after a forger's edit: recomputes every prevHash and hash from version 1
 * and the bundle's chainHead (what a forger controlling the database would do).
 */
export function relinkBundle(b: AuditBundle): AuditBundle {
  let prev = b.commitment;
  b.events = b.events.map((e, i) => {
    const next = appendEvent(prev, {
      gameId: e.gameId,
      version: i + 1,
      type: e.type,
      seat: e.seat,
      data: e.data,
      rollNumber: e.rollNumber,
      command: e.command,
    });
    prev = next.hash;
    return next;
  });
  b.chainHead = prev;
  return b;
}

/**
 * Attaches a transparency-log proof to a bundle, as the service would (docs/fairness.md §9.4):
 * a log of `before` unrelated leaves, the game's created leaf, `between` more, and its ended
 * leaf once the game has ended, signed with `privateKey` (32 bytes).
 */
export function attachLogProof(
  b: AuditBundle,
  privateKey: Uint8Array,
  opts: { before?: number; between?: number; timestamp?: number } = {},
): AuditBundle {
  const t0 = opts.timestamp ?? 1_764_410_400_000;
  const other = (i: number) =>
    encodeLeaf({
      kind: 'created',
      timestamp: t0 + i,
      gameId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      eventVersion: 0,
      value: toHex(leafHash(new Uint8Array([i & 255, i >> 8]))),
    });
  const leaves: Uint8Array[] = [];
  const mine: number[] = [];
  for (let i = 0; i < (opts.before ?? 5); i++) leaves.push(other(i));
  mine.push(leaves.length);
  leaves.push(
    encodeLeaf({ kind: 'created', timestamp: t0 + 100, gameId: b.gameId, eventVersion: 0, value: b.commitment }),
  );
  for (let i = 0; i < (opts.between ?? 3); i++) leaves.push(other(1000 + i));
  if (b.status === 'finished' || b.status === 'abandoned') {
    mine.push(leaves.length);
    leaves.push(
      encodeLeaf({
        kind: 'ended',
        timestamp: t0 + 200,
        gameId: b.gameId,
        eventVersion: b.events.length,
        value: b.chainHead,
      }),
    );
  }
  const hashes = leaves.map(leafHash);
  const head = signTreeHead(
    { treeSize: leaves.length, timestamp: t0 + 300, rootHash: toHex(merkleRoot(hashes)) },
    privateKey,
  );
  b.transparencyLog = {
    treeHead: { ...head, logId: logIdOf(logPublicKey(privateKey)) },
    entries: mine.map((i) => ({
      leafIndex: i,
      leaf: toHex(leaves[i]),
      inclusionProof: inclusionProof(hashes, i, leaves.length).map(toHex),
    })),
  };
  return b;
}
