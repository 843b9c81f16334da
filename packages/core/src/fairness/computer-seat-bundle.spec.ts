/**
 * Issue 24 item 13: an auditor sees every seat. A game with a computer seat lists it in the
 * bundle's `players` (playerId null, format 3, docs/fairness.md §5.2, decision 0077), and the
 * verifier requires it there.
 */
import { isRuleError } from '../rules/core/errors';
import { decideGame, emptyGame, evolveGame, type GameCommand, seedsStateFor } from '../rules/game';
import { assembleBundle, type AuditBundle } from './audit-bundle';
import { rollerFor } from './bundle-fixtures';
import { bytesToHex, hexToBytes, sha256Hex } from './bytes';
import { appendEvent, type HashedEventEnvelope } from './hash-chain';
import { verifyBundle } from './verifier';

const gameId = '3f2504e0-4f89-41d3-9a0c-0305e82c3302';
const serverSeed = hexToBytes('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f');
const noDice = () => {
  throw new Error('no dice before the start');
};

/** A solo player against one computer seat: created, seeded, started, one roll, then abandoned. */
function computerGame(): AuditBundle {
  const events: HashedEventEnvelope[] = [];
  let state = emptyGame(gameId);
  let head = sha256Hex(serverSeed);
  const run = (command: GameCommand) => {
    const playing = state.status === 'playing' || command.type === 'start';
    const produced = decideGame(
      state,
      command,
      playing ? rollerFor(serverSeed, seedsStateFor(state, command)) : noDice,
    );
    if (isRuleError(produced)) throw new Error(`${command.type}: ${produced.code} ${produced.message}`);
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
  run({
    type: 'create',
    gameId,
    ruleSet: 'simple',
    options: {},
    seatCount: 2,
    visibility: 'public',
    creatorId: 'p-0',
    hotSeats: 0,
    commitment: head,
    turnTimeLimitSeconds: null,
    computerSeats: [{ seat: 1, level: 'standard' }],
  });
  run({ type: 'setSeed', playerId: 'p-0', seat: 0, clientSeed: 'alice-seed' });
  run({ type: 'start', playerId: 'p-0', generatedSeeds: [{ seat: 1, clientSeed: 'generated-seed-1' }] });
  run({ type: 'play', playerId: 'p-0', move: { type: 'roll' } });
  run({ type: 'abandon', reason: 'inactive' });
  return assembleBundle({
    gameId,
    events,
    serverSeed: bytesToHex(serverSeed),
    displayNames: { 'p-0': 'Alice' },
    createdAt: '2026-11-29T10:00:00.000Z',
    endedAt: '2026-11-29T10:41:07.000Z',
    generatedAt: '2026-11-29T10:45:00.000Z',
  });
}

describe('a computer seat in the audit bundle', () => {
  const bundle = computerGame();

  it('is listed in players (playerId null, its generated seed) in a format 3 bundle that verifies', () => {
    expect(bundle.formatVersion).toBe(3);
    expect(bundle.players).toEqual([
      expect.objectContaining({ seat: 0, playerId: 'p-0', displayName: 'Alice', clientSeedGenerated: false }),
      {
        seat: 1,
        playerId: null,
        displayName: null,
        hotSeat: false,
        clientSeed: 'generated-seed-1',
        clientSeedGenerated: true,
      },
    ]);
    const report = verifyBundle(bundle);
    expect(report.failure).toBeNull();
    expect(report.summary?.players.map((p) => p.playerId)).toEqual(['p-0', null]);
  });

  it('must be listed: a format 3 bundle without it, or with another seed, fails the seeds check', () => {
    const dropped = { ...bundle, players: bundle.players.slice(0, 1) };
    expect(verifyBundle(dropped).failure).toMatchObject({ name: 'seeds', detail: 'seat 1 is missing from players' });
    const changed = { ...bundle, players: [bundle.players[0], { ...bundle.players[1], clientSeed: 'other' }] };
    expect(verifyBundle(changed).failure?.name).toBe('seeds');
  });

  it('a format 2 bundle (served before computer seats were listed) still verifies without it', () => {
    const old = { ...bundle, formatVersion: 2, players: bundle.players.slice(0, 1) };
    expect(verifyBundle(old).failure).toBeNull();
  });
});
