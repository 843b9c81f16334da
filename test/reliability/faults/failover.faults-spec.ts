/**
 * Fault test: the database tier of docs/operations.md, "High availability" (ha-cluster.ts: etcd,
 * Patroni with a primary and a synchronous standby, HAProxy routing to the primary), under moves
 * from 8 clients spread over two application instances.
 *
 * 1. The standby is lost: with `synchronous_mode` on and `synchronous_mode_strict` off, writes
 *    wait until Patroni stops requiring it, then go on; when it returns it catches up and is the
 *    synchronous standby again. Nothing acknowledged is lost.
 * 2. The primary is lost (SIGKILL to its Patroni and its postmaster, as when its machine dies),
 *    FAILOVERS times in a row: Patroni promotes the standby, HAProxy follows, the instances
 *    reconnect by themselves; the old primary, started again, rejoins as the synchronous standby.
 *
 * Clients behave as docs/operations.md says: a fresh Idempotency-Key per command, a 503 (or a
 * broken connection) retried with the same key. Checked at the end: every failure was a 503 with
 * Retry-After; every acknowledged move is stored exactly once and nothing else is; each game's
 * versions run 1..n; every finished game's audit bundle verifies (hash chain, dice, rules); the
 * transparency log's latest signed head is consistent with the one signed before the first
 * failover; a deadline set after the last failover fires; readiness was 503 while no primary was
 * reachable and 200 after. The unavailability windows are printed (first failed to first
 * successful command after the loss).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'pg';
import pino from 'pino';
import { verifyBundle } from '@fairdice/core/fairness/verifier';
import { fromHex, verifyConsistency, verifyTreeHeadSignature } from '@fairdice/core/fairness/transparency-log';
import { migrate } from '../../../src/database/migrate';
import { chooseMove } from '../../helpers/games';
import { createTestApp, type TestApp } from '../../helpers/app';
import { eventsOf, timeoutBatches, waitFor } from '../../async/helpers';
import { HaCluster, haToolsMissing } from './ha-cluster';

const CLIENTS = 8;
const FAILOVERS = Number(process.env.FAIRDICE_FAULTS_FAILOVERS ?? 5);
/** Acknowledged commands to wait for between faults (a signal that the load is flowing). */
const ACKS_BETWEEN_FAULTS = 40;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Reads a game's SSE stream as a client does: on a dropped connection it reconnects with
 * Last-Event-ID; it ends at the stream's end after `gameFinished`. Collects the versions (ids).
 */
function watchStream(base: string, gameId: string, token: string) {
  const versions: number[] = [];
  let reconnects = 0;
  let finished = false;
  const done = (async () => {
    while (!finished) {
      const last = versions.at(-1) ?? 0;
      await new Promise<void>((resolve) => {
        const req = http.get(
          `${base}/v1/games/${gameId}/stream?after=${last}`,
          { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } },
          (res) => {
            let buffer = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => {
              buffer += chunk;
              let i: number;
              while ((i = buffer.indexOf('\n\n')) >= 0) {
                const message = buffer.slice(0, i);
                buffer = buffer.slice(i + 2);
                const id = /^id: (\d+)$/m.exec(message)?.[1];
                if (id) versions.push(Number(id));
                if (/^event: (gameFinished|gameAbandoned)$/m.test(message)) finished = true;
              }
            });
            res.on('end', resolve);
            res.on('error', resolve);
          },
        );
        req.on('error', () => resolve());
      });
      if (!finished) {
        reconnects++;
        await sleep(200);
      }
    }
  })();
  return { versions, done, reconnects: () => reconnects };
}

interface Ack {
  gameId: string;
  key: string;
  version: number;
}

jest.setTimeout(900_000);

describe('high availability: Patroni, a synchronous standby and HAProxy, under load', () => {
  let cluster: HaCluster;
  const apps: TestApp[] = [];
  const bases: string[] = [];
  let pool: Pool;

  const statuses = new Map<number, number>();
  const failures: Array<{ status: number; code?: string; retryAfter: string | null; at: number }> = [];
  const acks: Ack[] = [];
  /** Each success: when its attempt was sent, and when it was answered. */
  const successes: Array<{ sentAt: number; at: number }> = [];
  let stopLoad = false;
  let tearingDown = false;
  let keySeq = 0;
  let load: Promise<void>;

  /** One logical request: retried with the same key on 503 / network errors until it gets a final answer. */
  async function send(
    base: string,
    token: string | null,
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: any; key: string }> {
    const key = `failover-${process.pid}-${++keySeq}`;
    for (;;) {
      let status: number;
      let json: any;
      let retryAfter: string | null = null;
      const sentAt = Date.now();
      try {
        const res = await fetch(base + path, {
          method,
          headers: {
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            'content-type': 'application/json',
            ...(method === 'POST' ? { 'idempotency-key': key } : {}),
          },
          body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
          signal: AbortSignal.timeout(30_000),
        });
        status = res.status;
        retryAfter = res.headers.get('retry-after');
        // Parsed here, not by fetch: objects made outside Jest's context fail the verifier's plain-object checks.
        const text = await res.text();
        try {
          json = JSON.parse(text);
        } catch {
          json = null;
        }
      } catch (err) {
        status = -1; // no answer at all: must not happen (the instances keep running)
        json = { code: String((err as Error).message) };
      }
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (status >= 200 && status < 300) {
        successes.push({ sentAt, at: Date.now() });
        return { status, body: json, key };
      }
      failures.push({ status, code: json?.code, retryAfter, at: Date.now() });
      // While the suite tears down, a 503 is final too (the cluster is going away: no retry without end).
      if (status !== 503 || tearingDown) return { status, body: json, key };
      await sleep(100 + Math.random() * 200);
    }
  }

  async function client(i: number): Promise<void> {
    // Each client alternates between the two instances, as behind a load balancer.
    const baseOf = (n: number) => bases[(i + n) % bases.length];
    let n = 0;
    const player = await send(baseOf(n++), null, 'POST', '/v1/players', { displayName: `Client ${i}` });
    if (player.status !== 201) throw new Error(`register: ${player.status} ${JSON.stringify(player.body)}`);
    const token = player.body.token as string;
    while (!stopLoad) {
      const created = await send(baseOf(n++), token, 'POST', '/v1/games', { ruleSet: 'penta', seats: 1 });
      if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
      const started = await send(baseOf(n++), token, 'POST', `/v1/games/${created.body.id}/start`);
      if (started.status !== 200) throw new Error(`start: ${started.status} ${JSON.stringify(started.body)}`);
      let view = started.body;
      acks.push({ gameId: view.id, key: started.key, version: view.version });
      while (!stopLoad && view.status === 'playing') {
        const move = chooseMove(view);
        const res = await send(baseOf(n++), token, 'POST', `/v1/games/${view.id}/${move.action}`, move.body);
        if (res.status !== 200) throw new Error(`${move.action}: ${res.status} ${JSON.stringify(res.body)}`);
        acks.push({ gameId: view.id, key: res.key, version: res.body.version });
        view = res.body;
      }
    }
  }

  /** Games followed over SSE on one instance while moved through the other, across the faults. */
  const watched: Array<{ gameId: string; finalVersion: number; versions: number[]; reconnects: number }> = [];
  async function watcher(): Promise<void> {
    const player = await send(bases[1], null, 'POST', '/v1/players', { displayName: 'Watcher' });
    const token = player.body.token as string;
    while (!stopLoad) {
      const created = await send(bases[1], token, 'POST', '/v1/games', { ruleSet: 'penta', seats: 1 });
      const stream = watchStream(bases[0], created.body.id, token);
      const started = await send(bases[1], token, 'POST', `/v1/games/${created.body.id}/start`);
      let view = started.body;
      acks.push({ gameId: view.id, key: started.key, version: view.version });
      // Paced, so that one game spans a fault.
      while (view.status === 'playing') {
        await sleep(100);
        const move = chooseMove(view);
        const res = await send(bases[1], token, 'POST', `/v1/games/${view.id}/${move.action}`, move.body);
        if (res.status !== 200) throw new Error(`watcher ${move.action}: ${res.status} ${JSON.stringify(res.body)}`);
        acks.push({ gameId: view.id, key: res.key, version: res.body.version });
        view = res.body;
      }
      await Promise.race([stream.done, sleep(60_000)]);
      watched.push({
        gameId: view.id,
        finalVersion: view.version,
        versions: [...stream.versions],
        reconnects: stream.reconnects(),
      });
    }
  }

  const moreAcks = (n: number) => {
    const target = acks.length + n;
    return waitFor(() => acks.length >= target, 120_000, `${n} more acknowledged commands`);
  };
  const readiness = async (base: string) =>
    (await fetch(base + '/health/ready', { signal: AbortSignal.timeout(10_000) }).catch(() => null))?.status ?? -1;

  /**
   * First failed command at or after `since`, then the first success of an attempt sent after it:
   * the window, in ms. (An attempt sent before the first failure may be answered after it, from the
   * old primary's last commits; it says nothing of when the service came back.)
   */
  function unavailability(since: number): number | null {
    const firstFailure = failures.filter((f) => f.at >= since).sort((a, b) => a.at - b.at)[0];
    if (!firstFailure) return null;
    const firstSuccess = successes
      .filter((s) => s.sentAt > firstFailure.at)
      .map((s) => s.at)
      .sort((a, b) => a - b)[0];
    return firstSuccess - firstFailure.at;
  }

  beforeAll(async () => {
    const missing = haToolsMissing();
    if (missing) throw new Error(`the failover suite needs etcd, Patroni and HAProxy: ${missing}`);
    cluster = await HaCluster.create();
    const admin = new Pool({ connectionString: cluster.url(), max: 1 });
    await admin.query('CREATE DATABASE fairdice');
    await admin.end();
    const url = cluster.url('fairdice');
    await migrate(url);
    for (let i = 0; i < 2; i++) {
      const t = await createTestApp({
        listen: true,
        databaseUrl: url,
        env: { DATABASE_CONNECT_TIMEOUT_MS: '1000' },
        // Errors go to the cluster's directory (kept with FAIRDICE_FAULTS_KEEP_HA=1), not the output.
        logger: pino({ level: 'error' }, pino.destination({ dest: `${cluster.root}/app-${i}.log`, sync: true })),
      });
      apps.push(t);
      bases.push(`http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`);
    }
    pool = new Pool({ connectionString: url, max: 2, connectionTimeoutMillis: 2000 });
    pool.on('error', () => undefined);
    pool.on('connect', (c) => c.on('error', () => undefined));
    load = Promise.all([...Array.from({ length: CLIENTS }, (_, i) => client(i)), watcher()]).then(() => undefined);
    // A failing client must fail the test at once, not when the load is awaited.
    load.catch(() => undefined);
    await moreAcks(ACKS_BETWEEN_FAULTS);
  });

  afterAll(async () => {
    stopLoad = true;
    tearingDown = true;
    await load?.catch(() => undefined);
    await pool?.end().catch(() => undefined);
    for (const t of apps) await t.close().catch(() => undefined);
    cluster?.destroy();
  });

  it('the synchronous standby is lost: writes go on after Patroni drops it, and it rejoins', async () => {
    const members = await cluster.members();
    const standby = members.find((m) => m.role === 'sync_standby')!.name;
    const lostAt = Date.now();
    cluster.killNode(standby);
    // Documented behaviour (non-strict synchronous mode): writes continue without the standby.
    await moreAcks(ACKS_BETWEEN_FAULTS);
    const window = unavailability(lostAt);
    // Readiness reports the pool waits of the last seconds (commits held until Patroni dropped the
    // standby): it may say 503 for a moment after the writes resumed, then 200.
    expect(await waitFor(async () => ((await readiness(bases[0])) === 200 ? 200 : 0), 30_000, 'ready again')).toBe(200);
    cluster.startNode(standby);
    await cluster.waitForSyncStandby();
    await moreAcks(ACKS_BETWEEN_FAULTS);
    console.log(
      `[failover] standby ${standby} lost: writes went on (first failure to next success: ${window ?? 'no failure'} ms); it rejoined as the synchronous standby`,
    );
  });

  it(`the primary is lost ${FAILOVERS} times: 0 acknowledged moves lost, 0 applied twice`, async () => {
    const headBefore = (await send(bases[0], null, 'GET', '/v1/transparency/tree-head')).body;
    const windows: number[] = [];
    const readyDuring: number[] = [];
    for (let i = 0; i < FAILOVERS; i++) {
      const old = (await cluster.leader())!;
      const failed503Before = failures.length;
      const lostAt = Date.now();
      cluster.killNode(old);
      // Readiness says 503 while no primary is reachable...
      readyDuring.push(await waitFor(async () => ((await readiness(bases[i % 2])) === 503 ? 503 : 0), 30_000, '503'));
      const promoted = await cluster.waitForLeader(old);
      await cluster.waitForPrimaryReachable();
      await moreAcks(ACKS_BETWEEN_FAULTS);
      // ...and 200 again once the new one is.
      await waitFor(async () => (await readiness(bases[i % 2])) === 200, 30_000, 'readiness 200 after the failover');
      const window = unavailability(lostAt);
      if (window !== null) windows.push(window);
      // The old primary, started again, is rewound and rejoins as the synchronous standby.
      cluster.startNode(old);
      await cluster.waitForSyncStandby();
      const rejoined = (await cluster.members()).find((m) => m.name === old);
      expect(rejoined?.role).toBe('sync_standby');
      console.log(
        `[failover] ${i + 1}/${FAILOVERS}: ${old} lost, ${promoted} promoted; unavailable ${window ?? 0} ms; ` +
          `${failures.length - failed503Before} failed attempts; ${old} rejoined as sync standby`,
      );
    }
    // Jobs still fire on the new primary: a deadline set now times the turn out.
    const ada = (await send(bases[0], null, 'POST', '/v1/players', { displayName: 'Ada' })).body;
    const bob = (await send(bases[1], null, 'POST', '/v1/players', { displayName: 'Bob' })).body;
    const game = (
      await send(bases[0], ada.token, 'POST', '/v1/games', { ruleSet: 'penta', seats: 2, turnTimeLimitSeconds: 2 })
    ).body;
    await send(bases[1], bob.token, 'POST', `/v1/games/${game.id}/join`);
    await send(bases[0], ada.token, 'POST', `/v1/games/${game.id}/start`);
    await waitFor(async () => timeoutBatches(await eventsOf(pool, game.id)).length >= 1, 30_000, 'a timed-out turn');

    stopLoad = true;
    await load;

    const sorted = [...windows].sort((a, b) => a - b);
    const failed503 = failures.filter((f) => f.status === 503).length;
    console.log(
      `[failover] ${FAILOVERS} failovers, clients=${CLIENTS}, acknowledged=${acks.length}, responses=${JSON.stringify(Object.fromEntries(statuses))}; ` +
        `unavailability ms min ${sorted[0]} / median ${sorted[Math.floor(sorted.length / 2)]} / max ${sorted[sorted.length - 1]}; 503s=${failed503}`,
    );
    expect(readyDuring.every((s) => s === 503)).toBe(true);
    expect(failures.filter((f) => f.status !== 503)).toEqual([]);
    expect(failures.every((f) => f.code === 'DATABASE_UNAVAILABLE' && f.retryAfter !== null)).toBe(true);

    // --- every acknowledged command stored exactly once, nothing else stored, no gaps
    const gameIds = [...new Set(acks.map((a) => a.gameId))];
    const { rows } = await pool.query<{ game_id: string; version: number; command: string | null }>(
      `SELECT game_id, version, payload->'command'->>'type' AS command FROM game_events WHERE game_id = ANY($1::uuid[]) ORDER BY game_id, version`,
      [gameIds],
    );
    for (const gameId of gameIds) {
      const events = rows.filter((r) => r.game_id === gameId);
      expect(events.map((e) => e.version)).toEqual(events.map((_, i) => i + 1));
      const mine = acks.filter((a) => a.gameId === gameId);
      expect(events.filter((e) => e.command !== null).length).toBe(mine.length + 1); // + the creation
      const versions = mine.map((a) => a.version);
      expect(new Set(versions).size).toBe(versions.length);
      expect(Math.max(...versions)).toBe(events.length);
    }
    const keys = acks.map((a) => a.key);
    const stored = await pool.query<{ key: string }>(`SELECT key FROM idempotency_records WHERE key = ANY($1)`, [keys]);
    expect(stored.rows).toHaveLength(keys.length);

    // --- push streams carried on: every watched game's stream gave each version once, in order
    expect(watched.length).toBeGreaterThan(0);
    for (const w of watched) {
      expect({ gameId: w.gameId, versions: w.versions }).toEqual({
        gameId: w.gameId,
        versions: Array.from({ length: w.finalVersion }, (_, i) => i + 1),
      });
    }
    console.log(
      `[failover] ${watched.length} games followed over SSE on the other instance: every event delivered once, in order; stream reconnects ${watched.reduce((n, w) => n + w.reconnects, 0)}`,
    );

    // --- every finished game's audit bundle verifies: hash chain, dice, rules
    const finished = await pool.query<{ id: string }>(
      `SELECT id FROM games WHERE id = ANY($1::uuid[]) AND status = 'finished'`,
      [gameIds],
    );
    expect(finished.rows.length).toBeGreaterThan(0);
    for (const { id } of finished.rows) {
      const bundle = (await send(bases[0], null, 'GET', `/v1/games/${id}/audit`)).body;
      const report = verifyBundle(bundle);
      expect({ id, ok: report.ok, failure: report.failure }).toEqual({ id, ok: true, failure: null });
    }

    // --- the transparency log signed after the failovers extends the one signed before
    const headAfter = await waitFor(
      async () => {
        const head = (await send(bases[1], null, 'GET', '/v1/transparency/tree-head')).body;
        return head.treeSize > headBefore.treeSize ? head : null;
      },
      30_000,
      'a tree head signed after the failovers',
    );
    expect(verifyTreeHeadSignature(headAfter, headAfter.publicKey)).toBe(true);
    const proof = (
      await send(
        bases[1],
        null,
        'GET',
        `/v1/transparency/consistency?first=${headBefore.treeSize}&second=${headAfter.treeSize}`,
      )
    ).body;
    expect(proof.firstRootHash).toBe(headBefore.rootHash);
    expect(
      verifyConsistency(
        headBefore.treeSize,
        headAfter.treeSize,
        fromHex(headBefore.rootHash),
        fromHex(headAfter.rootHash),
        proof.proof.map(fromHex),
      ),
    ).toBe(true);
  });
});
