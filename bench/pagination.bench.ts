/**
 * Keyset (cursor) versus offset paging of a long games list (decision 0025), through the event
 * store's own list queries: one player seated in N games (open, public), paged 100 at a time.
 * Reports the time of the deepest page and of a whole pass in both forms, and their ratios.
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/pagination.bench.js [--games 20000] [--without-index]
 *
 * DATABASE_URL names the PostgreSQL server (default postgresql://postgres@127.0.0.1:5432/postgres);
 * a fresh fairdice_bench_<ts>_<pid> database is created, migrated and dropped.
 */
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { EventStore } from '../src/event-store/event-store.service';
import type { SeedVault } from '../src/keys/seed-vault';
import type { GameSummaryRow } from '../src/event-store/event-store.types';
import { createBenchDatabase, DEFAULT_DATABASE_URL } from './db';

const PAGE = 100;

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
  const start = process.hrtime.bigint();
  const value = await f();
  return [value, Number(process.hrtime.bigint() - start) / 1e6];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const games = arg('games', 20_000);
  const db = await createBenchDatabase(process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, () => undefined);
  const pool = new Pool({ connectionString: db.url, max: 2 });
  try {
    const player = randomUUID();
    await pool.query(`INSERT INTO players (id, display_name, token_hash, updated_at) VALUES ($1, 'Bench', $2, now())`, [
      player,
      randomUUID(),
    ]);
    // N open public games, one per millisecond, the player in seat 0 of each.
    await pool.query(
      `WITH g AS (
         INSERT INTO games (id, rule_set, family, options, seat_count, visibility, creator_id, status, server_seed,
                            server_seed_hash, created_at, updated_at)
         SELECT gen_random_uuid(), 'simple', 'five-dice', '{}', 2, 'public', $1, 'open', 'x', 'x',
                timestamptz '2026-01-01' + n * interval '1 millisecond', now()
           FROM generate_series(1, $2) AS n
         RETURNING id)
       INSERT INTO game_seats (game_id, seat, player_id) SELECT id, 0, $1 FROM g`,
      [player, games],
    );
    // --without-index: as before migration 20261206000000_list_keyset_indexes (every page sorts).
    if (process.argv.includes('--without-index')) await pool.query('DROP INDEX games_created_at_id_idx');
    await pool.query('ANALYZE');
    // Only the list queries are used: they read nothing else of the store.
    const store = new EventStore(pool, null as unknown as SeedVault);

    const byOffset = (offset: number) => store.listMine(player, PAGE + 1, { offset });
    const byCursor = (last: GameSummaryRow) =>
      store.listMine(player, PAGE + 1, { after: { createdMicros: last.createdMicros, id: last.id } });

    // A whole pass in each form.
    const [seenOffset, offsetPass] = await timed(async () => {
      let n = 0;
      for (let offset = 0; ; offset += PAGE) {
        const rows = await byOffset(offset);
        n += Math.min(rows.length, PAGE);
        if (rows.length <= PAGE) return n;
      }
    });
    const [seenCursor, cursorPass] = await timed(async () => {
      let rows = await byOffset(0);
      let n = Math.min(rows.length, PAGE);
      while (rows.length > PAGE) {
        rows = await byCursor(rows[PAGE - 1]);
        n += Math.min(rows.length, PAGE);
      }
      return n;
    });
    if (seenOffset !== games || seenCursor !== games) throw new Error(`saw ${seenOffset} / ${seenCursor} of ${games}`);

    // The deepest page, 15 times each (median).
    const deepOffset = games - PAGE;
    const [before] = await byOffset(deepOffset - 1);
    const offsetTimes: number[] = [];
    const cursorTimes: number[] = [];
    for (let i = 0; i < 15; i++) {
      offsetTimes.push((await timed(() => byOffset(deepOffset)))[1]);
      cursorTimes.push((await timed(() => byCursor(before)))[1]);
    }
    const deepO = median(offsetTimes);
    const deepC = median(cursorTimes);
    const lines = [
      `games list of one player: ${games} games, pages of ${PAGE}${process.argv.includes('--without-index') ? ', without games_created_at_id_idx' : ''} (PostgreSQL ${db.serverVersion.split(' ')[0]})`,
      `| measure | offset (deprecated) | cursor (keyset) | offset ÷ cursor |`,
      `|---|---:|---:|---:|`,
      `| deepest page (median of 15), ms | ${deepO.toFixed(1)} | ${deepC.toFixed(1)} | ${(deepO / deepC).toFixed(1)} |`,
      `| whole pass (${games / PAGE} pages), ms | ${offsetPass.toFixed(0)} | ${cursorPass.toFixed(0)} | ${(offsetPass / cursorPass).toFixed(1)} |`,
    ];
    console.log(lines.join('\n'));
  } finally {
    await pool.end();
    await db.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
