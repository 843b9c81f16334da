/**
 * Scaling out (issue 17): three instances (`node dist/src/main.js`) on one PostgreSQL, clients
 * spread across them, play whole games: every acknowledged command is in the log exactly once
 * (no lost or doubled moves) and a subscriber on one instance gets every move made through the
 * others. Run twice: with each instance on PostgreSQL directly, and with the commands going
 * through PgBouncer in transaction pooling mode while LISTEN and the migrations use a direct
 * session (DATABASE_DIRECT_URL), as large deployments run it.
 *
 * Needs a real PostgreSQL, `npm run build` and Debian's `pgbouncer` (`.ci/run` installs it).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Pool } from 'pg';
import { describeOnce } from '../helpers/suites';
import { eventsOf, waitFor } from './helpers';
import { api, freePort, type Instance, main, startInstance, subscribe } from './instances';

jest.setTimeout(120_000);

const onPostgres = process.env.FAIRDICE_TEST_DB === 'postgres';

interface PgBouncer {
  url: string;
  stop(): Promise<void>;
}

/** PgBouncer (transaction pooling) in front of `directUrl`'s server, in a temporary directory. */
async function startPgBouncer(directUrl: string): Promise<PgBouncer> {
  const binary = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((p) => existsSync(p));
  if (!binary) throw new Error('pgbouncer is not installed: apt-get install -y pgbouncer (.ci/run does it)');
  const direct = new URL(directUrl);
  const dir = mkdtempSync(join(tmpdir(), 'fairdice-pgbouncer-'));
  const port = await freePort();
  const ini = join(dir, 'pgbouncer.ini');
  writeFileSync(join(dir, 'users.txt'), `"${decodeURIComponent(direct.username)}" ""\n`);
  writeFileSync(
    ini,
    [
      '[databases]',
      `* = host=${direct.hostname} port=${direct.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'users.txt')}`,
      'pool_mode = transaction',
      'max_client_conn = 500',
      'default_pool_size = 12',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      'ignore_startup_parameters = extra_float_digits,options',
      '',
    ].join('\n'),
  );
  // PgBouncer refuses to run as root: run it as the postgres user then (as Debian's service does).
  let ids: { uid: number; gid: number } | undefined;
  if (process.getuid?.() === 0) {
    const [uid, gid] = ['-u', '-g'].map((f) => Number(execFileSync('id', [f, 'postgres'], { encoding: 'utf8' })));
    ids = { uid, gid };
    chmodSync(dir, 0o755);
    for (const f of ['pgbouncer.ini', 'users.txt']) chownSync(join(dir, f), uid, gid);
    chownSync(dir, uid, gid);
  }
  const output: string[] = [];
  const child: ChildProcess = spawn(binary, [ini], { ...ids, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (c) => output.push(String(c)));
  child.stderr?.on('data', (c) => output.push(String(c)));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const url = new URL(directUrl);
  url.port = String(port);
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`pgbouncer exited: ${output.join('')}`);
      const c = new Client({ connectionString: url.toString() });
      try {
        await c.connect();
        await c.query('SELECT 1');
        return true;
      } finally {
        await c.end().catch(() => undefined);
      }
    },
    15_000,
    'pgbouncer to accept connections',
    100,
  );
  return {
    url: url.toString(),
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Plays a 2-player penta game to the end, each request to the next instance in turn. */
async function playSpread(instances: Instance[], observer: Instance, label: string) {
  let n = 0;
  const next = () => instances[n++ % instances.length];
  const acknowledged: number[] = [];
  const call = async (method: string, path: string, token?: string, body?: unknown) => {
    const res = await api(next(), method, path, token, body);
    if (res && typeof res.version === 'number' && method !== 'GET' && path.startsWith('/v1/games'))
      acknowledged.push(res.version);
    return res;
  };
  const p1 = await api(next(), 'POST', '/v1/players', undefined, { displayName: `${label} 1` });
  const p2 = await api(next(), 'POST', '/v1/players', undefined, { displayName: `${label} 2` });
  const tokenOf: Record<string, string> = { [p1.player.id]: p1.token, [p2.player.id]: p2.token };
  let view = await call('POST', '/v1/games', p1.token, { ruleSet: 'penta', seats: 2 });
  await call('PUT', `/v1/games/${view.id}/seeds`, p1.token, { clientSeed: `${label.replace(/\s+/g, '-')}-one` });
  await call('POST', `/v1/games/${view.id}/join`, p2.token, { clientSeed: `${label.replace(/\s+/g, '-')}-two` });
  view = await call('POST', `/v1/games/${view.id}/start`, p1.token, {});
  const sub = subscribe(observer, view.id, view.version);
  try {
    while (view.status === 'playing') {
      const token = tokenOf[view.currentPlayerId as string];
      view = await call('POST', `/v1/games/${view.id}/roll`, token, {});
      const box = view.fiveDice.scoreOptions.boxes.find((b: { allowed: boolean }) => b.allowed).box as string;
      view = await call('POST', `/v1/games/${view.id}/score`, token, { box });
    }
    expect(view.status).toBe('finished');
    // The observer's stream got every version after the start, in order, once each.
    await waitFor(() => sub.events.at(-1)?.version === view.version, 10_000, `${label}: the stream to reach the end`);
    const versions = sub.events.map((e) => e.version);
    expect(versions).toEqual(Array.from({ length: view.version - versions[0] + 1 }, (_, i) => versions[0] + i));
  } finally {
    sub.close();
  }
  return { gameId: view.id as string, acknowledged, final: view.version as number };
}

(onPostgres ? describeOnce : describe.skip).each([
  ['directly', false],
  ['through PgBouncer (transaction pooling)', true],
])('three instances on one PostgreSQL, %s', (_label, pooled) => {
  const instances: Instance[] = [];
  let bouncer: PgBouncer | null = null;
  let pool: Pool;

  beforeAll(async () => {
    if (!existsSync(main))
      throw new Error('dist/ is missing: run `npm run build` first (npm test does it before jest)');
    const direct = process.env.DATABASE_URL as string;
    pool = new Pool({ connectionString: direct, max: 2 });
    if (pooled) bouncer = await startPgBouncer(direct);
    const env: Record<string, string> = bouncer
      ? { DATABASE_URL: bouncer.url, DATABASE_DIRECT_URL: direct, DATABASE_POOL_MAX: '4' }
      : { DATABASE_POOL_MAX: '4' };
    instances.push(...(await Promise.all(['A', 'B', 'C'].map((name) => startInstance(name, env)))));
  });
  afterAll(async () => {
    await Promise.all(instances.map((i) => i.stop()));
    await bouncer?.stop();
    await pool?.end();
  });

  it('plays three games at once with clients spread across the instances: no lost or doubled command', async () => {
    const games = await Promise.all(
      [0, 1, 2].map((g) => playSpread(instances, instances[g], `${pooled ? 'pooled' : 'direct'} game ${g}`)),
    );
    for (const { gameId, acknowledged, final } of games) {
      const events = await eventsOf(pool, gameId);
      // Versions 1..final with no gap, each command's batch ending at the version it acknowledged.
      expect(events.map((e) => e.version)).toEqual(Array.from({ length: final }, (_, i) => i + 1));
      const batchEnds = events
        .filter((e, i) => i + 1 === events.length || events[i + 1].command !== null)
        .map((e) => e.version);
      expect(batchEnds).toEqual(acknowledged);
    }
  });
});
