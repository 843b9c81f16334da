/**
 * The audit bundle of real games played through the API: REST and GraphQL serve the same
 * document; it verifies offline (verifyBundle) before the end (everything but the dice, no seed)
 * and after it (seed revealed, sha256 = commitment, every roll and command re-checked).
 */
import { createHash } from 'node:crypto';
import { verifyBundle } from '@fairdice/core/fairness/verifier';
import { createTestApp, gql, registerPlayer, storedServerSeed, type TestApp } from '../helpers/app';
import { chooseMove, playToEnd, restClient } from '../helpers/games';

jest.setTimeout(120_000);

describe('audit bundle (REST GET /v1/games/{id}/audit, GraphQL audit)', () => {
  let t: TestApp;
  let alice: { id: string; token: string };
  let bob: { id: string; token: string };
  let eve: { id: string; token: string };
  const tokenOf = (id: string) => (id === alice.id ? alice.token : bob.token);
  const auth = (token: string) => ({ authorization: `Bearer ${token}` });

  beforeAll(async () => {
    t = await createTestApp();
    alice = await registerPlayer(t, 'Zoë 🎲');
    bob = await registerPlayer(t, 'Bob');
    eve = await registerPlayer(t, 'Eve');
  });
  afterAll(() => t.close());

  const cases: Array<[string, Record<string, unknown>]> = [
    ['penta', { ruleSet: 'penta' }],
    ['farkle', { ruleSet: 'farkle', options: { target: 2000, entryThreshold: 0 } }],
  ];

  it.each(cases)(
    '%s: played through the API, the downloaded bundle verifies before and after the end',
    async (_name, input) => {
      const client = restClient(t);
      // Seeds come after the commitment: the organizer seed and Alice's, then Bob's on joining.
      let view = await client.create(alice.token, { ...input, seats: 2 });
      await client.setSeed(alice.token, view.id, { organizer: true, clientSeed: 'tournament-2026' });
      await client.setSeed(alice.token, view.id, { clientSeed: 'alice:lucky#7' });
      view = await client.join(bob.token, view.id, { clientSeed: 'bob:own-entropy' });
      view = await client.start(alice.token, view.id);
      // A few moves, then the bundle during the game. Three, because no game can end in three: Farkle
      // needs a roll, a set-aside and a bank to reach the target, then the other seat's last turn
      // (with six, a lucky first turn past 2,000 and a farkle ended it: a CI failure).
      for (let i = 0; i < 3; i++) view = await client.move(tokenOf(view.currentPlayerId), view.id, chooseMove(view));

      const during = (await t.http().get(`/v1/games/${view.id}/audit`).expect(200)).body;
      expect(during).toMatchObject({
        format: 'fairdice-audit',
        formatVersion: 2,
        gameId: view.id,
        status: 'playing',
        serverSeed: null,
        finalStandings: null,
        commitment: view.commitment,
      });
      expect(during.chainHead).toBe(view.chainHead);
      expect(during.clientSeeds[0]).toBe('tournament-2026');
      expect(during.clientSeeds).toEqual(['tournament-2026', 'alice:lucky#7', 'bob:own-entropy']);
      expect(during.players.map((p: any) => p.clientSeedGenerated)).toEqual([false, false]);
      expect(during.players.map((p: any) => [p.seat, p.playerId, p.displayName])).toEqual([
        [0, alice.id, 'Zoë 🎲'],
        [1, bob.id, 'Bob'],
      ]);
      expect(during.events[0].command).toMatchObject({ type: 'create', gameId: view.id, commitment: view.commitment });
      const duringReport = verifyBundle(during, { expectedHead: view.chainHead });
      expect(duringReport.checks.filter((c) => c.status === 'fail')).toEqual([]);
      expect(duringReport).toMatchObject({ ok: true, diceChecked: false });

      const end = await playToEnd(t, client, view, tokenOf);
      expect(end.status).toBe('finished');

      const res = await t.http().get(`/v1/games/${end.id}/audit?download=1`).expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['content-disposition']).toBe(`attachment; filename="fairdice-${end.id}.json"`);
      const bundle = JSON.parse(res.text);
      expect(bundle.status).toBe('finished');
      expect(bundle.serverSeed).toMatch(/^[0-9a-f]{64}$/);
      expect(createHash('sha256').update(Buffer.from(bundle.serverSeed, 'hex')).digest('hex')).toBe(bundle.commitment);
      expect(bundle.serverSeed).toBe(await storedServerSeed(t, end.id));
      expect(bundle.chainHead).toBe(end.chainHead);
      expect(bundle.finalStandings.map((s: any) => [s.rank, s.seat, s.score])).toEqual(
        end.standings.map((s: any) => [s.rank, s.seat, s.total]),
      );
      // the events of the bundle are those of the events API (same hashes)
      expect(bundle.events.length).toBe(end.version);
      expect(bundle.events.filter((e: any) => e.command !== null).length).toBeGreaterThan(5);

      const report = verifyBundle(bundle, { expectedHead: end.chainHead });
      expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
      expect(report).toMatchObject({ ok: true, diceChecked: true });
      expect(report.summary!.ranking).toEqual(bundle.finalStandings);

      // without ?download=1: plain JSON, no attachment
      const plain = await t.http().get(`/v1/games/${end.id}/audit`).expect(200);
      expect(plain.headers['content-disposition']).toBeUndefined();

      // GraphQL serves the same document. Except what depends on the moment of each request:
      // generatedAt, and the log's tree head with the inclusion paths, which follow the log's size
      // (the sequencer may integrate another game's leaf between the two). The game's leaves stay.
      const g = await gql(t, 'query($id: ID!) { audit(gameId: $id) }', { id: end.id });
      expect(g.errors).toBeUndefined();
      const atRequest = ({ generatedAt: _at, transparencyLog, ...rest }: any) => ({
        ...rest,
        logLeaves: transparencyLog.entries.map((e: any) => [e.leafIndex, e.leaf]),
      });
      expect(atRequest(bundle).logLeaves.length).toBeGreaterThan(0);
      expect(atRequest(g.data.audit)).toEqual(atRequest(bundle));

      // a tampered copy fails, naming the event
      const forged = JSON.parse(res.text);
      const i = forged.events.findIndex((e: any) => e.rollNumber !== null);
      forged.events[i].data.dice[forged.events[i].data.dice.length - 1] = (forged.events[i].data.dice.at(-1) % 6) + 1;
      expect(verifyBundle(forged)).toMatchObject({ ok: false, firstBadVersion: i + 1 });
    },
  );

  it('a cancelled (abandoned) game reveals its seed and verifies', async () => {
    const client = restClient(t);
    const view = await client.create(alice.token, { ruleSet: 'simple', seats: 2 });
    await t.http().post(`/v1/games/${view.id}/cancel`).set(auth(alice.token)).send({}).expect(200);
    const bundle = (await t.http().get(`/v1/games/${view.id}/audit`).expect(200)).body;
    expect(bundle.status).toBe('abandoned');
    expect(createHash('sha256').update(Buffer.from(bundle.serverSeed, 'hex')).digest('hex')).toBe(bundle.commitment);
    expect(bundle.clientSeeds).toBeNull();
    expect(verifyBundle(bundle)).toMatchObject({ ok: true, diceChecked: true });
  });

  it('private games: only their seated players; others get 404 like the game itself', async () => {
    const client = restClient(t);
    const view = await client.create(alice.token, { ruleSet: 'simple', seats: 2, visibility: 'private' });
    await client.join(bob.token, view.id, {});
    await t.http().get(`/v1/games/${view.id}/audit`).set(auth(alice.token)).expect(200);
    await t.http().get(`/v1/games/${view.id}/audit`).set(auth(bob.token)).expect(200);
    const outsider = await t.http().get(`/v1/games/${view.id}/audit`).set(auth(eve.token)).expect(404);
    expect(outsider.body.code ?? outsider.body.type).toBeDefined();
    await t.http().get(`/v1/games/${view.id}`).set(auth(eve.token)).expect(404);
    await t.http().get(`/v1/games/${view.id}/audit`).expect(404);
    const g = await gql(t, 'query($id: ID!) { audit(gameId: $id) }', { id: view.id }, eve.token);
    expect(g.errors?.[0].extensions?.code).toBe('GAME_NOT_FOUND');
    const mine = await gql(t, 'query($id: ID!) { audit(gameId: $id) }', { id: view.id }, bob.token);
    expect(mine.data.audit.gameId).toBe(view.id);
  });

  it('unknown and malformed ids', async () => {
    await t.http().get('/v1/games/00000000-0000-4000-8000-000000000000/audit').expect(404);
    await t.http().get('/v1/games/not-a-uuid/audit').expect(400);
  });
});
