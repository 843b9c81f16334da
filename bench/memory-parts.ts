/**
 * What each part of a fresh server holds (issue 29 item 3, decisions 0140 and 0162): the app is
 * built in this process step by step, and after each step a full GC (--expose-gc) and
 * process.memoryUsage() give what the step added: the code of Nest, Fastify, Apollo and Swagger,
 * the app built and initialized (GraphQL schema, routes), the advice tables as the default start
 * loads them (from the disk cache; solved first when it is empty), and the advice worker threads.
 *   npm run build && node --expose-gc dist/bench/memory-parts.js
 *   IDLE_WAIT_MS=3000 ADVICE_CACHE_DIR=./data/advice node --expose-gc dist/bench/memory-parts.js   # cached tables, then the workers' idle stop
 *   PRISMA_CLIENT=1 …                  # first a Prisma client and its queries, as the service had before decision 0162
 *   PRISMA_CLIENT=1 NODE_OPTIONS=--liftoff-only …   # … with its WebAssembly at the baseline tier only (decision 0140)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBenchDatabase, DEFAULT_DATABASE_URL } from './db';
import { generateVapidKeys } from '../src/keys/service-keys';
import { applyRuntimeFlags } from '../src/runtime-flags';

// As main.ts does.
applyRuntimeFlags();

interface Mark {
  step: string;
  rss: number;
  heapUsed: number;
  external: number;
}

const MiB = 1024 * 1024;
const marks: Mark[] = [];

function mark(step: string): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  gc();
  gc();
  const m = process.memoryUsage();
  marks.push({ step, rss: m.rss, heapUsed: m.heapUsed, external: m.external });
}

async function main() {
  const adminUrl = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const db = await createBenchDatabase(adminUrl, () => undefined);
  const keepAlive = setInterval(() => undefined, 1000);
  try {
    mark('node, bench helpers and pg');
    if (process.env.PRISMA_CLIENT === '1') {
      // What a Prisma client would add: the service loaded one until decision 0162.
      const { PrismaClient } = await import('../src/generated/prisma/client.js');
      const { PrismaPg } = await import('@prisma/adapter-pg');
      const { Pool } = await import('pg');
      const pool = new Pool({ connectionString: db.url, max: 2 });
      const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
      await prisma.$connect();
      mark('Prisma client constructed');
      await prisma.player.findFirst();
      mark("Prisma's first query (query compiler WebAssembly loaded)");
      for (let i = 0; i < 50; i++)
        await prisma.game.findFirst({ where: { id: '00000000-0000-4000-8000-000000000000' } });
      mark('Prisma after 50 more queries');
      await prisma.$disconnect();
      await pool.end();
    }

    const { loadConfig } = await import('../src/config/config.js');
    const { createApp } = await import('../src/app.factory.js');
    mark('code of the app loaded (Nest, Fastify, Apollo, Swagger, pino, …)');
    const vapid = generateVapidKeys();
    const config = loadConfig({
      NODE_ENV: 'production',
      DATABASE_URL: db.url,
      LOG_LEVEL: 'silent',
      LOG_SIGNING_KEY: randomBytes(32).toString('hex'),
      SEED_ENCRYPTION_KEYS: `bench:${randomBytes(32).toString('hex')}`,
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      ADVICE_CACHE_DIR: process.env.ADVICE_CACHE_DIR ?? mkdtempSync(join(tmpdir(), 'fairdice-memory-')),
      ...(process.env.ADVICE_WARM_PRESETS ? { ADVICE_WARM_PRESETS: process.env.ADVICE_WARM_PRESETS } : {}),
    });
    const app = await createApp({ config, databaseUrl: db.url, poolMax: 10 });
    mark('app built (modules, routes, GraphQL schema, OpenAPI document)');
    await app.init();
    await app.listen({ port: 0, host: '127.0.0.1' });
    mark('app initialized and listening (a fresh server)');
    const { AdviceTablesService, PRESET_TABLE_OPTIONS, FARKLE_PRESET_OPTIONS } =
      await import('../src/advice/advice-tables.service.js');
    const tables = app.get(AdviceTablesService);
    await Promise.all([
      ...PRESET_TABLE_OPTIONS.map((o) => tables.whenReady(o)),
      tables.whenReady(FARKLE_PRESET_OPTIONS, 'farkle'),
    ]);
    mark('advice tables ready (presets and Farkle, as the default start)');
    // Idle workers are let go after ADVICE_WORKER_IDLE_MS; wait for that (if the service does).
    await new Promise((r) => setTimeout(r, Number(process.env.IDLE_WAIT_MS ?? 0)));
    mark(`after ${process.env.IDLE_WAIT_MS ?? 0} ms idle`);
    await app.close();
  } finally {
    clearInterval(keepAlive);
    await db.drop();
  }
  const rows = marks.map((m, i) => {
    const prev = marks[i - 1];
    const d = (k: keyof Omit<Mark, 'step'>) => (prev ? ((m[k] - prev[k]) / MiB).toFixed(1) : '–');
    return `| ${m.step} | ${(m.rss / MiB).toFixed(1)} | ${d('rss')} | ${(m.heapUsed / MiB).toFixed(1)} | ${d('heapUsed')} | ${(m.external / MiB).toFixed(1)} | ${d('external')} |`;
  });
  console.log(
    [
      '| step | RSS MiB | Δ RSS | heap used MiB | Δ heap | external MiB | Δ external |',
      '|---|---:|---:|---:|---:|---:|---:|',
      ...rows,
    ].join('\n'),
  );
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
