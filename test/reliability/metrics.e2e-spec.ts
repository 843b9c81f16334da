/**
 * /metrics (Prometheus text format): scraped like Prometheus would, before and after commands;
 * the counters must move with what the clients did.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Pool } from 'pg';
import { PG_POOL } from '../../src/database/pg-pool';
import { createTestApp, registerPlayer, type TestApp } from '../helpers/app';
import { MetricsListener } from '../../src/metrics/metrics.module';

/** Sum of the samples of `name` whose labels include every pair of `labels`. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) sum += Number(m[3]);
  }
  return sum;
}

// Apps start slowly on a loaded CI machine (embedded database included).
jest.setTimeout(60_000);
describe('metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  const scrape = async () => {
    const res = await t.http().get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.text;
  };

  it('counts commands by type and outcome, request latency by route, appends, and reports pool, jobs and event loop', async () => {
    const before = await scrape();
    const p = await registerPlayer(t, 'Metered');
    const game = await t.http().post('/v1/games').set(p.auth).send({ ruleSet: 'penta', seats: 1 }).expect(201);
    await t.http().post(`/v1/games/${game.body.id}/start`).set(p.auth).send({}).expect(200);
    const key = `metrics-${game.body.id}`;
    await t.http().post(`/v1/games/${game.body.id}/roll`).set(p.auth).set('idempotency-key', key).send({}).expect(200);
    await t.http().post(`/v1/games/${game.body.id}/roll`).set(p.auth).set('idempotency-key', key).send({}).expect(200);
    // Joining a solo game that has started is refused with a coded error.
    const refused = await t.http().post(`/v1/games/${game.body.id}/join`).set(p.auth).send({});
    expect(refused.status).toBeGreaterThanOrEqual(400);
    const after = await scrape();

    const delta = (name: string, labels: Record<string, string> = {}) =>
      sample(after, name, labels) - sample(before, name, labels);
    expect(delta('fairdice_commands_total', { type: 'create', outcome: 'ok' })).toBe(1);
    expect(delta('fairdice_commands_total', { type: 'start', outcome: 'ok' })).toBe(1);
    expect(delta('fairdice_commands_total', { type: 'roll', outcome: 'ok' })).toBe(1);
    expect(delta('fairdice_commands_total', { type: 'roll', outcome: 'replayed' })).toBe(1);
    expect(delta('fairdice_commands_total', { type: 'join', outcome: refused.body.code })).toBe(1);
    // create + start + roll wrote; the replay and the refusal did not.
    expect(delta('fairdice_event_append_duration_seconds_count')).toBeGreaterThanOrEqual(3);
    expect(delta('fairdice_event_append_batch_size_count')).toBeGreaterThanOrEqual(3);
    expect(delta('fairdice_events_appended_total')).toBeGreaterThanOrEqual(3);
    expect(delta('fairdice_http_request_duration_seconds_count', { route: '/v1/games/:id/roll', status: '200' })).toBe(
      2,
    );
    expect(delta('fairdice_http_request_duration_seconds_count', { route: '/v1/games', method: 'POST' })).toBe(1);
    expect(after).toMatch(/^fairdice_db_pool_connections\{state="idle"\} \d+/m);
    expect(after).toMatch(/^# TYPE fairdice_job_queue_lag_seconds gauge/m);
    expect(after).toMatch(/^nodejs_eventloop_lag_p99_seconds \S+/m);
    expect(after).toMatch(/^process_resident_memory_bytes \S+/m);
  });

  it('every series the Grafana dashboard and docs/operations.md name is exposed', async () => {
    const text = await scrape();
    const exposed = new Set([...text.matchAll(/^# TYPE (\S+) (\w+)/gm)].map((m) => m[1]));
    const base = (name: string) => name.replace(/_(bucket|sum|count)$/, '');
    const dashboard = readFileSync(join(__dirname, '../../docs/grafana/fairdice.json'), 'utf8');
    const operations = readFileSync(join(__dirname, '../../docs/operations.md'), 'utf8');
    const named = new Set(
      [...`${dashboard}\n${operations}`.matchAll(/\b(fairdice_[a-z_]+|nodejs_eventloop_lag_p99_seconds)\b/g)]
        .map((m) => base(m[1]))
        .filter((n) => !n.startsWith('fairdice_test')),
    );
    // Series documented as existing only with DATABASE_READ_URL (a standby to read from) are checked
    // by the read-standby faults suite, which has one; here they must be absent.
    const onlyWithStandby = new Set(
      [...operations.matchAll(/^\| `(fairdice_[a-z_]+)` \|[^\n]*Only with `DATABASE_READ_URL`/gm)].map((m) => m[1]),
    );
    expect(onlyWithStandby.size).toBe(3);
    expect(named.size).toBeGreaterThanOrEqual(12);
    for (const name of named)
      expect([name, exposed.has(name)]).toEqual([name, !onlyWithStandby.has(name) || !!process.env.DATABASE_READ_URL]);
  });

  it('job queue gauges show a due job per queue', async () => {
    const pool = t.app.get<Pool>(PG_POOL);
    const queue = `metrics-probe-${process.pid}`;
    await pool.query(
      `INSERT INTO async_jobs (queue, key, payload, run_at) VALUES ($1, $2, '{}'::jsonb, now() - interval '30 seconds')`,
      [queue, `${queue}-1`],
    );
    try {
      const text = await scrape();
      expect(sample(text, 'fairdice_job_queue_depth', { queue })).toBe(1);
      expect(sample(text, 'fairdice_job_queue_due', { queue })).toBe(1);
      expect(sample(text, 'fairdice_job_queue_lag_seconds', { queue })).toBeGreaterThanOrEqual(29);
    } finally {
      await pool.query('DELETE FROM async_jobs WHERE queue = $1', [queue]);
    }
  });
});

describe('metrics configuration', () => {
  it('METRICS_PORT moves /metrics off the public port to its own listener', async () => {
    const t = await createTestApp({ env: { METRICS_PORT: '0' } });
    try {
      await t.http().get('/metrics').expect(404);
      const port = t.app.get(MetricsListener).port();
      expect(port).toBeGreaterThan(0);
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toMatch(/^# HELP fairdice_commands_total /m);
      expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('METRICS_ENABLED=false serves no metrics', async () => {
    const t = await createTestApp({ env: { METRICS_ENABLED: 'false' } });
    try {
      await t.http().get('/metrics').expect(404);
    } finally {
      await t.close();
    }
  });
});
