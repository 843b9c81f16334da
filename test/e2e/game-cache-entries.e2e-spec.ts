/**
 * A game's cache entry stays complete (row and seated names) from its creation on, so its next
 * command and a read of it need no database read (decision 0150): after a creation, and after a
 * command that changes seats without seating anyone new (the start's client seeds). Observed by
 * the metric fairdice_game_reads_total{served_by} of GET /v1/games/{id} (one instance: every
 * commit passes through its cache).
 */
import { createTestApp, registerPlayer, type TestApp } from '../helpers/app';
import { waitFor } from '../tournaments/helpers';

jest.setTimeout(60_000);

describe('game cache entries', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const reads = async (): Promise<{ cache: number; database: number }> => {
    const text = (await t.http().get('/metrics').expect(200)).text;
    const count = (by: string) =>
      Number(new RegExp(`^fairdice_game_reads_total\\{served_by="${by}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
    return { cache: count('cache'), database: count('database') };
  };

  it('a new game, then a started one, is read from the cache with the names the database has', async () => {
    const p = await registerPlayer(t, 'Cached Creator');
    const created = await t.http().post('/v1/games').set(p.auth).send({ ruleSet: 'simple', seats: 1 }).expect(201);
    const id = created.body.id as string;

    let before = await reads();
    const afterCreate = await t.http().get(`/v1/games/${id}`).set(p.auth).expect(200);
    expect(await reads()).toEqual({ cache: before.cache + 1, database: before.database });
    expect(afterCreate.body).toEqual(created.body);

    const started = await t.http().post(`/v1/games/${id}/start`).set(p.auth).send({}).expect(200);
    before = await reads();
    const afterStart = await t.http().get(`/v1/games/${id}`).set(p.auth).expect(200);
    expect(await reads()).toEqual({ cache: before.cache + 1, database: before.database });
    expect(afterStart.body).toEqual(started.body);

    // The database's answer is the same game.
    const fromDatabase = await t.http().get(`/v1/games/${id}`).set(p.auth).set('Cache-Control', 'no-cache').expect(200);
    expect(fromDatabase.body).toEqual(afterStart.body);
    expect(JSON.stringify(fromDatabase.body)).toContain('Cached Creator');
  });

  it('a player taking a seat is a name the cache does not know: the next read asks the database', async () => {
    const a = await registerPlayer(t, 'Host');
    const b = await registerPlayer(t, 'Guest');
    const created = await t
      .http()
      .post('/v1/games')
      .set(a.auth)
      .send({ ruleSet: 'simple', seats: 2, visibility: 'public' })
      .expect(201);
    const id = created.body.id as string;
    await t.http().post(`/v1/games/${id}/join`).set(b.auth).send({}).expect(200);
    const before = await reads();
    const view = await t.http().get(`/v1/games/${id}`).set(a.auth).expect(200);
    expect(await reads()).toEqual({ cache: before.cache, database: before.database + 1 });
    expect(JSON.stringify(view.body)).toContain('Guest');
  });

  it('a game the service creates and starts (a tournament table) shows its players’ names from the first read', async () => {
    const organizer = await registerPlayer(t, 'Organizer');
    const entrants = [await registerPlayer(t, 'Table One'), await registerPlayer(t, 'Table Two')];
    const id = (
      await t
        .http()
        .post('/v1/tournaments')
        .set(organizer.auth)
        .send({ name: 'Names', ruleSet: 'simple', format: 'tables', maxEntrants: 2, rounds: 1 })
        .expect(201)
    ).body.id as string;
    for (const e of entrants) await t.http().post(`/v1/tournaments/${id}/entrants`).set(e.auth).send({}).expect(200);
    await t.http().post(`/v1/tournaments/${id}/close`).set(organizer.auth).expect(200);
    await t.http().post(`/v1/tournaments/${id}/start`).set(organizer.auth).expect(200);
    const view = await waitFor(
      async () => (await t.http().get(`/v1/tournaments/${id}`).set(organizer.auth).expect(200)).body,
      (v) => (v.roundDetails?.[0]?.games?.length ?? 0) > 0,
    );
    const gameId = view.roundDetails[0].games[0].gameId as string;
    expect(gameId).toBeDefined();
    const first = (await t.http().get(`/v1/games/${gameId}`).expect(200)).body;
    const names = (first.seats as Array<{ displayName: string | null }>).map((s) => s.displayName).sort();
    expect(names).toEqual(['Table One', 'Table Two']);
    const fromDatabase = (await t.http().get(`/v1/games/${gameId}`).set('Cache-Control', 'no-cache').expect(200)).body;
    expect(first).toEqual(fromDatabase);
  });
});
