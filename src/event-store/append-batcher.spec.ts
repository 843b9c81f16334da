import { AppendBatcher } from './append-batcher';
import type { AppendItem } from './append-statement';
import type { Queryable } from '../database/unit-of-work';

/**
 * The batcher's gathering rules, on a fake database that records each statement's games and
 * answers every game as written (or fails as told). The SQL itself is exercised by
 * test/database/group-commit.e2e-spec.ts.
 */
const item = (gameId: string, expected = 1): AppendItem => ({
  gameId,
  expected,
  version: expected + 1,
  status: 'playing',
  currentSeat: 0,
  currentPlayerId: null,
  standings: null,
  started: false,
  finished: false,
  deadlineSeconds: null,
  organizerSet: false,
  organizerSeed: null,
  ends: null,
  events: [],
  seats: [],
  jobs: [],
});

class FakeDb {
  readonly statements: string[][] = [];
  failNext: Array<Error & { code?: string }> = [];
  /** Games whose item fails with this error when written alone. */
  readonly poison = new Map<string, Error & { code?: string }>();
  private gate: Promise<void> | null = null;
  private open: (() => void) | null = null;

  hold(): void {
    this.gate = new Promise((r) => (this.open = r));
  }
  release(): void {
    this.open?.();
    this.gate = null;
  }

  // The statement comes as a query config (a named statement where the pool allows it).
  query = async (statement: { text: string; values?: unknown[] }) => {
    const params = statement.values ?? [];
    const input = JSON.parse(params[0] as string) as Array<{ item_no: number; game_id: string }>;
    const games = input.map((i) => i.game_id);
    this.statements.push(games);
    if (this.gate) await this.gate;
    const fail = this.failNext.shift();
    if (fail) throw fail;
    const poisoned = games.map((g) => this.poison.get(g)).find(Boolean);
    if (poisoned) throw poisoned;
    return {
      rows: input.map((i) => ({
        item_no: i.item_no,
        written: true,
        locked: true,
        recorded: false,
        updated_at: new Date(0),
        started_at: null,
        finished_at: null,
      })),
    };
  };
}

const pgError = (code: string) => Object.assign(new Error(`pg ${code}`), { code });

describe('AppendBatcher', () => {
  it('writes what gathered while it was paused in one statement, each game once', async () => {
    const db = new FakeDb();
    const sizes: number[] = [];
    const b = new AppendBatcher(db as unknown as Queryable, {
      windowMs: 0,
      maxBatch: 64,
      concurrency: 2,
      onBatch: (n) => sizes.push(n),
    });
    const release = b.pause();
    const done = Promise.all(['a', 'b', 'c', 'd'].map((g) => b.submit(item(g))));
    expect(b.pending).toBe(4);
    release();
    const outcomes = await done;
    expect(db.statements).toEqual([['a', 'b', 'c', 'd']]);
    expect(sizes).toEqual([4]);
    expect(outcomes.every((o) => o.written !== null)).toBe(true);
  });

  it('defers a second command for the same game to the next statement', async () => {
    const db = new FakeDb();
    const b = new AppendBatcher(db as unknown as Queryable, { windowMs: 0, maxBatch: 64, concurrency: 2 });
    const release = b.pause();
    const done = Promise.all([b.submit(item('a')), b.submit(item('a', 2)), b.submit(item('b'))]);
    release();
    await done;
    expect(db.statements).toEqual([['a', 'b'], ['a']]);
  });

  it('never writes a game in two statements at once, and gathers the next batch meanwhile', async () => {
    const db = new FakeDb();
    const b = new AppendBatcher(db as unknown as Queryable, { windowMs: 0, maxBatch: 64, concurrency: 2 });
    db.hold();
    const first = b.submit(item('a'));
    await new Promise((r) => setImmediate(r));
    expect(db.statements).toEqual([['a']]);
    // 'a' is being written: its next command waits; 'b' and 'c' go on the second writer.
    const rest = Promise.all([b.submit(item('a', 2)), b.submit(item('b')), b.submit(item('c'))]);
    await new Promise((r) => setImmediate(r));
    expect(db.statements).toEqual([['a'], ['b', 'c']]);
    db.release();
    await Promise.all([first, rest]);
    expect(db.statements).toEqual([['a'], ['b', 'c'], ['a']]);
  });

  it('caps a statement at maxBatch commands', async () => {
    const db = new FakeDb();
    const b = new AppendBatcher(db as unknown as Queryable, { windowMs: 0, maxBatch: 3, concurrency: 1 });
    const release = b.pause();
    const done = Promise.all(['a', 'b', 'c', 'd', 'e'].map((g) => b.submit(item(g))));
    release();
    await done;
    expect(db.statements).toEqual([
      ['a', 'b', 'c'],
      ['d', 'e'],
    ]);
  });

  it("a data error re-runs the batch item by item: only the faulty game's command fails", async () => {
    const db = new FakeDb();
    db.poison.set('b', pgError('23505'));
    const b = new AppendBatcher(db as unknown as Queryable, { windowMs: 0, maxBatch: 64, concurrency: 1 });
    const release = b.pause();
    const done = ['a', 'b', 'c'].map((g) =>
      b.submit(item(g)).then(
        () => 'ok',
        (e: { code?: string }) => e.code,
      ),
    );
    release();
    expect(await Promise.all(done)).toEqual(['ok', '23505', 'ok']);
    expect(db.statements).toEqual([['a', 'b', 'c'], ['a'], ['b'], ['c']]);
  });

  it('two items that touch one row twice (SQLSTATE 21000) are written one by one, both succeed', async () => {
    const db = new FakeDb();
    db.failNext.push(pgError('21000'));
    const b = new AppendBatcher(db as unknown as Queryable, { windowMs: 0, maxBatch: 64, concurrency: 1 });
    const release = b.pause();
    const done = ['a', 'b'].map((g) =>
      b.submit(item(g)).then(
        () => 'ok',
        (e: { code?: string }) => e.code,
      ),
    );
    release();
    expect(await Promise.all(done)).toEqual(['ok', 'ok']);
    expect(db.statements).toEqual([['a', 'b'], ['a'], ['b']]);
  });

  it('a connection error fails every command of the batch (no retry, nothing reported written)', async () => {
    const db = new FakeDb();
    db.failNext.push(pgError('57P01'));
    const b = new AppendBatcher(db as unknown as Queryable, { windowMs: 0, maxBatch: 64, concurrency: 1 });
    const release = b.pause();
    const done = ['a', 'b', 'c'].map((g) =>
      b.submit(item(g)).then(
        () => 'ok',
        (e: { code?: string }) => e.code,
      ),
    );
    release();
    expect(await Promise.all(done)).toEqual(['57P01', '57P01', '57P01']);
    expect(db.statements).toEqual([['a', 'b', 'c']]);
  });
});
