/**
 * Challenges end to end (docs/challenges.md): a challenge accepted (its game created and started,
 * rated, seats ordered by the commitment), another declined, a third expired by the sweep, each
 * told on BOTH players' event streams; an open challenge taken by exactly one of two racing
 * accepts; every bad input refused with its code and nothing stored.
 */
import type { Pool } from 'pg';
import { seatOrder } from '@fairdice/core/fairness/seat-order';
import { createTestApp, gql, registerPlayer, type TestApp } from '../helpers/app';
import { poolOf } from '../helpers/games';
import { openPlayerStream, type PlayerStreamClient, type StreamMessage } from '../helpers/player-stream';
import { rowCounts } from '../helpers/row-counts';
import { waitFor } from '../async/helpers';

type P = Awaited<ReturnType<typeof registerPlayer>>;
const CASUAL = { pool: 'simple', turnTimeLimitSeconds: 3600 };

describe('challenges', () => {
  let t: TestApp;
  let short: TestApp;
  let base: string;
  const streams: PlayerStreamClient[] = [];
  const open = (at: string, p: P) => {
    const s = openPlayerStream(at, p.token);
    streams.push(s);
    return s;
  };
  const urlOf = async (app: TestApp) => (await app.app.getUrl()).replace('[::1]', '127.0.0.1');

  beforeAll(async () => {
    t = await createTestApp({ env: { JOBS_POLL_INTERVAL_MS: '100', CHALLENGE_MAX_PENDING: '3' }, listen: true });
    // A second instance on the same database whose challenges expire after 1 s (the expiry test).
    // It runs no jobs: `t`'s worker runs them all and wakes `t`'s streams (on the embedded database
    // there is no LISTEN/NOTIFY between instances, so the streams are opened on `t`).
    short = await createTestApp({ env: { JOBS_ENABLED: 'false', CHALLENGE_EXPIRY_SECONDS: '1' } });
    base = await urlOf(t);
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await short?.close();
    await t?.close();
  });

  const challenge = (app: TestApp, from: P, body: Record<string, unknown>) =>
    app.http().post('/v1/challenges').set(from.auth).send(body);
  const typed = (type: string, challengeId: string) => (ms: StreamMessage[]) =>
    ms.some((m) => m.event === type && m.data.data.challengeId === challengeId);
  const find = (s: PlayerStreamClient, type: string, challengeId: string) =>
    s.messages.find((m) => m.event === type && m.data.data.challengeId === challengeId)!.data.data;
  /** Every job due now has run (the refused-input checks compare row counts while nothing else moves). */
  const quiet = (pool: Pool) =>
    waitFor(
      async () =>
        (await pool.query(`SELECT count(*)::int AS n FROM async_jobs WHERE run_at <= now() OR locked_by IS NOT NULL`))
          .rows[0].n === 0,
      15_000,
      'the due jobs to run',
    );

  it('a challenge accepted: the rated game is created and started, and both streams tell it', async () => {
    const ada = await registerPlayer(t, 'Ada');
    const bob = await registerPlayer(t, 'Bob');
    await t
      .http()
      .put('/v1/accounts/me/username')
      .set(bob.auth)
      .send({ username: `Bob-${bob.id.slice(0, 8)}` })
      .expect(200);
    const [sa, sb] = [open(base, ada), open(base, bob)];
    await Promise.all([sa.opened, sb.opened]);

    // Bob named by his username, in another case.
    const made = await challenge(t, ada, {
      opponent: `bob-${bob.id.slice(0, 8)}`.toUpperCase(),
      pool: 'simple',
      rated: true,
      turnTimeLimitSeconds: 3600,
      message: '  A friendly one?  ',
    }).expect(201);
    const c = made.body;
    expect(c).toMatchObject({
      status: 'pending',
      open: false,
      challenger: { id: ada.id, displayName: 'Ada' },
      opponent: { id: bob.id, displayName: 'Bob' },
      pool: 'simple',
      rated: true,
      turnTimeLimitSeconds: 3600,
      message: 'A friendly one?',
      gameId: null,
      url: `/challenge/${c.id}`,
    });
    // Bob is told; both see it in their lists.
    await sb.waitFor(typed('challengeReceived', c.id), 'challengeReceived on Bob’s stream');
    expect(find(sb, 'challengeReceived', c.id)).toMatchObject({
      challengerId: ada.id,
      challengerName: 'Ada',
      rated: true,
    });
    expect(
      (await t.http().get('/v1/challenges').set(bob.auth).expect(200)).body.incoming.map((x: any) => x.id),
    ).toEqual([c.id]);
    expect(
      (await t.http().get('/v1/challenges').set(ada.auth).expect(200)).body.outgoing.map((x: any) => x.id),
    ).toEqual([c.id]);

    const accepted = await t.http().post(`/v1/challenges/${c.id}/accept`).set(bob.auth).expect(200);
    expect(accepted.body).toMatchObject({ status: 'accepted', gameId: expect.any(String) });
    const gameId = accepted.body.gameId;
    for (const [who, s] of [
      ['Ada', sa],
      ['Bob', sb],
    ] as const) {
      await s.waitFor(typed('challengeAccepted', c.id), `challengeAccepted on ${who}’s stream`);
      expect(find(s, 'challengeAccepted', c.id)).toMatchObject({ status: 'accepted', gameId, opponentId: bob.id });
      await s.waitFor(
        (ms) => ms.some((m) => m.event === 'gameStarted' && m.data.data.gameId === gameId),
        `gameStarted on ${who}’s stream`,
      );
    }
    // The game: started, rated, advice forbidden, the time limit; seats in the commitment's order.
    const game = (await t.http().get(`/v1/games/${gameId}`).set(ada.auth).expect(200)).body;
    expect(game).toMatchObject({
      status: 'playing',
      rated: true,
      advice: 'forbidden',
      turnTimeLimitSeconds: 3600,
      visibility: 'public',
    });
    expect(game.seats.map((s: any) => s.playerId)).toEqual(seatOrder(game.commitment, [ada.id, bob.id]));
    // No longer pending: out of the lists, and a second acceptance is refused.
    expect((await t.http().get('/v1/challenges').set(bob.auth).expect(200)).body.incoming).toEqual([]);
    const again = await t.http().post(`/v1/challenges/${c.id}/accept`).set(bob.auth).expect(409);
    expect(again.body).toMatchObject({ code: 'CHALLENGE_NOT_PENDING', status: 409 });
  });

  it('a challenge declined with a reason: both streams tell it (GraphQL)', async () => {
    const ada = await registerPlayer(t, 'Ada');
    const bob = await registerPlayer(t, 'Bob');
    const [sa, sb] = [open(base, ada), open(base, bob)];
    await Promise.all([sa.opened, sb.opened]);
    const made = await gql(
      t,
      'mutation($i: CreateChallengeInput!) { createChallenge(input: $i) { id status opponent { id } } }',
      { i: { opponent: bob.id, pool: 'farkle', turnTimeLimitSeconds: 30 } },
      ada.token,
    );
    const id = made.data.createChallenge.id;
    expect(made.data.createChallenge).toEqual({ id, status: 'pending', opponent: { id: bob.id } });
    const mine = await gql(t, '{ challenges { incoming { id pool rated } outgoing { id } } }', {}, bob.token);
    expect(mine.data.challenges).toEqual({ incoming: [{ id, pool: 'farkle', rated: false }], outgoing: [] });
    const declined = await gql(
      t,
      'mutation($id: ID!) { declineChallenge(id: $id, input: { reason: "tooFast" }) { status declineReason } }',
      { id },
      bob.token,
    );
    expect(declined.data.declineChallenge).toEqual({ status: 'declined', declineReason: 'tooFast' });
    for (const [who, s] of [
      ['Ada', sa],
      ['Bob', sb],
    ] as const) {
      await s.waitFor(typed('challengeDeclined', id), `challengeDeclined on ${who}’s stream`);
      expect(find(s, 'challengeDeclined', id)).toMatchObject({ status: 'declined', reason: 'tooFast', gameId: null });
    }
    const late = await gql(t, 'mutation($id: ID!) { acceptChallenge(id: $id) { id } }', { id }, bob.token);
    expect(late.errors?.[0].extensions?.code).toBe('CHALLENGE_NOT_PENDING');
  });

  it('a challenge unanswered expires: the sweep tells both streams, and accepting it is refused', async () => {
    const ada = await registerPlayer(short, 'Ada');
    const bob = await registerPlayer(short, 'Bob');
    const [sa, sb] = [open(base, ada), open(base, bob)];
    await Promise.all([sa.opened, sb.opened]);
    const c = (await challenge(short, ada, { opponent: bob.id, ...CASUAL }).expect(201)).body;
    expect(Date.parse(c.expiresAt) - Date.parse(c.createdAt)).toBe(1000);
    for (const [who, s] of [
      ['Ada', sa],
      ['Bob', sb],
    ] as const) {
      await s.waitFor(typed('challengeExpired', c.id), `challengeExpired on ${who}’s stream`);
      expect(find(s, 'challengeExpired', c.id)).toMatchObject({
        status: 'expired',
        challengerId: ada.id,
        opponentId: bob.id,
      });
    }
    const { rows } = await poolOf(short).query('SELECT status FROM challenges WHERE id = $1', [c.id]);
    expect(rows).toEqual([{ status: 'expired' }]);
    await quiet(poolOf(t));
    const before = await rowCounts(poolOf(t));
    const res = await short.http().post(`/v1/challenges/${c.id}/accept`).set(bob.auth).expect(409);
    expect(res.body).toMatchObject({ code: 'CHALLENGE_NOT_PENDING', challengeStatus: 'expired' });
    expect(await rowCounts(poolOf(t))).toEqual(before);
  });

  it('an open challenge is taken by exactly one of two racing accepts; anyone may see its link', async () => {
    const ada = await registerPlayer(t, 'Ada');
    const [bob, cy] = [await registerPlayer(t, 'Bob'), await registerPlayer(t, 'Cy')];
    const c = (await challenge(t, ada, CASUAL).expect(201)).body;
    expect(c).toMatchObject({ open: true, opponent: null });
    // The link page reads it without a token.
    expect((await t.http().get(`/v1/challenges/${c.id}`).expect(200)).body).toMatchObject({
      id: c.id,
      status: 'pending',
    });
    const own = await t.http().post(`/v1/challenges/${c.id}/accept`).set(ada.auth).expect(400);
    expect(own.body.code).toBe('CANNOT_CHALLENGE_SELF');
    const answers = await Promise.all([bob, cy].map((p) => t.http().post(`/v1/challenges/${c.id}/accept`).set(p.auth)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = answers.find((r) => r.status === 200)!;
    const loser = answers.find((r) => r.status === 409)!;
    expect(loser.body.code).toBe('CHALLENGE_NOT_PENDING');
    const taker = winner === answers[0] ? bob : cy;
    expect(winner.body.opponent.id).toBe(taker.id);
    const { rows } = await poolOf(t).query(
      `SELECT count(*)::int AS n FROM games g JOIN game_seats s ON s.game_id = g.id WHERE s.player_id = $1`,
      [ada.id],
    );
    expect(rows[0].n).toBe(1);
  });

  it('GraphQL reads an open challenge without a token, and its challenger cancels it: told on their stream', async () => {
    const ada = await registerPlayer(t, 'Ada');
    const sa = open(base, ada);
    await sa.opened;
    const id = (await challenge(t, ada, { ...CASUAL, message: 'Anyone?' }).expect(201)).body.id;
    const read = await gql(t, 'query($id: ID!) { challenge(id: $id) { id open status message url } }', { id });
    expect(read.data.challenge).toEqual({
      id,
      open: true,
      status: 'pending',
      message: 'Anyone?',
      url: `/challenge/${id}`,
    });
    const cancelled = await gql(
      t,
      'mutation($id: ID!) { cancelChallenge(id: $id) { status endedAt } }',
      { id },
      ada.token,
    );
    expect(cancelled.data.cancelChallenge).toEqual({ status: 'cancelled', endedAt: expect.any(String) });
    await sa.waitFor(typed('challengeCancelled', id), 'challengeCancelled on Ada’s stream');
    expect((await t.http().get('/v1/challenges').set(ada.auth).expect(200)).body.outgoing).toEqual([]);
  });

  describe('bad inputs: a clear code, nothing stored', () => {
    let ada: P;
    let bob: P;
    let cy: P;
    let pending: string;
    let cancelled: string;
    beforeAll(async () => {
      ada = await registerPlayer(t, 'Ada');
      bob = await registerPlayer(t, 'Bob');
      cy = await registerPlayer(t, 'Cy');
      pending = (await challenge(t, ada, { opponent: bob.id, ...CASUAL }).expect(201)).body.id;
      cancelled = (await challenge(t, ada, { opponent: bob.id, ...CASUAL }).expect(201)).body.id;
      await t.http().post(`/v1/challenges/${cancelled}/cancel`).set(ada.auth).expect(200);
    });

    const refused = async (send: () => Promise<{ status: number; body: any }>, status: number, code: string) => {
      await quiet(poolOf(t));
      const before = await rowCounts(poolOf(t));
      const res = await send();
      expect([res.status, res.body.code]).toEqual([status, code]);
      expect(await rowCounts(poolOf(t))).toEqual(before);
      return res.body;
    };

    it('refuses challenging oneself, a missing player, an unknown pool, a bad time per move, a long message', async () => {
      await refused(() => challenge(t, ada, { opponent: ada.id, ...CASUAL }), 400, 'CANNOT_CHALLENGE_SELF');
      await refused(
        () => challenge(t, ada, { opponent: '00000000-0000-4000-8000-000000000000', ...CASUAL }),
        404,
        'PLAYER_NOT_FOUND',
      );
      await refused(() => challenge(t, ada, { opponent: 'nobody-here', ...CASUAL }), 404, 'PLAYER_NOT_FOUND');
      const pool = await refused(() => challenge(t, ada, { ...CASUAL, pool: 'yahtzee' }), 400, 'VALIDATION_FAILED');
      expect(pool.errors.map((e: any) => e.field)).toEqual(['pool']);
      for (const bad of [0, 1.5, 604_801, '60', undefined])
        await refused(() => challenge(t, ada, { ...CASUAL, turnTimeLimitSeconds: bad }), 400, 'VALIDATION_FAILED');
      await refused(() => challenge(t, ada, { ...CASUAL, message: 'x'.repeat(281) }), 400, 'VALIDATION_FAILED');
      await refused(() => challenge(t, ada, { ...CASUAL, message: 'ring \u0007' }), 400, 'VALIDATION_FAILED');
      await refused(() => challenge(t, ada, { ...CASUAL, rated: 'yes' }), 400, 'VALIDATION_FAILED');
      const g = await gql(
        t,
        'mutation($i: CreateChallengeInput!) { createChallenge(input: $i) { id } }',
        { i: { opponent: ada.id, ...CASUAL } },
        ada.token,
      );
      expect(g.errors?.[0].extensions?.code).toBe('CANNOT_CHALLENGE_SELF');
    });

    it('refuses accepting a cancelled challenge, and answering or cancelling a challenge meant for someone else', async () => {
      const c = await refused(
        () => t.http().post(`/v1/challenges/${cancelled}/accept`).set(bob.auth),
        409,
        'CHALLENGE_NOT_PENDING',
      );
      expect(c.challengeStatus).toBe('cancelled');
      await refused(
        () => t.http().post(`/v1/challenges/${pending}/accept`).set(cy.auth),
        403,
        'NOT_CHALLENGE_RECIPIENT',
      );
      await refused(
        () => t.http().post(`/v1/challenges/${pending}/decline`).set(cy.auth).send({ reason: 'later' }),
        403,
        'NOT_CHALLENGE_RECIPIENT',
      );
      await refused(() => t.http().post(`/v1/challenges/${pending}/cancel`).set(bob.auth), 403, 'NOT_CHALLENGER');
      await refused(
        () => t.http().post(`/v1/challenges/${pending}/decline`).set(bob.auth).send({ reason: 'rude' }),
        400,
        'VALIDATION_FAILED',
      );
      await refused(() => t.http().get(`/v1/challenges/${pending}`).set(cy.auth), 404, 'CHALLENGE_NOT_FOUND');
      await refused(
        () => t.http().post('/v1/challenges/00000000-0000-4000-8000-000000000000/accept').set(bob.auth),
        404,
        'CHALLENGE_NOT_FOUND',
      );
      await refused(() => t.http().post('/v1/challenges/nope/accept').set(bob.auth), 400, 'VALIDATION_FAILED');
      const g = await gql(t, 'mutation($id: ID!) { acceptChallenge(id: $id) { id } }', { id: pending }, cy.token);
      expect(g.errors?.[0].extensions?.code).toBe('NOT_CHALLENGE_RECIPIENT');
    });

    it('caps the pending challenges a player has made (CHALLENGE_MAX_PENDING)', async () => {
      const dee = await registerPlayer(t, 'Dee');
      for (let i = 0; i < 3; i++) await challenge(t, dee, { opponent: bob.id, ...CASUAL }).expect(201);
      const body = await refused(
        () => challenge(t, dee, { opponent: bob.id, ...CASUAL }),
        409,
        'CHALLENGE_LIMIT_REACHED',
      );
      expect(body.limit).toBe(3);
    });
  });
});
