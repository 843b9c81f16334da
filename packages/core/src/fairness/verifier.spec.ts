import { createHash } from 'node:crypto';
import type { AuditBundle } from './audit-bundle';
import { cloneBundle, relinkBundle, simulateGame } from './bundle-fixtures';
import { exitCodeOf, verifyBundle, type VerifyReport } from './verifier';
import { familyById } from '../rules/registry';

const RULE_SETS = ['penta', 'simple', 'bonus', 'farkle'] as const;
const FARKLE_SHORT = { target: 3000, entryThreshold: 0 };

const games = new Map(
  RULE_SETS.map((ruleSet) => [
    ruleSet,
    simulateGame({
      ruleSet,
      seats: 2,
      organizerSeed: 'tournament-2026',
      clientSeeds: ['alice:lucky#7', '00112233445566778899aabbccddeeff'],
      ...(ruleSet === 'farkle' ? { options: FARKLE_SHORT } : {}),
    }).bundle,
  ]),
);

const failedChecks = (r: VerifyReport) => r.checks.filter((c) => c.status === 'fail').map((c) => c.name);
const firstWith = (b: AuditBundle, pred: (e: AuditBundle['events'][number]) => boolean) => {
  const i = b.events.findIndex(pred);
  if (i < 0) throw new Error('no such event');
  return i;
};
/** A roll event whose rolled faces are all the event's dice (no hold), after the start. */
const rollEvent = (b: AuditBundle) =>
  firstWith(b, (e) => e.type === 'rolled' && (!Array.isArray(e.data.held) || (e.data.held as number[]).length === 0));
/** A five-dice re-roll with held dice. */
const reRoll = (b: AuditBundle) =>
  firstWith(b, (e) => e.type === 'rolled' && Array.isArray(e.data.held) && (e.data.held as number[]).length > 0);
/** An event carrying points. */
const scoreEvent = (b: AuditBundle) =>
  firstWith(b, (e) => (e.type === 'scored' && (e.data.points as number) > 0) || e.type === 'banked');

function expectFailAt(report: VerifyReport, version: number, check?: string | RegExp) {
  expect(report.ok).toBe(false);
  expect(report.firstBadVersion).toBe(version);
  expect(exitCodeOf(report)).toBe(1);
  if (check) expect(failedChecks(report).join(' ')).toMatch(check);
}

describe('verifyBundle on complete in-memory games', () => {
  it.each(RULE_SETS)('%s: a complete game passes every check', (ruleSet) => {
    const b = games.get(ruleSet)!;
    expect(b.status).toBe('finished');
    expect(b.serverSeed).not.toBeNull();
    expect(b.rollCount).toBeGreaterThan(10);
    const report = verifyBundle(b);
    expect(failedChecks(report)).toEqual([]);
    expect(report).toMatchObject({ ok: true, diceChecked: true, firstBadVersion: null, failure: null });
    expect(exitCodeOf(report)).toBe(0);
    expect(report.checks.filter((c) => c.status === 'skipped').map((c) => c.name)).toEqual([
      'expected-commitment',
      'published-head',
      'log-inclusion', // the simulated bundle carries no log proof and no log key is given
      'log-signature',
    ]);
    const s = report.summary!;
    expect(s).toMatchObject({
      gameId: b.gameId,
      ruleSet,
      events: b.events.length,
      rolls: b.rollCount,
      head: b.chainHead,
      serverSeedRevealed: true,
    });
    expect(s.players.map((p) => p.clientSeed)).toEqual(['alice:lucky#7', '00112233445566778899aabbccddeeff']);
    expect(s.ranking).toEqual(b.finalStandings);
    expect(s.totals.map((t) => t.total).sort()).toEqual(b.finalStandings!.map((x) => x.score).sort());
    // batches: every command is in the log, on the first event of its batch
    expect(b.events[0].command).toMatchObject({ type: 'create', gameId: b.gameId, commitment: b.commitment });
    expect(b.events.filter((e) => e.command !== null).length).toBeGreaterThan(10);
  });

  it('three seats, hot seat free, timeouts (farkle) and a solo five-dice game pass', () => {
    for (const o of [
      { ruleSet: 'farkle' as const, seats: 3, options: FARKLE_SHORT, timeoutEvery: 2 },
      { ruleSet: 'penta' as const, seats: 1 },
      { ruleSet: 'bonus' as const, seats: 3, organizerSeed: null },
    ]) {
      const { bundle } = simulateGame(o);
      expect(verifyBundle(bundle)).toMatchObject({ ok: true, diceChecked: true });
    }
    const farkle = simulateGame({ ruleSet: 'farkle', seats: 3, options: FARKLE_SHORT, timeoutEvery: 2 }).bundle;
    expect(farkle.events.some((e) => (e.command as { type?: string } | null)?.type === 'timeout')).toBe(true);
    expect(farkle.events.some((e) => e.type === 'rollOff')).toBe(true);
  });

  it('checks against a published head (--head): passes at the head, fails on a truncated or extended log', () => {
    const b = games.get('simple')!;
    expect(verifyBundle(b, { expectedHead: b.chainHead })).toMatchObject({ ok: true });
    // truncated (and relinked to its own head): the published head names the missing events
    const truncated = cloneBundle(b);
    const earlierHead = truncated.events[truncated.events.length - 6].hash;
    const r = verifyBundle(b, { expectedHead: earlierHead });
    expect(r.ok).toBe(false);
    expect(r.checks.find((c) => c.name === 'published-head')).toMatchObject({
      status: 'fail',
      version: b.events.length - 4,
    });
    truncated.events = truncated.events.slice(0, -3);
    truncated.chainHead = truncated.events.at(-1)!.hash;
    const r2 = verifyBundle(truncated, { expectedHead: b.chainHead });
    expect(failedChecks(r2)).toContain('published-head');
  });

  it('an unrevealed game: everything but the dice is checked; exit code 3 (0 with allowUnrevealed)', () => {
    const { bundle } = simulateGame({ ruleSet: 'farkle', seats: 2, options: FARKLE_SHORT, maxCommands: 25 });
    expect(bundle.status).toBe('playing');
    expect(bundle.serverSeed).toBeNull();
    expect(bundle.finalStandings).toBeNull();
    const report = verifyBundle(bundle);
    expect(report).toMatchObject({ ok: true, diceChecked: false });
    expect(report.checks.find((c) => c.name === 'dice')).toMatchObject({
      status: 'skipped',
      detail: expect.stringMatching(/cannot be checked yet/),
    });
    expect(report.checks.find((c) => c.name === 'commitment')).toMatchObject({ status: 'skipped' });
    expect(exitCodeOf(report)).toBe(3);
    expect(exitCodeOf(report, true)).toBe(0);
    // the rules are still checked with the recorded faces: an altered score fails
    const forged = cloneBundle(bundle);
    const i = firstWith(forged, (e) => e.type === 'setAside');
    forged.events[i].data.points = (forged.events[i].data.points as number) + 50;
    relinkBundle(forged);
    expectFailAt(verifyBundle(forged), i + 1, /commands/);
  });
});

describe.each(RULE_SETS)('verifyBundle detects tampering (%s)', (ruleSet) => {
  const base = () => cloneBundle(games.get(ruleSet)!);

  it('an altered die (hash left as is, and with the chain re-linked by a forger)', () => {
    for (const relink of [false, true]) {
      const b = base();
      const i = rollEvent(b);
      const dice = b.events[i].data.dice as number[];
      dice[0] = (dice[0] % 6) + 1;
      if (relink) relinkBundle(b);
      const r = verifyBundle(b);
      expectFailAt(r, i + 1, relink ? /dice/ : /chain/);
      expect(r.failure!.version).toBe(i + 1);
    }
  });

  it('an altered score', () => {
    for (const relink of [false, true]) {
      const b = base();
      const i = scoreEvent(b);
      b.events[i].data.points = (b.events[i].data.points as number) + 5;
      if (relink) relinkBundle(b);
      expectFailAt(verifyBundle(b), i + 1, relink ? /commands/ : /chain/);
    }
  });

  it('an altered final standing (bundle field only)', () => {
    const b = base();
    b.finalStandings![0].score += 1;
    expectFailAt(verifyBundle(b), b.events.length, /standings/);
  });

  it('a removed event (left as is, and renumbered + re-linked)', () => {
    for (const relink of [false, true]) {
      const b = base();
      const i = scoreEvent(b);
      b.events.splice(i, 1);
      if (relink) relinkBundle(b);
      expectFailAt(verifyBundle(b), i + 1, relink ? /commands/ : /chain/);
    }
  });

  it('an inserted event (a replayed roll)', () => {
    for (const relink of [false, true]) {
      const b = base();
      const i = rollEvent(b);
      b.events.splice(i + 1, 0, cloneBundle(b).events[i]);
      if (relink) relinkBundle(b);
      const r = verifyBundle(b);
      expectFailAt(r, i + 2);
    }
  });

  it('reordered events', () => {
    for (const relink of [false, true]) {
      const b = base();
      const i = scoreEvent(b);
      [b.events[i], b.events[i + 1]] = [b.events[i + 1], b.events[i]];
      if (relink) relinkBundle(b);
      expectFailAt(verifyBundle(b), i + 1);
    }
  });

  it("a player's client seed (in the bundle only; in the log with the chain re-linked)", () => {
    const b = base();
    b.players[1].clientSeed = 'another-seed';
    const seat1 = firstWith(b, (e) => e.type === 'seatTaken' && e.seat === 1);
    expectFailAt(verifyBundle(b), seat1 + 1, /seeds/);

    const c = base();
    c.players[1].clientSeed = 'another-seed';
    c.clientSeeds![2] = 'another-seed';
    c.events[seat1].data.clientSeed = 'another-seed';
    (c.events[seat1].command as { clientSeed: string }).clientSeed = 'another-seed';
    const start = firstWith(c, (e) => e.type === 'gameStarted');
    (c.events[start].data.clientSeeds as string[])[1] = 'another-seed';
    relinkBundle(c);
    const r = verifyBundle(c);
    expect(r.ok).toBe(false);
    expect(failedChecks(r)).toContain('dice');
    expect(r.firstBadVersion).toBeGreaterThan(start);
  });

  it('the organizer seed or the derivation order of client seeds', () => {
    const b = base();
    b.organizerSeed = 'other-organizer';
    expectFailAt(verifyBundle(b), 1, /seeds/);
    const c = base();
    c.clientSeeds = [...c.clientSeeds!].reverse();
    expectFailAt(verifyBundle(c), firstWith(c, (e) => e.type === 'gameStarted') + 1, /seeds/);
  });

  it('the server seed', () => {
    const b = base();
    b.serverSeed = createHash('sha256').update('another seed').digest('hex');
    const r = verifyBundle(b);
    expect(failedChecks(r)).toEqual(expect.arrayContaining(['commitment', 'dice']));
    const firstRoll = firstWith(b, (e) => e.rollNumber !== null);
    expectFailAt(r, firstRoll + 1);
  });

  it('the commitment (bundle only; with a matching forged server seed and re-linked chain)', () => {
    const b = base();
    b.commitment = createHash('sha256').update('x').digest('hex');
    expectFailAt(verifyBundle(b), 1, /chain/);

    const forgedSeed = Buffer.alloc(32, 7);
    const c = base();
    c.serverSeed = forgedSeed.toString('hex');
    c.commitment = createHash('sha256').update(forgedSeed).digest('hex');
    (c.events[0].command as { commitment: string }).commitment = c.commitment;
    c.events[0].data.commitment = c.commitment;
    relinkBundle(c);
    const r = verifyBundle(c);
    expect(failedChecks(r)).toContain('dice');
    expectFailAt(r, firstWith(c, (e) => e.rollNumber !== null) + 1);
  });

  it('a changed command', () => {
    const b = base();
    const i = firstWith(b, (e) => (e.command as { type?: string } | null)?.type === 'play');
    (b.events[i].command as { playerId: string }).playerId = 'p-9';
    relinkBundle(b);
    expectFailAt(verifyBundle(b), i + 1, /commands/);
  });
});

describe('five-dice re-rolls: only the non-held positions are the roll', () => {
  it('the verifier derives the faces at the non-held positions (family.rolledDice)', () => {
    const b = cloneBundle(games.get('penta')!);
    const i = reRoll(b);
    const e = b.events[i];
    const held = e.data.held as number[];
    expect(familyById('five-dice').rolledDice!(e.data as never)).toHaveLength(5 - held.length);
    // changing a held die (not part of the roll) is still caught: by the rules (it must equal the previous dice)
    (e.data.dice as number[])[held[0]] = ((e.data.dice as number[])[held[0]] % 6) + 1;
    relinkBundle(b);
    expectFailAt(verifyBundle(b), i + 1, /commands/);
  });
});

describe('malformed input', () => {
  it.each([
    ['not an object', 42],
    ['wrong format', { ...games.get('simple')!, format: 'other' }],
    ['unknown rules version', { ...games.get('simple')!, ruleSet: { ...games.get('simple')!.ruleSet, version: '9' } }],
    ['no events', { ...games.get('simple')!, events: [] }],
  ])('%s fails the format check without throwing', (_name, input) => {
    const r = verifyBundle(input);
    expect(r.ok).toBe(false);
    expect(r.failure).toMatchObject({ name: 'format', status: 'fail' });
  });

  it('garbage inside events fails without throwing', () => {
    const b = cloneBundle(games.get('farkle')!);
    (b.events[7] as unknown as Record<string, unknown>).data = 'x';
    b.events[9].rollNumber = 'y' as unknown as number;
    expect(() => verifyBundle(b)).not.toThrow();
    expect(verifyBundle(b)).toMatchObject({ ok: false, firstBadVersion: 8 });
  });
});
