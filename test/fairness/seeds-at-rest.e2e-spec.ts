/**
 * Server seeds are secret at rest (docs/decisions/0017): mid-game, every row of every table of
 * the database (every column as text, and each row as JSON), holds no server seed of a running
 * game in any readable form: hex (either case), base64, base64url, or the base64 of its hex text.
 * The seeds are known to the test through the app's own key (SeedVault.open), and the same search
 * finds a seed once it is public (the game view after the end).
 */
import type { Pool } from 'pg';
import { createTestApp, registerPlayer, storedServerSeed, type TestApp } from '../helpers/app';
import { chooseMove, playToEnd, poolOf, restClient } from '../helpers/games';

jest.setTimeout(180_000);

const formsOf = (seed: string) => [
  seed,
  seed.toUpperCase(),
  Buffer.from(seed, 'hex').toString('base64'),
  Buffer.from(seed, 'hex').toString('base64url'),
  Buffer.from(seed, 'utf8').toString('base64'),
  // a bytea column holding the raw seed shows as \x<hex> (covered by the hex forms)
];

/** Every row of every table in every non-system schema, each column as text and each row as JSON. */
async function dumpEverything(pool: Pool): Promise<{ tables: string[]; texts: string[] }> {
  const { rows: tables } = await pool.query<{ schema: string; name: string }>(
    `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')
      ORDER BY 1, 2`,
  );
  const texts: string[] = [];
  for (const t of tables) {
    const { rows: cols } = await pool.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position`,
      [t.schema, t.name],
    );
    const q = (id: string) => `"${id.replace(/"/g, '""')}"`;
    const list = cols.map((c) => `${q(c.column_name)}::text AS ${q(c.column_name)}`).join(', ');
    // every value is selected ::text, so pg returns strings (or null)
    const { rows } = await pool.query<Record<string, string | null>>(
      `SELECT row_to_json(x)::text AS "__json", ${list} FROM ${q(t.schema)}.${q(t.name)} x`,
    );
    for (const r of rows) for (const v of Object.values(r)) if (v !== null) texts.push(v);
  }
  return { tables: tables.map((t) => `${t.schema}.${t.name}`), texts };
}

describe('server seeds at rest', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('mid-game, no row of any table holds the seed of a running game in any readable form', async () => {
    const a = await registerPlayer(t, 'Alice');
    const b = await registerPlayer(t, 'Bob');
    const tokenOf = (id: string) => (id === a.id ? a.token : b.token);
    const client = restClient(t);
    const running: any[] = [];
    for (const input of [
      { ruleSet: 'penta', seats: 2 },
      { ruleSet: 'farkle', seats: 2, options: { target: 1500, entryThreshold: 0 } },
      { ruleSet: 'simple', seats: 1 },
      { ruleSet: 'bonus', seats: 2, visibility: 'private' },
    ]) {
      let view = await client.create(a.token, input);
      if (input.seats === 2) view = await client.join(b.token, view.id, {});
      view = await client.start(a.token, view.id);
      for (let i = 0; i < 5 && view.status === 'playing'; i++)
        view = await client.move(tokenOf(view.currentPlayerId), view.id, chooseMove(view));
      expect(view.status).toBe('playing');
      running.push(view);
    }
    // an open game too: its seed is as secret
    running.push(await client.create(b.token, { ruleSet: 'penta', seats: 2 }));
    // and an ended one, whose seed is public (the positive control below)
    let done = await client.create(a.token, { ruleSet: 'simple', seats: 1 });
    done = await playToEnd(t, client, await client.start(a.token, done.id), tokenOf);
    expect(done.status).toBe('finished');

    const seeds = await Promise.all(running.map((v) => storedServerSeed(t, v.id)));
    for (const s of seeds) expect(s).toMatch(/^[0-9a-f]{64}$/);
    const { tables, texts } = await dumpEverything(poolOf(t));
    // every table of the schema was read, games and the transparency log included
    for (const name of [
      'games',
      'game_events',
      'game_seats',
      'players',
      'async_jobs',
      'transparency_log_leaves',
      'transparency_log_nodes',
      'transparency_tree_heads',
    ])
      expect(tables).toContain(`public.${name}`);
    expect(texts.length).toBeGreaterThan(100);
    const all = texts.join('\n');
    for (const [i, seed] of seeds.entries()) {
      for (const form of formsOf(seed)) {
        if (all.includes(form))
          throw new Error(`the seed of running game ${running[i].id} is readable at rest (${form})`);
      }
      // and the stored value is the sealed form, not the seed
      const { rows } = await poolOf(t).query('SELECT server_seed FROM games WHERE id = $1', [running[i].id]);
      expect(rows[0].server_seed).toMatch(/^enc:v1:/);
    }
    // positive control: the same search finds a seed where it is readable (the ended game's view)
    const revealed = done.serverSeed as string;
    expect(revealed).toBe(await storedServerSeed(t, done.id));
    expect(formsOf(revealed).some((f) => JSON.stringify(done).includes(f))).toBe(true);
  });
});
