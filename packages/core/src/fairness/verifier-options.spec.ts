/**
 * Fairness v2 (issue 12, points 1, 3, 4): seeds fixed after the commitment, the strict envelope,
 * the organizer's options (--commitment, --head repeatable) and the report's claims; and bundles
 * stored before (format 1, test/fixtures/audit-v1) still verify.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AuditBundle } from './audit-bundle';
import { cloneBundle, relinkBundle, simulateGame } from './bundle-fixtures';
import { deriveDice } from './derivation';
import { exitCodeOf, verifyBundle, type VerifyReport } from './verifier';
import { type AnyFamily, familyById } from '../rules/registry';
import { asFamilyEvent, replayGame } from '../rules/game';

const failedChecks = (r: VerifyReport) => r.checks.filter((c) => c.status === 'fail').map((c) => c.name);
const check = (r: VerifyReport, name: string) => r.checks.find((c) => c.name === name);
const claim = (r: VerifyReport, id: string) => r.claims.find((c) => c.id === id);
const FARKLE_SHORT = { target: 3000, entryThreshold: 0 };

describe('format 1 bundles stored before seeds moved after the commitment', () => {
  const dir = join(__dirname, '../../../../test/fixtures/audit-v1');
  const load = (f: string) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as AuditBundle;

  it.each(['penta-finished.json', 'farkle-timeouts.json'])('%s still verifies, dice included', (file) => {
    const b = load(file);
    expect(b.formatVersion).toBe(1);
    expect(b.events[0].command).toMatchObject({ type: 'create', clientSeeds: expect.any(Array) });
    const r = verifyBundle(b);
    expect(failedChecks(r)).toEqual([]);
    expect(r).toMatchObject({ ok: true, diceChecked: true });
    expect(exitCodeOf(r)).toBe(0);
    // The creator's seed was given before the commitment existed: the report says so.
    expect(r.summary!.seedOrigins.find((o) => o.seat === 0)).toMatchObject({
      source: 'create',
      afterCommitment: false,
    });
    expect(claim(r, 'seed:0')).toMatchObject({
      status: 'not-proved',
      detail: expect.stringMatching(/before the commitment/),
    });
  });

  it('a tampered format 1 bundle is still rejected', () => {
    const b = load('penta-finished.json');
    const i = b.events.findIndex((e) => e.type === 'rolled');
    (b.events[i].data.dice as number[])[0] = ((b.events[i].data.dice as number[])[0] % 6) + 1;
    relinkBundle(b);
    const r = verifyBundle(b);
    expect(r.ok).toBe(false);
    expect(r.firstBadVersion).toBe(i + 1);
  });
});

describe('seeds fixed after the commitment', () => {
  it('a solo game: the creator sets their seed after the commitment and it enters every roll', () => {
    const seed = 'solo:chosen-after-seeing-the-commitment';
    const { bundle, serverSeed } = simulateGame({ ruleSet: 'penta', seats: 1, clientSeeds: [seed] });
    // version 1 publishes the commitment; the seed arrives by a later setSeed command.
    expect(bundle.events[0].command).not.toHaveProperty('clientSeeds');
    expect(bundle.events[1]).toMatchObject({ type: 'seatTaken', seat: 0, data: { clientSeed: null } });
    expect(bundle.events[2]).toMatchObject({
      type: 'seedSet',
      seat: 0,
      data: { seat: 0, clientSeed: seed },
      command: { type: 'setSeed', seat: 0, clientSeed: seed },
    });
    expect(bundle.players[0]).toMatchObject({ clientSeed: seed, clientSeedGenerated: false });
    expect(bundle.clientSeeds).toEqual([seed]);
    // Re-derive every roll from the server seed and that seed alone.
    const family: AnyFamily = familyById('five-dice');
    const rolls = bundle.events.filter((e) => e.rollNumber !== null);
    expect(rolls.length).toBe(bundle.rollCount);
    for (const e of rolls) {
      const faces = family.rolledDice!(asFamilyEvent(e.data))!;
      expect(
        deriveDice({
          serverSeed,
          clientSeeds: [seed],
          gameId: bundle.gameId,
          rollNumber: e.rollNumber!,
          count: faces.length,
        }),
      ).toEqual(faces);
    }
    const r = verifyBundle(bundle);
    expect(r).toMatchObject({ ok: true, diceChecked: true });
    expect(claim(r, 'seed:0')).toMatchObject({ status: 'proved', detail: 'setSeed at event 3' });
    expect(claim(r, 'entropy-after-commitment')).toMatchObject({ status: 'proved' });
    // A different seed would have given other dice: the seed really is in the derivation.
    const first = rolls[0];
    expect(deriveDice({ serverSeed, clientSeeds: ['x'], gameId: bundle.gameId, rollNumber: 0, count: 5 })).not.toEqual(
      family.rolledDice!(first.data as never),
    );
  });

  it('the creator may give seeds with the start instead', () => {
    const { bundle } = simulateGame({
      ruleSet: 'simple',
      seats: 2,
      clientSeeds: ['in-start', 'bob'],
      creatorSeedInStart: true,
    });
    const start = bundle.events.find((e) => e.type === 'gameStarted')!;
    expect(start.command).toMatchObject({
      type: 'start',
      seeds: [{ seat: 0, clientSeed: 'in-start' }],
      generatedSeeds: [],
    });
    expect(start.data).toEqual({ clientSeeds: ['in-start', 'bob'], clientSeedsGenerated: [false, false] });
    const r = verifyBundle(bundle);
    expect(r.ok).toBe(true);
    expect(r.summary!.seedOrigins.map((o) => [o.seat, o.source])).toEqual([
      [0, 'start'],
      [1, 'join'],
    ]);
  });

  it('a game where nobody supplied a seed: generated at the start, marked in the events and the bundle', () => {
    const { bundle } = simulateGame({ ruleSet: 'farkle', seats: 2, clientSeeds: [null, null], options: FARKLE_SHORT });
    const start = bundle.events.find((e) => e.type === 'gameStarted')!;
    expect(start.command).toMatchObject({
      type: 'start',
      generatedSeeds: [
        { seat: 0, clientSeed: 'generated-seed-0' },
        { seat: 1, clientSeed: 'generated-seed-1' },
      ],
    });
    expect(start.data).toEqual({
      clientSeeds: ['generated-seed-0', 'generated-seed-1'],
      clientSeedsGenerated: [true, true],
    });
    expect(bundle.players.map((p) => p.clientSeedGenerated)).toEqual([true, true]);
    const r = verifyBundle(bundle);
    expect(r).toMatchObject({ ok: true, diceChecked: true });
    expect(claim(r, 'seed:0')).toMatchObject({
      status: 'not-proved',
      detail: expect.stringMatching(/generated by the service/),
    });
    expect(claim(r, 'entropy-after-commitment')).toMatchObject({ status: 'not-proved' });
    // The flag is covered by the chain (format 2): lying about it in the bundle fails.
    const lie = cloneBundle(bundle);
    lie.players[1].clientSeedGenerated = false;
    expect(failedChecks(verifyBundle(lie))).toEqual(['seeds']);
    // And a generated seed cannot be passed off as a player's by editing the log either.
    const forged = cloneBundle(bundle);
    const i = forged.events.indexOf(forged.events.find((e) => e.type === 'gameStarted')!);
    forged.events[i].data.clientSeedsGenerated = [false, true];
    forged.players[0].clientSeedGenerated = false;
    relinkBundle(forged);
    const rf = verifyBundle(forged);
    expect(rf.ok).toBe(false);
    expect(rf.firstBadVersion).toBe(i + 1);
  });

  it('a mixed game: the organizer and one player supply seeds, the other is generated', () => {
    const { bundle } = simulateGame({
      ruleSet: 'bonus',
      seats: 3,
      organizerSeed: 'tournament-2026',
      clientSeeds: ['alice', null, 'carol'],
    });
    expect(bundle.organizerSeed).toBe('tournament-2026');
    expect(bundle.clientSeeds).toEqual(['tournament-2026', 'alice', 'generated-seed-1', 'carol']);
    expect(bundle.players.map((p) => p.clientSeedGenerated)).toEqual([false, true, false]);
    const r = verifyBundle(bundle);
    expect(r.ok).toBe(true);
    expect(r.summary!.seedOrigins.map((o) => [o.seat, o.source])).toEqual([
      [null, 'setSeed'],
      [0, 'setSeed'],
      [1, 'generated'],
      [2, 'join'],
    ]);
    expect(claim(r, 'seed:organizer')).toMatchObject({ status: 'proved' });
    expect(claim(r, 'entropy-after-commitment')).toMatchObject({ status: 'proved' });
  });

  it('a stalled game abandoned by the service verifies with its seed revealed', () => {
    const { bundle } = simulateGame({ ruleSet: 'simple', seats: 1, maxCommands: 4, abandonWhenStalled: true });
    expect(bundle.status).toBe('abandoned');
    expect(bundle.events.at(-1)).toMatchObject({
      type: 'gameAbandoned',
      data: { reason: 'inactive' },
      command: { type: 'abandon', reason: 'inactive' },
    });
    expect(bundle.serverSeed).not.toBeNull();
    expect(verifyBundle(bundle)).toMatchObject({ ok: true, diceChecked: true });
  });
});

describe('strict envelope and bundle', () => {
  const base = () => cloneBundle(simulateGame({ ruleSet: 'simple', seats: 2 }).bundle);

  it('an unhashed extra member on an event is refused, naming the event', () => {
    const b = base();
    (b.events[4] as unknown as Record<string, unknown>).note = 'looks legit';
    const r = verifyBundle(b);
    expect(r.ok).toBe(false);
    expect(check(r, 'chain')).toMatchObject({ status: 'fail', version: 5, detail: expect.stringMatching(/"note"/) });
    expect(exitCodeOf(r)).toBe(1);
  });

  it('an unknown top-level or player member is refused', () => {
    const b = base() as unknown as Record<string, unknown>;
    b.note = 'x';
    expect(verifyBundle(b).failure).toMatchObject({
      name: 'format',
      detail: expect.stringMatching(/unknown member "note"/),
    });
    const c = base();
    (c.players[0] as unknown as Record<string, unknown>).rating = 1200;
    expect(verifyBundle(c).failure).toMatchObject({ name: 'format', detail: expect.stringMatching(/"rating"/) });
    const d = base() as unknown as Record<string, unknown>;
    delete d.generatedAt;
    expect(verifyBundle(d).failure).toMatchObject({ name: 'format', detail: 'member generatedAt is missing' });
  });
});

describe('organizer options: commitment and published heads', () => {
  const b = simulateGame({ ruleSet: 'farkle', seats: 2, options: FARKLE_SHORT }).bundle;

  it('--commitment: the one written down passes; another fails; absent is reported as not proved', () => {
    const ok = verifyBundle(b, { commitment: b.commitment.toUpperCase() });
    expect(check(ok, 'expected-commitment')).toMatchObject({ status: 'pass' });
    expect(claim(ok, 'commitment-announced')).toMatchObject({ status: 'proved' });
    const other = simulateGame({ ruleSet: 'farkle', seats: 2, options: FARKLE_SHORT, serverSeed: Buffer.alloc(32, 7) })
      .bundle.commitment;
    const wrong = verifyBundle(b, { commitment: other });
    expect(wrong.ok).toBe(false);
    expect(check(wrong, 'expected-commitment')).toMatchObject({ status: 'fail', version: 1 });
    expect(claim(wrong, 'commitment-announced')).toMatchObject({ status: 'failed' });
    expect(exitCodeOf(wrong)).toBe(1);
    expect(check(verifyBundle(b, { commitment: 'abc' }), 'expected-commitment')).toMatchObject({ status: 'fail' });
    const none = verifyBundle(b);
    expect(check(none, 'expected-commitment')).toMatchObject({ status: 'skipped' });
    expect(claim(none, 'commitment-announced')).toMatchObject({ status: 'not-proved' });
  });

  it('--head, repeatable: heads published during play are versions of the log; the last one proves completeness', () => {
    const h = (v: number) => b.events[v - 1].hash;
    const mid = verifyBundle(b, { heads: [h(3), h(10)] });
    expect(mid.ok).toBe(true);
    expect(mid.summary!.publishedHeads).toEqual([
      { head: h(3), version: 3 },
      { head: h(10), version: 10 },
    ]);
    expect(claim(mid, 'log-matches-published-heads')).toMatchObject({ status: 'proved' });
    expect(claim(mid, 'log-complete')).toMatchObject({
      status: 'not-proved',
      detail: expect.stringMatching(/after version 10/),
    });
    const full = verifyBundle(b, { heads: [h(3), b.chainHead] });
    expect(full.ok).toBe(true);
    expect(claim(full, 'log-complete')).toMatchObject({ status: 'proved' });
  });

  it('a head that is not in the log fails (another log, or a rewritten past)', () => {
    const stranger = 'ab'.repeat(32);
    const r = verifyBundle(b, { heads: [b.events[2].hash, stranger] });
    expect(r.ok).toBe(false);
    expect(check(r, 'published-head')).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/not the hash of any version/),
    });
    expect(claim(r, 'log-matches-published-heads')).toMatchObject({ status: 'failed' });
    // A forger rewrites an early event and re-links: the head published at the time is gone.
    const published = b.events[8].hash;
    const forged = cloneBundle(b);
    const i = forged.events.findIndex((e) => e.type === 'setAside');
    forged.events[i].data.points = (forged.events[i].data.points as number) + 50;
    relinkBundle(forged);
    expect(failedChecks(verifyBundle(forged, { heads: [published] }))).toContain('published-head');
    expect(check(verifyBundle(b, { heads: ['xyz'] }), 'published-head')).toMatchObject({ status: 'fail' });
  });
});

describe('the rules replay the new lifecycle', () => {
  it('seeds replayed from events: setSeed, leave, join without seed, generated at the start', () => {
    const { bundle } = simulateGame({ ruleSet: 'simple', seats: 2, clientSeeds: ['a', null] });
    const state = replayGame(
      bundle.gameId,
      bundle.events.map((e) => ({ type: e.type, seat: e.seat, data: e.data, rollNumber: e.rollNumber, command: null })),
    );
    expect(state.seats.map((s) => [s.clientSeed, s.clientSeedGenerated])).toEqual([
      ['a', false],
      ['generated-seed-1', true],
    ]);
  });
});
