/**
 * Tournaments: what nobody else sees while a duplicate round runs (issue 13, item 2), and bad
 * input with a stable code and nothing stored (registering twice, after the close, over the
 * maximum; starting with too few entrants; a non-organizer acting; a format the rule set does not
 * support; malformed bodies), over REST and GraphQL; and the retry and concurrency contract of
 * every tournament command (Idempotency-Key / idempotencyKey, If-Match; issue 24 item 9).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from 'graphql-ws';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- ws ships no types here
const WebSocket: unknown = require('ws');
import type { Pool } from 'pg';
import { createTestApp, gql, registerPlayer, type TestApp } from '../helpers/app';
import { PG_POOL } from '../../src/database/pg-pool';
import { rowCounts } from '../helpers/row-counts';
import { firstRollOnly, play, waitFor } from './helpers';
import { startReceiver } from '../async/helpers';

jest.setTimeout(120_000);

type P = Awaited<ReturnType<typeof registerPlayer>>;

/** GET of an SSE path: the status and, for a 200, the first data message. */
function sseFirst(port: number, path: string, token: string | null): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    const req = http.get({ host: '127.0.0.1', port, path, headers }, (res) => {
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        if (res.statusCode !== 200) return;
        const m = /(^|\n)data: (.*)\n\n/.exec(buffer);
        if (m) {
          resolve({ status: 200, body: m[2] });
          req.destroy();
        }
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: buffer }));
    });
    req.on('error', reject);
  });
}

/** The first message of a GraphQL subscription (data or errors). */
async function subscribeFirst(port: number, query: string, variables: Record<string, unknown>, token: string | null) {
  const ws = createClient({
    url: `ws://127.0.0.1:${port}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    retryAttempts: 0,
  });
  try {
    return await new Promise<any>((resolve, reject) => {
      const stop = ws.subscribe(
        { query, variables },
        {
          next: (msg) => {
            resolve(msg);
            stop();
          },
          error: (err) => resolve({ errors: Array.isArray(err) ? err : [err] }),
          complete: () => resolve({ completed: true }),
        },
      );
      setTimeout(() => reject(new Error('no subscription message')), 20_000).unref();
    });
  } finally {
    await ws.dispose();
  }
}

describe('tournaments: visibility and bad input (e2e)', () => {
  let t: TestApp;
  let port: number;
  let pool: Pool;
  beforeAll(async () => {
    t = await createTestApp({ listen: true, env: { JOBS_POLL_INTERVAL_MS: '50' } });
    port = (t.app.getHttpServer().address() as AddressInfo).port;
    pool = t.app.get(PG_POOL);
  });
  afterAll(() => t?.close());

  const create = (p: P, body: Record<string, unknown>) => t.http().post('/v1/tournaments').set(p.auth).send(body);
  const register = (p: P, id: string, body: Record<string, unknown> = {}) =>
    t.http().post(`/v1/tournaments/${id}/entrants`).set(p.auth).send(body);

  it('while a duplicate round runs, no one but its player sees a game’s dice, events or seed (REST, GraphQL, streams)', async () => {
    const organizer = await registerPlayer(t, 'Org');
    const ann = await registerPlayer(t, 'Ann');
    const ben = await registerPlayer(t, 'Ben');
    const spectator = await registerPlayer(t, 'Spectator');
    // The organizer and an entrant take the tournament webhooks (opt-in types).
    const receiver = await startReceiver();
    const tournamentTypes = ['tournament.started', 'round.started', 'round.finished', 'tournament.finished'];
    for (const p of [organizer, ann])
      await t.http().post('/v1/webhooks').set(p.auth).send({ url: receiver.url, events: tournamentTypes }).expect(201);
    const id = (
      await create(organizer, {
        name: 'Hidden',
        ruleSet: 'simple',
        format: 'duplicate',
        maxEntrants: 2,
        rounds: 1,
      }).expect(201)
    ).body.id;
    await register(ann, id).expect(200);
    await register(ben, id).expect(200);
    const started = (await t.http().post(`/v1/tournaments/${id}/start`).set(organizer.auth).expect(200)).body;
    const games = started.roundDetails[0].games as Array<{ gameId: string; entrants: number[] }>;
    const annNo = started.entrants.find((e: any) => e.playerId === ann.id).number;
    const annGame = games.find((g) => g.entrants[0] === annNo)!.gameId;
    const benGame = games.find((g) => g.entrants[0] !== annNo)!.gameId;

    // Ann plays her whole game; Ben has not moved yet: the round still runs.
    expect((await t.http().get(`/v1/games/${annGame}`).set(ann.auth).expect(200)).body.advice).toBe('forbidden');
    const annFinal = await play(t, ann, annGame, firstRollOnly);
    expect(annFinal.status).toBe('finished');
    expect(annFinal.serverSeed).toBeNull(); // even her own game keeps the round seed sealed
    const annAudit = (await t.http().get(`/v1/games/${annGame}/audit`).set(ann.auth).expect(200)).body;
    expect(annAudit.serverSeed ?? null).toBeNull();

    const outsiders: Array<[string, P | null]> = [
      ['another entrant', ben],
      ['a spectator', spectator],
      ['the organizer', organizer],
      ['an anonymous client', null],
    ];
    const paths = ['', '/events', '/versions/1', '/audit'];
    for (const [who, p] of outsiders) {
      for (const path of paths) {
        const req = t.http().get(`/v1/games/${annGame}${path}`);
        const res = await (p ? req.set(p.auth) : req);
        expect([who, path, res.status, res.body.code]).toEqual([who, path, 404, 'GAME_NOT_FOUND']);
      }
      const sse = await sseFirst(port, `/v1/games/${annGame}/stream`, p?.token ?? null);
      expect([who, sse.status]).toEqual([who, 404]);
      expect(sse.body).not.toContain('"dice"');
      const q = await gql(t, 'query($id: ID!) { game(id: $id) { id dice serverSeed } }', { id: annGame }, p?.token);
      expect([who, q.data?.game ?? null, q.errors?.[0]?.extensions?.code]).toEqual([who, null, 'GAME_NOT_FOUND']);
      const ev = await gql(
        t,
        'query($id: ID!) { gameEvents(gameId: $id) { items { version } } }',
        { id: annGame },
        p?.token,
      );
      expect([who, ev.errors?.[0]?.extensions?.code]).toEqual([who, 'GAME_NOT_FOUND']);
      const sub = await subscribeFirst(
        port,
        'subscription($id: ID!) { gameEvents(gameId: $id) { version type } }',
        { id: annGame },
        p?.token ?? null,
      );
      expect([who, sub.data ?? null, sub.errors?.[0]?.extensions?.code ?? sub.errors?.[0]?.message]).toEqual([
        who,
        null,
        'GAME_NOT_FOUND',
      ]);
      // Lists: the game is in nobody's list but Ann's.
      if (p) {
        const mine = (await t.http().get('/v1/games?scope=mine&limit=100').set(p.auth).expect(200)).body.items;
        expect(mine.map((g: any) => g.id)).not.toContain(annGame);
      }
      const open = (await t.http().get('/v1/games?scope=open&limit=100').expect(200)).body.items;
      expect(open.map((g: any) => g.id)).not.toContain(annGame);
    }

    // The tournament tells nobody the seeds or the round's scores yet (REST, GraphQL, SSE, subscription).
    const tv = (await t.http().get(`/v1/tournaments/${id}`).expect(200)).body;
    expect(tv.roundDetails[0]).toMatchObject({ finished: false, roundSeed: null });
    expect(tv.tournamentSeed).toBeNull();
    const tEvents = (await t.http().get(`/v1/tournaments/${id}/events`).expect(200)).body;
    expect(tEvents.map((e: any) => `${e.dataJson} ${e.commandJson ?? ''}`).join('\n')).not.toMatch(
      /"(dice|roundSeed|tournamentSeed|serverSeed)"/,
    );
    const standings = (await t.http().get(`/v1/tournaments/${id}/standings`).expect(200)).body;
    expect(standings.rows.map((r: any) => r.totalScore)).toEqual([0, 0]);
    const sseStandings = await sseFirst(port, `/v1/tournaments/${id}/standings/stream`, null);
    expect(JSON.parse(sseStandings.body).rows.map((r: any) => r.totalScore)).toEqual([0, 0]);
    const subStandings = await subscribeFirst(
      port,
      'subscription($id: ID!) { tournamentStandings(id: $id) { rows { totalScore } } }',
      { id },
      spectator.token,
    );
    expect(subStandings.data.tournamentStandings.rows.map((r: any) => r.totalScore)).toEqual([0, 0]);
    const gqlT = await gql(t, 'query($id: ID!) { tournament(id: $id) { tournamentSeed roundDetails { roundSeed } } }', {
      id,
    });
    expect(gqlT.data.tournament).toEqual({ tournamentSeed: null, roundDetails: [{ roundSeed: null }] });

    // Ben finishes: the round ends, its seed is revealed, and Ann's score counts.
    await play(t, ben, benGame, firstRollOnly);
    const v = await waitFor(
      async () => (await t.http().get(`/v1/tournaments/${id}`).expect(200)).body,
      (x: { status: string; roundDetails: Array<{ roundSeed: string | null }> }) => x.status === 'finished',
      'the finished tournament',
    );
    expect(v.roundDetails[0].roundSeed).toMatch(/^[0-9a-f]{64}$/);
    const annAfter = (await t.http().get(`/v1/games/${annGame}`).set(ann.auth).expect(200)).body;
    expect(annAfter.serverSeed).toMatch(/^[0-9a-f]{64}$/);
    const final = (await t.http().get(`/v1/tournaments/${id}/standings`).expect(200)).body;
    expect(final.rows.find((r: any) => r.playerId === ann.id).totalScore).toBe(annFinal.standings[0].total);

    // The game refers to its tournament and round (GraphQL typed event).
    const created = await gql(
      t,
      'query($id: ID!) { gameEvents(gameId: $id) { items { ... on GameCreatedEvent { tournament { id format round game table } } } } }',
      { id: annGame },
      ann.token,
    );
    expect(created.data.gameEvents.items[0].tournament).toEqual({
      id,
      format: 'duplicate',
      round: 1,
      game: 0,
      table: 0,
    });

    // Webhooks: each of the two received the four notices, in order, with the revealed seeds.
    await waitFor(
      () => Promise.resolve(receiver.received.length),
      (n) => n >= 8,
    );
    const bodies = receiver.received.map((r) => JSON.parse(r.body));
    for (const type of tournamentTypes) expect(bodies.filter((b) => b.type === type)).toHaveLength(2);
    expect(bodies.every((b) => b.data.tournamentId === id)).toBe(true);
    const roundFinished = bodies.find((b) => b.type === 'round.finished');
    expect(roundFinished.data.roundSeed).toMatch(/^[0-9a-f]{64}$/);
    const finished = bodies.find((b) => b.type === 'tournament.finished');
    expect(finished.data).toMatchObject({ status: 'finished' });
    expect(finished.data.standings.map((r: any) => r.totalScore)).toEqual(final.rows.map((r: any) => r.totalScore));
    await receiver.close();
  });

  it('starts at the scheduled time through the job queue, or cancels for too few entrants', async () => {
    const organizer = await registerPlayer(t, 'Scheduler');
    const [a, b] = await Promise.all([registerPlayer(t, 'Sa'), registerPlayer(t, 'Sb')]);
    const soon = () => new Date(Date.now() + 1500).toISOString();
    const body = { name: 'Scheduled', ruleSet: 'bonus', format: 'duplicate', maxEntrants: 4, rounds: 1 };
    const ok = (await create(organizer, { ...body, entryClosesAt: soon(), startsAt: soon() }).expect(201)).body;
    const empty = (await create(organizer, { ...body, startsAt: soon() }).expect(201)).body;
    expect(ok.startsAt).toMatch(/Z$/);
    await register(a, ok.id).expect(200);
    await register(b, ok.id).expect(200);
    await register(a, empty.id).expect(200);
    const started = await waitFor(
      () =>
        t
          .http()
          .get(`/v1/tournaments/${ok.id}`)
          .then((r) => r.body),
      (v) => v.status !== 'registering',
    );
    expect(started.status).toBe('running');
    expect(started.organizerSeed).not.toBeNull();
    expect(started.roundDetails[0].games).toHaveLength(2);
    const cancelled = await waitFor(
      () =>
        t
          .http()
          .get(`/v1/tournaments/${empty.id}`)
          .then((r) => r.body),
      (v) => v.status !== 'registering',
    );
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.cancelReason).toMatch(/too few entrants/);
    expect(cancelled.tournamentSeed).toMatch(/^[0-9a-f]{64}$/);
  });

  it('GraphQL: create, register, close and read a tables tournament through the same service', async () => {
    const organizer = await registerPlayer(t, 'GqlOrg');
    const players = await Promise.all([1, 2].map((i) => registerPlayer(t, `G${i}`)));
    const made = await gql(
      t,
      `mutation($i: CreateTournamentInput!) { createTournament(input: $i) {
         id status format commitment ruleOptions { ... on FarkleOptions { target entryThreshold } } } }`,
      {
        i: {
          name: 'Gql',
          ruleSet: 'farkle',
          options: { target: 1000, entryThreshold: 0 },
          format: 'tables',
          maxEntrants: 4,
          rounds: 1,
          tableSizeMin: 2,
          tableSizeMax: 2,
        },
      },
      organizer.token,
    );
    expect(made.errors).toBeUndefined();
    const id = made.data.createTournament.id;
    expect(made.data.createTournament).toMatchObject({
      status: 'registering',
      format: 'tables',
      ruleOptions: { target: 1000, entryThreshold: 0 },
    });
    for (const p of players) {
      const r = await gql(
        t,
        'mutation($id: ID!) { registerForTournament(id: $id, input: { clientSeed: "gql-seed" }) { entrants { playerId clientSeed } } }',
        { id },
        p.token,
      );
      expect(r.errors).toBeUndefined();
    }
    const again = await gql(
      t,
      'mutation($id: ID!) { registerForTournament(id: $id) { id } }',
      { id },
      players[0].token,
    );
    expect(again.errors?.[0]?.extensions?.code).toBe('ALREADY_REGISTERED');
    const closed = await gql(
      t,
      'mutation($id: ID!) { closeTournamentRegistration(id: $id) { status organizerSeed entrants { number } } }',
      { id },
      organizer.token,
    );
    expect(closed.data.closeTournamentRegistration).toMatchObject({
      status: 'closed',
      entrants: [{ number: 1 }, { number: 2 }],
    });
    const ev = await gql(t, 'query($id: ID!) { tournamentEvents(id: $id) { version type dataJson commandJson } }', {
      id,
    });
    expect(ev.data.tournamentEvents.map((e: any) => e.type)).toEqual([
      'tournamentCreated',
      'entrantRegistered',
      'entrantRegistered',
      'registrationClosed',
    ]);
    expect(JSON.parse(ev.data.tournamentEvents[1].dataJson)).toMatchObject({ number: 1, clientSeed: 'gql-seed' });
    const list = (await t.http().get('/v1/tournaments?limit=100').expect(200)).body;
    expect(list.items.map((x: any) => x.id)).toContain(id);
  });

  it('refuses bad input with a stable code and stores nothing', async () => {
    const organizer = await registerPlayer(t, 'Org2');
    const players = await Promise.all([1, 2, 3].map((i) => registerPlayer(t, `P${i}`)));
    const base = { name: 'Cup', ruleSet: 'penta', format: 'duplicate', maxEntrants: 2, rounds: 1 };
    // Other test files share the database, and this app's job runner (jobs enabled) also runs
    // their due jobs: the tables those jobs write are counted only for what this test owns (the
    // organizer's tournaments and their games, games these players created, and jobs naming
    // any of those). Every other table counts whole.
    const BACKGROUND = [
      'async_jobs',
      'games',
      'game_seats',
      'game_events',
      'tournament_events',
      'transparency_log_leaves',
      'webhook_deliveries',
      // written by the player-events jobs of other files' games (src/player-events)
      'player_events',
      'player_event_heads',
    ];
    const people = [organizer.id, ...players.map((p) => p.id)];
    const snapshot = async () => {
      const all = await rowCounts(pool);
      const counts = Object.fromEntries(Object.entries(all).filter(([table]) => !BACKGROUND.includes(table)));
      const { rows } = await pool.query(
        `WITH mine AS (SELECT id FROM tournaments WHERE organizer_id = $1),
              their_games AS (SELECT id FROM games WHERE tournament_id IN (SELECT id FROM mine) OR creator_id = ANY($2::uuid[]))
         SELECT (SELECT count(*)::int FROM their_games) AS games,
                (SELECT count(*)::int FROM game_seats WHERE game_id IN (SELECT id FROM their_games)) AS seats,
                (SELECT count(*)::int FROM game_events WHERE game_id IN (SELECT id FROM their_games)) AS game_events,
                (SELECT count(*)::int FROM tournament_events WHERE tournament_id IN (SELECT id FROM mine)) AS tournament_events,
                (SELECT count(*)::int FROM transparency_log_leaves WHERE game_id IN (SELECT id FROM their_games)) AS leaves,
                (SELECT count(*)::int FROM webhook_deliveries WHERE game_id IN (SELECT id FROM their_games)) AS deliveries,
                (SELECT coalesce(max(id), 0)::text FROM async_jobs) AS last_job`,
        [organizer.id, people],
      );
      const { last_job: lastJob, ...owned } = rows[0];
      return { counts: { ...counts, ...owned }, lastJob: lastJob as string };
    };
    // A job this test could cause names one of its tournaments or games (key or payload).
    const jobsAddedSince = async (lastJob: string) =>
      Number(
        (
          await pool.query(
            `SELECT count(*)::int AS n FROM async_jobs j
              WHERE j.id > $1 AND EXISTS (
                SELECT 1 FROM (SELECT id FROM tournaments WHERE organizer_id = $2
                               UNION SELECT id FROM games WHERE creator_id = ANY($3::uuid[])
                                  OR tournament_id IN (SELECT id FROM tournaments WHERE organizer_id = $2)) x
                 WHERE j.key LIKE '%' || x.id::text || '%' OR j.payload::text LIKE '%' || x.id::text || '%')`,
            [lastJob, organizer.id, people],
          )
        ).rows[0].n,
      );
    const refused = async (send: () => Promise<any>, status: number, code: string) => {
      const before = await snapshot();
      const res = await send();
      expect([res.status, res.body.code]).toEqual([status, code]);
      expect((await snapshot()).counts).toEqual(before.counts);
      expect(await jobsAddedSince(before.lastJob)).toBe(0);
      return res;
    };
    // Creating.
    await refused(() => create(organizer, { ...base, ruleSet: 'farkle' }), 422, 'FORMAT_NOT_SUPPORTED');
    await refused(() => create(organizer, { ...base, format: 'swiss' }), 400, 'VALIDATION_FAILED');
    await refused(() => create(organizer, { ...base, maxEntrants: 1 }), 400, 'VALIDATION_FAILED');
    await refused(() => create(organizer, { ...base, rounds: 0 }), 400, 'VALIDATION_FAILED');
    await refused(() => create(organizer, { ...base, extra: 1 }), 400, 'VALIDATION_FAILED');
    await refused(() => create(organizer, { ...base, tableSizeMax: 3 }), 400, 'INVALID_OPTIONS');
    await refused(
      () => create(organizer, { ...base, format: 'tables', tableSizeMin: 1, tableSizeMax: 3 }),
      400,
      'INVALID_OPTIONS',
    );
    await refused(() => create(organizer, { ...base, entryClosesAt: '2000-01-01T00:00:00Z' }), 400, 'INVALID_OPTIONS');
    await refused(() => create(organizer, { ...base, options: { target: 500 } }), 400, 'INVALID_OPTIONS');
    await refused(() => t.http().post('/v1/tournaments').send(base), 401, 'UNAUTHENTICATED');
    const gqlBad = await gql(
      t,
      'mutation($i: CreateTournamentInput!) { createTournament(input: $i) { id } }',
      { i: { ...base, ruleSet: 'farkle' } },
      organizer.token,
    );
    expect(gqlBad.errors?.[0]?.extensions?.code).toBe('FORMAT_NOT_SUPPORTED');

    const id = (await create(organizer, base).expect(201)).body.id;
    // Starting with too few entrants (registration stays open: nothing of the attempt is stored).
    await register(players[0], id, { clientSeed: 'p1-seed' }).expect(200);
    await refused(() => t.http().post(`/v1/tournaments/${id}/start`).set(organizer.auth), 409, 'TOO_FEW_ENTRANTS');
    expect((await t.http().get(`/v1/tournaments/${id}`).expect(200)).body.status).toBe('registering');
    // Registering twice, with a bad seed, over the maximum.
    await refused(() => register(players[0], id), 409, 'ALREADY_REGISTERED');
    await refused(() => register(players[1], id, { clientSeed: 'has space' }), 400, 'VALIDATION_FAILED');
    await register(players[1], id).expect(200);
    await refused(() => register(players[2], id), 409, 'TOURNAMENT_FULL');
    // A non-organizer acting as the organizer.
    const notOrganizer = players[0];
    await refused(() => t.http().post(`/v1/tournaments/${id}/close`).set(notOrganizer.auth), 403, 'NOT_ORGANIZER');
    await refused(() => t.http().post(`/v1/tournaments/${id}/start`).set(notOrganizer.auth), 403, 'NOT_ORGANIZER');
    await refused(
      () => t.http().post(`/v1/tournaments/${id}/cancel`).set(notOrganizer.auth).send({ reason: 'mine' }),
      403,
      'NOT_ORGANIZER',
    );
    await refused(
      () => t.http().put(`/v1/tournaments/${id}/organizer-seed`).set(notOrganizer.auth).send({ organizerSeed: 'x' }),
      403,
      'NOT_ORGANIZER',
    );
    await refused(
      () =>
        t
          .http()
          .post(`/v1/tournaments/${id}/entrants/${players[1].id}/disqualify`)
          .set(notOrganizer.auth)
          .send({ reason: 'cheating' }),
      403,
      'NOT_ORGANIZER',
    );
    await refused(
      () =>
        t
          .http()
          .post(`/v1/tournaments/${id}/entrants/${players[1].id}/withdraw`)
          .set(notOrganizer.auth)
          .send({ reason: 'for him' }),
      403,
      'NOT_ORGANIZER',
    );
    const gqlNotOrg = await gql(
      t,
      'mutation($id: ID!) { startTournament(id: $id) { id } }',
      { id },
      notOrganizer.token,
    );
    expect(gqlNotOrg.errors?.[0]?.extensions?.code).toBe('NOT_ORGANIZER');
    // Reasons are required; unknown entrants and tournaments are named.
    await refused(
      () => t.http().post(`/v1/tournaments/${id}/entrants/${players[1].id}/disqualify`).set(organizer.auth).send({}),
      400,
      'VALIDATION_FAILED',
    );
    await refused(
      () =>
        t
          .http()
          .post(`/v1/tournaments/${id}/entrants/${players[2].id}/disqualify`)
          .set(organizer.auth)
          .send({ reason: 'who?' }),
      409,
      'NOT_REGISTERED',
    );
    await refused(
      () => t.http().get('/v1/tournaments/00000000-0000-4000-8000-000000000000'),
      404,
      'TOURNAMENT_NOT_FOUND',
    );
    await refused(() => t.http().get('/v1/tournaments/not-a-uuid'), 400, 'VALIDATION_FAILED');
    // After the close: registering is refused.
    await t.http().post(`/v1/tournaments/${id}/close`).set(organizer.auth).expect(200);
    await refused(() => register(players[2], id), 409, 'REGISTRATION_CLOSED');
    await refused(() => t.http().post(`/v1/tournaments/${id}/close`).set(organizer.auth), 409, 'REGISTRATION_CLOSED');
    // A recorded withdrawal, then cancelling reveals the seed; after that nothing more is accepted.
    const w = await t
      .http()
      .post(`/v1/tournaments/${id}/entrants/${players[1].id}/withdraw`)
      .set(players[1].auth)
      .send({ reason: 'travelling' })
      .expect(200);
    expect(w.body.entrants.find((e: any) => e.playerId === players[1].id)).toMatchObject({
      status: 'withdrawn',
      reason: 'travelling',
    });
    await refused(() => t.http().post(`/v1/tournaments/${id}/start`).set(organizer.auth), 409, 'TOO_FEW_ENTRANTS');
    const c = await t
      .http()
      .post(`/v1/tournaments/${id}/cancel`)
      .set(organizer.auth)
      .send({ reason: 'rain' })
      .expect(200);
    expect(c.body).toMatchObject({ status: 'cancelled', cancelReason: 'rain' });
    expect(c.body.tournamentSeed).toMatch(/^[0-9a-f]{64}$/);
    await refused(() => t.http().post(`/v1/tournaments/${id}/start`).set(organizer.auth), 409, 'TOURNAMENT_OVER');
  });

  describe('retries and concurrency (Idempotency-Key, If-Match), as for game commands', () => {
    const tournamentsOf = async (p: P) =>
      (await pool.query('SELECT id FROM tournaments WHERE organizer_id = $1', [p.id])).rows.map((r) => r.id);
    const eventCount = async (id: string) =>
      Number(
        (await pool.query('SELECT count(*) AS n FROM tournament_events WHERE tournament_id = $1', [id])).rows[0].n,
      );
    const cup = { name: 'Retry cup', ruleSet: 'simple', format: 'duplicate', maxEntrants: 4, rounds: 1 };

    it('REST: a retried creation answers the same tournament and makes no second one; another body is 422', async () => {
      const org = await registerPlayer(t, 'RetryOrg');
      const first = await create(org, cup).set('Idempotency-Key', 'create-1').expect(201);
      const again = await create(org, cup).set('Idempotency-Key', 'create-1').expect(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      expect(again.body).toEqual(first.body);
      expect(await tournamentsOf(org)).toEqual([first.body.id]);
      const other = await create(org, { ...cup, name: 'Another cup' })
        .set('Idempotency-Key', 'create-1')
        .expect(422);
      expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
      expect(await tournamentsOf(org)).toEqual([first.body.id]);
      // A malformed key is refused before anything runs.
      await create(org, cup).set('Idempotency-Key', 'has space').expect(400);
      expect(await tournamentsOf(org)).toEqual([first.body.id]);
    });

    it('REST: every command replays its first answer under the same key (no second effect), 422 for another body', async () => {
      const org = await registerPlayer(t, 'RetryOrg2');
      const [ann, ben, cid] = await Promise.all(['RAnn', 'RBen', 'RCid'].map((n) => registerPlayer(t, n)));
      const id = (await create(org, cup).expect(201)).body.id;
      const path = (p: string) => `/v1/tournaments/${id}${p}`;
      const steps: Array<[string, P, (key: string) => any, Record<string, unknown>]> = [
        ['register', ann, (k) => t.http().post(path('/entrants')).set(ann.auth).set('Idempotency-Key', k), {}],
        ['register', ben, (k) => t.http().post(path('/entrants')).set(ben.auth).set('Idempotency-Key', k), {}],
        ['register', cid, (k) => t.http().post(path('/entrants')).set(cid.auth).set('Idempotency-Key', k), {}],
        [
          'organizer seed',
          org,
          (k) => t.http().put(path('/organizer-seed')).set(org.auth).set('Idempotency-Key', k),
          { organizerSeed: 'org-seed' },
        ],
        [
          'withdraw',
          cid,
          (k) =>
            t
              .http()
              .post(path(`/entrants/${cid.id}/withdraw`))
              .set(cid.auth)
              .set('Idempotency-Key', k),
          { reason: 'ill' },
        ],
        ['close', org, (k) => t.http().post(path('/close')).set(org.auth).set('Idempotency-Key', k), {}],
        [
          'disqualify',
          org,
          (k) =>
            t
              .http()
              .post(path(`/entrants/${ben.id}/disqualify`))
              .set(org.auth)
              .set('Idempotency-Key', k),
          { reason: 'no show' },
        ],
        [
          'cancel',
          org,
          (k) => t.http().post(path('/cancel')).set(org.auth).set('Idempotency-Key', k),
          { reason: 'rain' },
        ],
      ];
      for (const [what, , send, body] of steps) {
        const key = `step-${what.replace(/ /g, '-')}-${Math.random()}`;
        const first = await send(key).send(body);
        expect([what, first.status]).toEqual([what, 200]);
        const events = await eventCount(id);
        const again = await send(key).send(body);
        expect([what, again.status, again.headers['idempotent-replayed']]).toEqual([what, 200, 'true']);
        expect(again.body).toEqual(first.body);
        expect([what, await eventCount(id)]).toEqual([what, events]);
        if (Object.keys(body).length > 0) {
          const other = await send(key).send(Object.fromEntries(Object.keys(body).map((k) => [k, 'different'])));
          expect([what, other.status, other.body.code]).toEqual([what, 422, 'IDEMPOTENCY_KEY_REUSED']);
        }
      }
      const final = (await t.http().get(path('')).set(org.auth).expect(200)).body;
      expect(final).toMatchObject({ status: 'cancelled', cancelReason: 'rain' });
      expect(final.entrants.map((e: any) => e.status)).toEqual(['active', 'disqualified', 'withdrawn']);
    });

    it('REST: a retried start starts once; a stored refusal is replayed too', async () => {
      const org = await registerPlayer(t, 'RetryOrg3');
      const [ann, ben] = await Promise.all(['SAnn', 'SBen'].map((n) => registerPlayer(t, n)));
      const id = (await create(org, cup).expect(201)).body.id;
      const start = () => t.http().post(`/v1/tournaments/${id}/start`).set(org.auth).set('Idempotency-Key', 'start-1');
      await register(ann, id).expect(200);
      // Too few entrants: the refusal is the key's outcome, replayed even once a second entrant came.
      expect((await start().expect(409)).body.code).toBe('TOO_FEW_ENTRANTS');
      await register(ben, id).expect(200);
      expect((await start().expect(409)).body.code).toBe('TOO_FEW_ENTRANTS');
      const started = await t
        .http()
        .post(`/v1/tournaments/${id}/start`)
        .set(org.auth)
        .set('Idempotency-Key', 'start-2')
        .expect(200);
      const again = await t
        .http()
        .post(`/v1/tournaments/${id}/start`)
        .set(org.auth)
        .set('Idempotency-Key', 'start-2')
        .expect(200);
      expect(again.body).toEqual(started.body);
      const { rows } = await pool.query(`SELECT count(*) AS n FROM games WHERE tournament_id = $1`, [id]);
      expect(Number(rows[0].n)).toBe(2);
    });

    it('REST: If-Match with a stale version is 412 PRECONDITION_FAILED and stores nothing; the current one works', async () => {
      const org = await registerPlayer(t, 'MatchOrg');
      const ann = await registerPlayer(t, 'MAnn');
      const created = await create(org, cup).expect(201);
      const id = created.body.id;
      expect(created.headers.etag).toBe(`"${created.body.version}"`);
      const read = await t.http().get(`/v1/tournaments/${id}`).expect(200);
      expect(read.headers.etag).toBe(`"${read.body.version}"`);
      const stale = read.headers.etag;
      await register(ann, id).set('If-Match', stale).expect(200);
      const events = await eventCount(id);
      const refused = await t
        .http()
        .put(`/v1/tournaments/${id}/organizer-seed`)
        .set(org.auth)
        .set('If-Match', stale)
        .send({ organizerSeed: 'late' })
        .expect(412);
      expect(refused.body).toMatchObject({ code: 'PRECONDITION_FAILED', currentVersion: read.body.version + 1 });
      expect(refused.headers.etag).toBe(`"${read.body.version + 1}"`);
      expect(await eventCount(id)).toBe(events);
      const ok = await t
        .http()
        .put(`/v1/tournaments/${id}/organizer-seed`)
        .set(org.auth)
        .set('If-Match', refused.headers.etag)
        .send({ organizerSeed: 'late' })
        .expect(200);
      expect(ok.headers.etag).toBe(`"${ok.body.version}"`);
      await t.http().post(`/v1/tournaments/${id}/close`).set(org.auth).set('If-Match', 'nonsense').expect(400);
    });

    it('REST: the commands whose fields are all optional take no body at all (as the OpenAPI now says)', async () => {
      const org = await registerPlayer(t, 'NoBodyOrg');
      const ann = await registerPlayer(t, 'NoBodyAnn');
      const id = (await create(org, cup).expect(201)).body.id;
      const reg = await t.http().post(`/v1/tournaments/${id}/entrants`).set(ann.auth).expect(200);
      expect(reg.body.entrants).toMatchObject([{ playerId: ann.id, clientSeedGenerated: true }]);
      const game = (await t.http().post('/v1/games').set(org.auth).send({ ruleSet: 'farkle', seats: 2 }).expect(201))
        .body;
      expect((await t.http().post(`/v1/games/${game.id}/join`).set(ann.auth).expect(200)).body.seats[1]).toMatchObject({
        playerId: ann.id,
      });
      const started = (await t.http().post(`/v1/games/${game.id}/start`).set(org.auth).expect(200)).body;
      expect(started.status).toBe('playing');
      const mover = started.currentPlayerId === org.id ? org : ann;
      const rolled = (await t.http().post(`/v1/games/${game.id}/roll`).set(mover.auth).expect(200)).body;
      expect(rolled.version).toBeGreaterThan(started.version);
    });

    it('GraphQL: idempotencyKey on the tournament mutations replays the first answer; another input is refused', async () => {
      const org = await registerPlayer(t, 'GqlRetryOrg');
      const ann = await registerPlayer(t, 'GqlRetryAnn');
      const mutate = (i: Record<string, unknown>) =>
        gql(
          t,
          'mutation($i: CreateTournamentInput!, $k: String) { createTournament(input: $i, idempotencyKey: $k) { id version createdAt entryClosesAt } }',
          { i, k: 'gql-create' },
          org.token,
        );
      const input = { ...cup, entryClosesAt: '2099-01-01T00:00:00Z' };
      const first = await mutate(input);
      expect(first.errors).toBeUndefined();
      const again = await mutate(input);
      expect(again).toEqual(first);
      expect(first.data.createTournament.entryClosesAt).toBe('2099-01-01T00:00:00.000Z');
      expect(await tournamentsOf(org)).toEqual([first.data.createTournament.id]);
      expect((await mutate({ ...input, name: 'Other' })).errors?.[0]?.extensions?.code).toBe('IDEMPOTENCY_KEY_REUSED');
      const id = first.data.createTournament.id;
      const reg = () =>
        gql(
          t,
          'mutation($id: ID!) { registerForTournament(id: $id, idempotencyKey: "gql-reg") { version entrants { playerId } } }',
          { id },
          ann.token,
        );
      const r1 = await reg();
      expect(r1.errors).toBeUndefined();
      expect(await reg()).toEqual(r1); // without the key the second one is ALREADY_REGISTERED
    });
  });
});
