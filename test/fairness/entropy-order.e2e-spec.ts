/**
 * Issue 12 point 1: no client seed is fixed before the commitment has been shown. Over the API:
 * create publishes the commitment and takes no seed; every seat and the organizer set or replace
 * theirs until the start (REST PUT /v1/games/{id}/seeds, GraphQL setSeed); a seed nobody
 * supplied is generated at the start and marked generated in the events and the bundle.
 */
import { randomUUID } from 'node:crypto';
import { deriveDice } from '@fairdice/core/fairness/derivation';
import { verifyBundle } from '@fairdice/core/fairness/verifier';
import { familyById } from '@fairdice/core/rules/registry';
import { createTestApp, gql, registerPlayer, type TestApp } from '../helpers/app';
import { countCreatedBy, countEvents, playToEnd, restClient } from '../helpers/games';

jest.setTimeout(120_000);

describe('entropy order: seeds after the commitment', () => {
  let t: TestApp;
  let ada: { id: string; token: string };
  let bob: { id: string; token: string };
  let eve: { id: string; token: string };
  const auth = (token: string) => ({ authorization: `Bearer ${token}` });
  const audit = async (id: string) => (await t.http().get(`/v1/games/${id}/audit`).expect(200)).body;

  beforeAll(async () => {
    t = await createTestApp();
    ada = await registerPlayer(t, 'Ada');
    bob = await registerPlayer(t, 'Bob');
    eve = await registerPlayer(t, 'Eve');
  });
  afterAll(() => t?.close());

  it('a solo game: the creator sets their seed after seeing the commitment, and it enters every roll', async () => {
    const client = restClient(t);
    const created = await client.create(ada.token, { ruleSet: 'simple', seats: 1 });
    expect(created.commitment).toMatch(/^[0-9a-f]{64}$/);
    expect(created.seats[0]).toMatchObject({ playerId: ada.id, clientSeed: null });
    // The seed is chosen after the commitment is known (here: it even contains it).
    const seed = `ada:${created.commitment.slice(0, 16)}`;
    let view = await client.setSeed(ada.token, created.id, { clientSeed: 'first-thought' });
    view = await client.setSeed(ada.token, created.id, { clientSeed: seed, seat: 0 });
    expect(view.seats[0].clientSeed).toBe(seed);
    view = await client.start(ada.token, view.id);
    const end = await playToEnd(t, client, view, () => ada.token);
    expect(end.status).toBe('finished');

    const bundle = await audit(end.id);
    expect(bundle.formatVersion).toBe(2);
    expect(bundle.events[0].command).not.toHaveProperty('clientSeeds');
    const seedEvents = bundle.events.filter((e: any) => e.type === 'seedSet');
    expect(seedEvents.map((e: any) => [e.version, e.data.clientSeed, e.command.type])).toEqual([
      [3, 'first-thought', 'setSeed'],
      [4, seed, 'setSeed'],
    ]);
    expect(bundle.players[0]).toMatchObject({ clientSeed: seed, clientSeedGenerated: false });
    expect(bundle.clientSeeds).toEqual([seed]);
    const started = bundle.events.find((e: any) => e.type === 'gameStarted');
    expect(started.data).toEqual({ clientSeeds: [seed], clientSeedsGenerated: [false] });

    // Re-derive every roll from the revealed server seed and the creator's seed alone.
    const serverSeed = Buffer.from(bundle.serverSeed, 'hex');
    const family = familyById('five-dice');
    const rolls = bundle.events.filter((e: any) => e.rollNumber !== null);
    expect(rolls.length).toBe(bundle.rollCount);
    expect(rolls.length).toBeGreaterThan(12);
    for (const e of rolls) {
      const faces = family.rolledDice!(e.data)!;
      expect(
        deriveDice({ serverSeed, clientSeeds: [seed], gameId: end.id, rollNumber: e.rollNumber, count: faces.length }),
      ).toEqual(faces);
    }
    const report = verifyBundle(bundle, { commitment: created.commitment, heads: [created.chainHead, end.chainHead] });
    expect(report).toMatchObject({ ok: true, diceChecked: true });
    expect(report.claims.find((c) => c.id === 'entropy-after-commitment')).toMatchObject({ status: 'proved' });
    expect(report.claims.find((c) => c.id === 'log-complete')).toMatchObject({ status: 'proved' });
  });

  it('nobody supplied a seed: generated at the start, marked generated in the events and the bundle', async () => {
    const client = restClient(t);
    let view = await client.create(ada.token, {
      ruleSet: 'farkle',
      seats: 2,
      options: { target: 2000, entryThreshold: 0 },
    });
    view = await client.join(bob.token, view.id, {});
    expect(view.seats.map((s: any) => s.clientSeed)).toEqual([null, null]);
    view = await client.start(ada.token, view.id);
    expect(view.seats.map((s: any) => s.clientSeedGenerated)).toEqual([true, true]);
    expect(view.seats.map((s: any) => s.clientSeed)).toEqual([
      expect.stringMatching(/^[0-9a-f]{32}$/),
      expect.stringMatching(/^[0-9a-f]{32}$/),
    ]);
    const bundle = await audit(view.id);
    const started = bundle.events.find((e: any) => e.type === 'gameStarted');
    expect(started.command).toMatchObject({
      type: 'start',
      generatedSeeds: [
        { seat: 0, clientSeed: view.seats[0].clientSeed },
        { seat: 1, clientSeed: view.seats[1].clientSeed },
      ],
    });
    expect(started.data.clientSeedsGenerated).toEqual([true, true]);
    expect(bundle.players.map((p: any) => p.clientSeedGenerated)).toEqual([true, true]);
    const report = verifyBundle(bundle);
    expect(report).toMatchObject({ ok: true, diceChecked: false });
    expect(report.claims.find((c) => c.id === 'entropy-after-commitment')).toMatchObject({ status: 'not-proved' });
  });

  it('the organizer seed (creator), hot seats set by the creator, seeds given with the start (GraphQL)', async () => {
    const run = async (query: string, variables: Record<string, unknown>, token = ada.token) => {
      const r = await gql(t, query, variables, token);
      expect(r.errors).toBeUndefined();
      return r.data;
    };
    const created = (
      await run('mutation($i: CreateGameInput!) { createGame(input: $i) { id commitment } }', {
        i: { ruleSet: 'penta', seats: 3, hotSeats: 2 },
      })
    ).createGame;
    const set =
      'mutation($id: ID!, $i: SetSeedInput!) { setSeed(gameId: $id, input: $i) { organizerSeed seats { clientSeed } } }';
    await run(set, { id: created.id, i: { organizer: true, clientSeed: 'tournament-2026' } });
    const after = (await run(set, { id: created.id, i: { seat: 1, clientSeed: 'hot-1' } })).setSeed;
    expect(after).toEqual({
      organizerSeed: 'tournament-2026',
      seats: [{ clientSeed: null }, { clientSeed: 'hot-1' }, { clientSeed: null }],
    });
    const started = (
      await run(
        'mutation($id: ID!, $i: StartGameInput) { startGame(gameId: $id, input: $i) { status seats { clientSeed } } }',
        {
          id: created.id,
          i: { seeds: [{ seat: 0, clientSeed: 'ada-at-start' }] },
        },
      )
    ).startGame;
    expect(started.status).toBe('playing');
    expect(started.seats.map((s: any) => s.clientSeed)).toEqual([
      'ada-at-start',
      'hot-1',
      expect.stringMatching(/^[0-9a-f]{32}$/),
    ]);
    const bundle = await audit(created.id);
    expect(bundle.organizerSeed).toBe('tournament-2026');
    expect(bundle.clientSeeds).toEqual(['tournament-2026', 'ada-at-start', 'hot-1', started.seats[2].clientSeed]);
    expect(bundle.players.map((p: any) => p.clientSeedGenerated)).toEqual([false, false, true]);
    expect(verifyBundle(bundle, { commitment: created.commitment })).toMatchObject({ ok: true });
  });

  describe('bad input: a clear code, nothing stored', () => {
    let gameId: string;
    beforeAll(async () => {
      const client = restClient(t);
      const v = await client.create(ada.token, { ruleSet: 'simple', seats: 2 });
      await client.join(bob.token, v.id, { clientSeed: 'bob-own' });
      gameId = v.id;
    });

    const put = (token: string | null, id: string, body: unknown) => {
      const r = t.http().put(`/v1/games/${id}/seeds`);
      return (token ? r.set(auth(token)) : r).send(body as object);
    };
    async function rejects(req: () => PromiseLike<{ status: number; body: any }>, status: number, code: string) {
      const before = await countEvents(t, gameId);
      const res = await req();
      expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
      expect(await countEvents(t, gameId)).toBe(before);
    }

    it.each<[Record<string, unknown>, string]>([
      [{ clientSeed: 'has space' }, 'a space'],
      [{ clientSeed: '' }, 'empty'],
      [{ clientSeed: 'x'.repeat(129) }, 'too long'],
      [{ clientSeed: 'ünïcode' }, 'non-ASCII'],
      [{ clientSeed: 42 }, 'not a string'],
      [{}, 'missing'],
      [{ clientSeed: 'ok', seat: -1 }, 'negative seat'],
      [{ clientSeed: 'ok', organizer: 'yes' }, 'organizer not a boolean'],
      [{ clientSeed: 'ok', playerId: randomUUID() }, 'unknown field'],
      [{ clientSeed: 'ok', seat: 0, organizer: true }, 'seat and organizer'],
    ])('%p (%s) → 400 VALIDATION_FAILED', async (body) => {
      await rejects(() => put(ada.token, gameId, body), 400, 'VALIDATION_FAILED');
    });

    it("someone else's seat, the organizer seed by a non-creator, an outsider, no token, an unknown game", async () => {
      await rejects(() => put(ada.token, gameId, { clientSeed: 'mine-now', seat: 1 }), 403, 'NOT_YOUR_SEAT');
      await rejects(() => put(bob.token, gameId, { clientSeed: 'mine-now', seat: 0 }), 403, 'NOT_YOUR_SEAT');
      await rejects(() => put(bob.token, gameId, { clientSeed: 'org', organizer: true }), 403, 'NOT_CREATOR');
      await rejects(() => put(ada.token, gameId, { clientSeed: 'ok', seat: 5 }), 400, 'INVALID_COMMAND');
      await rejects(() => put(eve.token, gameId, { clientSeed: 'ok' }), 403, 'NOT_SEATED');
      await rejects(() => put(null, gameId, { clientSeed: 'ok' }), 401, 'UNAUTHENTICATED');
      await rejects(() => put(ada.token, randomUUID(), { clientSeed: 'ok' }), 404, 'GAME_NOT_FOUND');
      await rejects(() => put(ada.token, 'not-a-uuid', { clientSeed: 'ok' }), 400, 'VALIDATION_FAILED');
      const g = await gql(
        t,
        'mutation($id: ID!) { setSeed(gameId: $id, input: { clientSeed: "x", seat: 1 }) { id } }',
        { id: gameId },
        ada.token,
      );
      expect(g.errors?.[0].extensions?.code).toBe('NOT_YOUR_SEAT');
    });

    it('seeds in the create request: SEED_BEFORE_COMMITMENT, no game created', async () => {
      // Ada's games only: other test files share the database.
      const games = async () => (await countCreatedBy(t, ada.id)).games;
      const before = await games();
      for (const body of [
        { ruleSet: 'simple', seats: 2, clientSeed: 'early' },
        { ruleSet: 'simple', seats: 2, organizerSeed: 'early-org' },
      ]) {
        const res = await t.http().post('/v1/games').set(auth(ada.token)).send(body);
        expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'SEED_BEFORE_COMMITMENT' });
        expect(res.body.detail).toMatch(/PUT \/v1\/games\/\{id\}\/seeds/);
      }
      const g = await gql(
        t,
        'mutation { createGame(input: { ruleSet: simple, seats: 1, clientSeed: "early" }) { id } }',
        {},
        ada.token,
      );
      expect(g.errors?.[0].extensions?.code).toBe('SEED_BEFORE_COMMITMENT');
      expect(await games()).toBe(before);
    });

    it('start with a seed for a seat the creator does not hold, or a bad one: refused, nothing stored', async () => {
      await rejects(
        () =>
          t
            .http()
            .post(`/v1/games/${gameId}/start`)
            .set(auth(ada.token))
            .send({ seeds: [{ seat: 1, clientSeed: 'x' }] }),
        403,
        'NOT_YOUR_SEAT',
      );
      await rejects(
        () =>
          t
            .http()
            .post(`/v1/games/${gameId}/start`)
            .set(auth(ada.token))
            .send({ seeds: [{ seat: 0, clientSeed: 'a b' }] }),
        400,
        'VALIDATION_FAILED',
      );
    });

    it('after the start the seeds are fixed: GAME_ALREADY_STARTED', async () => {
      await restClient(t).start(ada.token, gameId);
      await rejects(() => put(ada.token, gameId, { clientSeed: 'too-late' }), 409, 'GAME_ALREADY_STARTED');
      await rejects(
        () => put(ada.token, gameId, { clientSeed: 'too-late', organizer: true }),
        409,
        'GAME_ALREADY_STARTED',
      );
    });
  });
});
