/**
 * Group commit (src/event-store/append-batcher.ts, decisions 0045–0046): moves of concurrent
 * clients to different games are written by one statement, each game's version checked on its own.
 *
 * The batcher is paused (its test hook) while the clients' requests reach it, so the tests know
 * which commands share a batch; the batch is observed as a user would: /metrics
 * (fairdice_event_append_batch_size), the responses, the stored events and NOTIFY.
 */
import { Client } from 'pg';
import { createTestApp, registerPlayer, type TestApp } from '../helpers/app';
import { poolOf } from '../helpers/games';
import { testDbKind } from '../helpers/database';
import { EventStore } from '../../src/event-store/event-store.service';
import { GAME_EVENTS_CHANNEL, toGameEvent } from '../../src/event-store/event-store.types';

jest.setTimeout(60_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sum of the samples of `name` whose labels include every pair of `labels` (Prometheus text). */
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

describe('group commit of appends', () => {
  let t: TestApp;
  let store: EventStore;
  let player: Awaited<ReturnType<typeof registerPlayer>>;

  beforeAll(async () => {
    // No background jobs: the job worker's own service moves (another file's games in this
    // worker's database) would join the batches these tests count.
    t = await createTestApp({ env: { JOBS_ENABLED: 'false' } });
    store = t.app.get(EventStore);
    player = await registerPlayer(t, 'Batched');
  });
  afterAll(() => t?.close());

  const scrape = async () => (await t.http().get('/metrics').expect(200)).text;
  /** Batches written (count) and commands in them (sum) between two scrapes. */
  const batches = (before: string, after: string) => ({
    count:
      sample(after, 'fairdice_event_append_batch_size_count') -
      sample(before, 'fairdice_event_append_batch_size_count'),
    commands:
      sample(after, 'fairdice_event_append_batch_size_sum') - sample(before, 'fairdice_event_append_batch_size_sum'),
  });

  async function startedGames(n: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const g = await t.http().post('/v1/games').set(player.auth).send({ ruleSet: 'penta', seats: 1 }).expect(201);
      await t.http().post(`/v1/games/${g.body.id}/start`).set(player.auth).send({}).expect(200);
      ids.push(g.body.id as string);
    }
    return ids;
  }

  /** Holds the batcher until `n` commands wait in it, runs `more`, then lets it write. */
  async function gathered<T>(n: number, send: () => Promise<T>, more?: () => Promise<void>): Promise<T> {
    const release = store.batcher!.pause();
    try {
      const sent = send();
      for (let i = 0; i < 1000 && store.batcher!.pending < n; i++) await sleep(10);
      expect(store.batcher!.pending).toBe(n);
      await more?.();
      release();
      return await sent;
    } finally {
      release();
    }
  }

  const versionOf = async (id: string) =>
    (await poolOf(t).query<{ version: number }>('SELECT version FROM games WHERE id = $1', [id])).rows[0].version;

  it('writes concurrent moves to many games in one statement, with one NOTIFY for all of them', async () => {
    const ids = await startedGames(8);
    const listener = testDbKind() === 'postgres' ? new Client({ connectionString: process.env.DATABASE_URL }) : null;
    const notes: string[] = [];
    if (listener) {
      await listener.connect();
      listener.on('notification', (n) => {
        if (n.channel === GAME_EVENTS_CHANNEL && n.payload && ids.some((id) => n.payload!.includes(id)))
          notes.push(n.payload);
      });
      await listener.query(`LISTEN ${GAME_EVENTS_CHANNEL}`);
    }
    try {
      const before = await scrape();
      const responses = await gathered(ids.length, () =>
        Promise.all(ids.map((id) => t.http().post(`/v1/games/${id}/roll`).set(player.auth).send({}))),
      );
      const after = await scrape();
      expect(responses.map((r) => r.status)).toEqual(ids.map(() => 200));
      expect(batches(before, after)).toEqual({ count: 1, commands: ids.length });
      // Each acknowledged move is stored: the game's version and its events are the response's.
      for (const [i, id] of ids.entries()) {
        const view = responses[i].body;
        expect(await versionOf(id)).toBe(view.version);
        const events = await store.readEvents(id, 0, 100);
        expect(events[events.length - 1].version).toBe(view.version);
        expect(events[events.length - 1].hash).toBe(view.chainHead);
      }
      if (listener) {
        for (let i = 0; i < 200 && notes.length === 0; i++) await sleep(10);
        await sleep(100); // a second notification for this batch would arrive with the first
        expect(notes).toHaveLength(1);
        const entries = notes[0].split(',').sort();
        expect(entries).toEqual(ids.map((id, i) => `${id}:${responses[i].body.version}`).sort());
      }
    } finally {
      await listener?.end();
    }
  });

  it('a game whose version moved on gets VERSION_CONFLICT; the other games of its batch are written', async () => {
    const [stale, ...others] = await startedGames(4);
    // A command decided on the state at version v ...
    const old = (await store.load(stale))!;
    // ... after another command took the game to v+1.
    await t.http().post(`/v1/games/${stale}/roll`).set(player.auth).send({}).expect(200);
    const moved = await versionOf(stale);
    const newer = (await store.readEvents(stale, old.state.version, 100)).map(toGameEvent);
    const update = {
      status: old.state.status,
      currentSeat: 0,
      currentPlayerId: player.id,
      standings: null,
      started: false,
      finished: false,
      seats: [],
    };
    const before = await scrape();
    let staleOutcome: unknown;
    const responses = await gathered(others.length + 1, async () => {
      const sent = Promise.all(others.map((id) => t.http().post(`/v1/games/${id}/roll`).set(player.auth).send({})));
      staleOutcome = await store.append(old, newer, update).catch((e: unknown) => e);
      return sent;
    });
    const after = await scrape();
    expect(responses.map((r) => r.status)).toEqual(others.map(() => 200));
    expect((staleOutcome as { code?: string }).code).toBe('VERSION_CONFLICT');
    expect(await versionOf(stale)).toBe(moved);
    expect((await store.readEvents(stale, 0, 1000)).length).toBe(moved);
    expect(batches(before, after)).toEqual({ count: 1, commands: others.length + 1 });
  });

  it('idempotent moves join the batch: outcomes stored with the events, retries replay them', async () => {
    const [a, b, c] = await startedGames(3);
    const key = (s: string) => `gc-${s}-${Date.now()}`;
    const requests = [
      { id: a, key: key('a') },
      { id: b, key: key('b') },
      { id: c, key: key('c1') },
      // Two commands for the same game, both decided at the same version: the second waits for the
      // next batch, whose version check makes it a VERSION_CONFLICT (stored as its outcome).
      { id: c, key: key('c2') },
    ];
    const send = (r: { id: string; key: string }) =>
      t.http().post(`/v1/games/${r.id}/roll`).set(player.auth).set('idempotency-key', r.key).send({});
    const before = await scrape();
    const first = await gathered(requests.length, () => Promise.all(requests.map(send)));
    const after = await scrape();
    // a, b and one command of c in the first batch; the other command of c alone in the next.
    expect(batches(before, after)).toEqual({ count: 2, commands: 4 });
    expect(first.slice(0, 2).map((r) => r.status)).toEqual([200, 200]);
    expect(
      first
        .slice(2)
        .map((r) => r.status)
        .sort(),
    ).toEqual([200, 409]);
    expect(first.find((r) => r.status === 409)!.body.code).toBe('VERSION_CONFLICT');
    expect(await versionOf(c)).toBe(first.find((r, i) => i >= 2 && r.status === 200)!.body.version);

    // Every outcome was stored with its batch: the retries replay them, writing nothing.
    const versions = await Promise.all([a, b, c].map(versionOf));
    const retried = await Promise.all(requests.map(send));
    for (const [i, r] of retried.entries()) {
      expect(r.status).toBe(first[i].status);
      expect(r.headers['idempotent-replayed']).toBe('true');
      // A replayed problem is the stored one with this request's own requestId.
      const { requestId: _r, ...body } = r.body as Record<string, unknown>;
      const { requestId: _f, ...firstBody } = first[i].body as Record<string, unknown>;
      expect(body).toEqual(firstBody);
    }
    expect(await Promise.all([a, b, c].map(versionOf))).toEqual(versions);
    const { rows } = await poolOf(t).query<{ key: string; status: string; response_status: number }>(
      'SELECT key, status, response_status FROM idempotency_records WHERE player_id = $1 AND key = ANY($2)',
      [player.id, requests.map((r) => r.key)],
    );
    expect(rows.map((r) => r.status)).toEqual(requests.map(() => 'done'));
    expect(rows.map((r) => r.response_status).sort()).toEqual([200, 200, 200, 409]);

    // The same key for a different request is refused, as without batching.
    const reused = await t
      .http()
      .post(`/v1/games/${a}/roll`)
      .set(player.auth)
      .set('idempotency-key', requests[0].key)
      .send({ hold: [0] });
    expect(reused.status).toBe(422);
    expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('two commands of one batch that schedule the same job are both written, the job once (the last one)', async () => {
    // As two games of a tournament round ending together, which both schedule the round's progress
    // job: one key twice in one INSERT … ON CONFLICT DO UPDATE failed the whole batch (SQLSTATE 21000).
    const ids = await startedGames(2);
    const key = `gc-shared:${ids[0]}`;
    const loaded = await Promise.all(ids.map(async (id) => (await store.load(id))!));
    const update = (n: number) => ({
      status: loaded[n].state.status,
      currentSeat: 0,
      currentPlayerId: player.id,
      standings: null,
      started: false,
      finished: false,
      seats: [],
      // A queue no worker serves: the row stays to be looked at.
      jobs: [{ queue: 'gc-test', key, payload: { from: ids[n] }, delayMs: 0 }],
    });
    const before = await scrape();
    const outcomes = await gathered(2, () =>
      Promise.all(
        loaded.map((l, n) =>
          store.append(l, [], update(n)).then(
            () => 'written',
            (e: { code?: string; message?: string }) => e.code ?? e.message,
          ),
        ),
      ),
    );
    const after = await scrape();
    expect(outcomes).toEqual(['written', 'written']);
    expect(batches(before, after)).toEqual({ count: 1, commands: 2 });
    const { rows } = await poolOf(t).query<{ payload: { from: string } }>(
      'SELECT payload FROM async_jobs WHERE key = $1',
      [key],
    );
    expect(rows).toEqual([{ payload: { from: ids[1] } }]);
    await poolOf(t).query('DELETE FROM async_jobs WHERE key = $1', [key]);
  });

  it("one game's unique violation does not fail the other games of its batch", async () => {
    const [bad, ...good] = await startedGames(3);
    const pool = poolOf(t);
    // A fault confined to one game: its events' insert raises unique_violation.
    await pool.query(`CREATE OR REPLACE FUNCTION gc_test_fault() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.game_id = '${bad}' THEN RAISE EXCEPTION 'injected' USING ERRCODE = 'unique_violation'; END IF;
        RETURN NEW;
      END $$`);
    await pool.query(
      `CREATE TRIGGER gc_test_fault BEFORE INSERT ON game_events FOR EACH ROW EXECUTE FUNCTION gc_test_fault()`,
    );
    try {
      const versions = await Promise.all([bad, ...good].map(versionOf));
      const responses = await gathered(3, () =>
        Promise.all([bad, ...good].map((id) => t.http().post(`/v1/games/${id}/roll`).set(player.auth).send({}))),
      );
      expect(responses[0].status).toBe(409);
      expect(responses[0].body.code).toBe('VERSION_CONFLICT');
      expect(responses.slice(1).map((r) => r.status)).toEqual([200, 200]);
      expect(await versionOf(bad)).toBe(versions[0]);
      for (const [i, id] of good.entries()) expect(await versionOf(id)).toBe(responses[i + 1].body.version);
    } finally {
      await pool.query('DROP TRIGGER IF EXISTS gc_test_fault ON game_events');
      await pool.query('DROP FUNCTION IF EXISTS gc_test_fault()');
    }
  });
});
