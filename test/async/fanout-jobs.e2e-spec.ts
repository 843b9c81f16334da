/**
 * Commands write a webhook fan-out job only when a webhook can receive one of its notices: a game
 * between players without webhooks leaves no fan-out row; once a player registers one for the
 * notice type, the next hand-over to them writes it (in the same statement as the events).
 * The job worker is off here, so the rows stay to be counted.
 */
import type { Pool } from 'pg';
import { PG_POOL } from '../../src/database/pg-pool';
import { createTestApp, registerPlayer, type TestApp } from '../helpers/app';

// Apps start slowly on a loaded CI machine (embedded database included).
jest.setTimeout(60_000);
describe('webhook fan-out jobs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { JOBS_ENABLED: 'false' } });
  });
  afterAll(() => t?.close());

  const fanouts = async (gameId: string) =>
    (
      await t.app
        .get<Pool>(PG_POOL)
        .query<{ n: number }>(
          `SELECT count(*)::int AS n FROM async_jobs WHERE queue = 'webhook-fanout' AND payload ->> 'gameId' = $1`,
          [gameId],
        )
    ).rows[0].n;

  it('none without a listening webhook; one once a seated player subscribes', async () => {
    const a = await registerPlayer(t, 'Quiet A');
    const b = await registerPlayer(t, 'Quiet B');
    const game = await t.http().post('/v1/games').set(a.auth).send({ ruleSet: 'penta', seats: 2 }).expect(201);
    const id: string = game.body.id;
    await t.http().post(`/v1/games/${id}/join`).set(b.auth).send({}).expect(200);
    await t.http().post(`/v1/games/${id}/start`).set(a.auth).send({}).expect(200); // game.started + turn.started
    expect(await fanouts(id)).toBe(0);

    // A webhook for another notice type than the coming hand-over still writes nothing.
    await t
      .http()
      .post('/v1/webhooks')
      .set(b.auth)
      .send({ url: 'https://b.example.com/hook', events: ['game.finished'] })
      .expect(201);
    await t.http().post(`/v1/games/${id}/roll`).set(a.auth).send({}).expect(200);
    const sheet = await t.http().get(`/v1/games/${id}`).set(a.auth).expect(200);
    const box: string = sheet.body.fiveDice.scoreOptions.boxes.find((x: { allowed: boolean }) => x.allowed).box;
    await t.http().post(`/v1/games/${id}/score`).set(a.auth).send({ box }).expect(200); // turn to b
    expect(await fanouts(id)).toBe(0);

    // a subscribes to turn.started: the hand-over back to a writes the fan-out job.
    await t
      .http()
      .post('/v1/webhooks')
      .set(a.auth)
      .send({ url: 'https://a.example.com/hook', events: ['turn.started'] })
      .expect(201);
    await t.http().post(`/v1/games/${id}/roll`).set(b.auth).send({}).expect(200);
    const sheetB = await t.http().get(`/v1/games/${id}`).set(b.auth).expect(200);
    const boxB: string = sheetB.body.fiveDice.scoreOptions.boxes.find((x: { allowed: boolean }) => x.allowed).box;
    await t.http().post(`/v1/games/${id}/score`).set(b.auth).send({ box: boxB }).expect(200); // turn to a
    expect(await fanouts(id)).toBe(1);
  });
});
