/**
 * The matchmaker on two instances against one database (docs/matchmaking.md §4): while 200 seeks
 * arrive at both, each instance runs its passes (on a short interval and woken by every seek it
 * takes); one pass at a time holds the lock, and every seek is paired at most once: exactly once
 * here, since every seek has partners. Each game holds exactly the players of its seeks.
 */
import { WAIT_FOR_POOL_ENV, createTestApp, registerPlayer, type TestApp } from '../helpers/app';
import { poolOf } from '../helpers/games';
import { waitFor } from '../async/helpers';

jest.setTimeout(180_000);

describe('the matchmaker on two instances', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    // 200 requests at once on two pools of five: they wait for a pooled connection.
    const env = { MATCHMAKER_ENABLED: 'true', MATCHMAKER_INTERVAL_MS: '50', ...WAIT_FOR_POOL_ENV };
    [a, b] = [await createTestApp({ env }), await createTestApp({ env })];
  });
  afterAll(async () => {
    await Promise.all([a, b].filter(Boolean).map((t) => t.close()));
  });

  it('pairs each of 200 concurrent seeks once, into games holding exactly their players', async () => {
    // 100 two-seat, 60 three-seat and 40 four-seat seeks (casual, no time limit: no deadlines left
    // behind): all compatible, so all are paired, into 50 + 20 + 10 games.
    const specs = [
      ...Array.from({ length: 100 }, () => ({ pool: 'penta', seats: 2 })),
      ...Array.from({ length: 60 }, () => ({ pool: 'simple', seats: 3 })),
      ...Array.from({ length: 40 }, () => ({ pool: 'farkle', seats: 4 })),
    ].map((s, i) => ({ ...s, rated: false, i }));
    // Interleaved, so that every instance sees seeks of every kind.
    specs.sort((x, y) => ((x.i * 7919) % 200) - ((y.i * 7919) % 200));
    const players: Array<Awaited<ReturnType<typeof registerPlayer>>> = [];
    for (let i = 0; i < specs.length; i++) players.push(await registerPlayer(i % 2 ? a : b, `S${i}`));
    const posted = await Promise.all(
      specs.map(async ({ pool, seats, rated }, i) => {
        const t = i % 2 ? b : a;
        const res = await t.http().post('/v1/seeks').set(players[i].auth).send({ pool, seats, rated }).expect(201);
        return { id: res.body.id as string, playerId: players[i].id, seats };
      }),
    );
    const ids = posted.map((p) => p.id);
    const db = poolOf(a);
    await waitFor(
      async () => {
        const { rows } = await db.query(
          `SELECT count(*)::int AS n FROM seeks WHERE id = ANY($1) AND status = 'paired'`,
          [ids],
        );
        return rows[0].n === 200;
      },
      120_000,
      'all 200 seeks paired',
      100,
    );

    // Exactly one seekPaired event per seek, and the seek's row names the same game.
    const { rows: events } = await db.query(
      `SELECT e.seek_id, e.payload->'data'->>'gameId' AS game_id, s.game_id AS row_game
         FROM seek_events e JOIN seeks s ON s.id = e.seek_id
        WHERE e.seek_id = ANY($1) AND e.type = 'seekPaired'`,
      [ids],
    );
    expect(events).toHaveLength(200);
    expect(new Set(events.map((e) => e.seek_id)).size).toBe(200);
    for (const e of events) expect(e.game_id).toBe(e.row_game);

    // Each game: started, its seats exactly the players of the seeks paired into it.
    const byGame = new Map<string, string[]>();
    const bySeek = new Map(posted.map((p) => [p.id, p]));
    for (const e of events) byGame.set(e.game_id, [...(byGame.get(e.game_id) ?? []), bySeek.get(e.seek_id)!.playerId]);
    expect(byGame.size).toBe(80);
    const { rows: games } = await db.query(
      `SELECT g.id, g.status, g.seat_count, array_agg(s.player_id::text ORDER BY s.seat) AS players
         FROM games g JOIN game_seats s ON s.game_id = g.id WHERE g.id = ANY($1) GROUP BY g.id`,
      [[...byGame.keys()]],
    );
    expect(games).toHaveLength(80);
    for (const g of games) {
      expect(g.status).toBe('playing');
      expect([...g.players].sort()).toEqual([...byGame.get(g.id)!].sort());
      expect(g.seat_count).toBe(g.players.length);
    }
    const seatCounts = games.map((g) => g.seat_count).sort();
    expect(seatCounts.filter((n) => n === 2)).toHaveLength(50);
    expect(seatCounts.filter((n) => n === 3)).toHaveLength(20);
    expect(seatCounts.filter((n) => n === 4)).toHaveLength(10);
  });
});
