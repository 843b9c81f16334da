/**
 * The one command handler on an aggregate of its own (a counter), so that what it promises every
 * aggregate is seen without games or tournaments: the steps in order, nothing appended on a
 * refusal, one fresh retry of a stale cache, no retry of a version conflict, and service moves
 * applied only at their version.
 */
import { DomainException } from '../common/errors';
import type { IdempotencyService } from '../reliability';
import { CommandHandler, type CommandTarget } from './command-handler';

interface Counter {
  id: string;
  version: number;
  value: number;
  members: string[];
  cached: boolean;
}
type Add = { by: number };
type Added = { by: number };

/** An in-memory store of counters; `stale` makes the next cached load one version behind. */
function counters() {
  const stored: Counter = { id: 'c1', version: 3, value: 10, members: ['ann'], cached: false };
  const appended: Added[][] = [];
  const published: number[] = [];
  const log: string[] = [];
  let stale = false;
  const target: CommandTarget<Counter, Add, Added, Counter> = {
    kind: 'game',
    load(id, fresh) {
      log.push(fresh ? 'load fresh' : 'load cached');
      if (id !== stored.id) return Promise.resolve(null);
      if (!fresh && stale) return Promise.resolve({ ...stored, version: stored.version - 1, cached: true });
      return Promise.resolve({ ...stored, cached: !fresh });
    },
    fromCache: (c) => c.cached,
    forget: () => {
      log.push('forget');
      stale = false;
    },
    version: (c) => c.version,
    notFound: () => new DomainException('GAME_NOT_FOUND', 'No such counter'),
    authorize(c, actor) {
      log.push('authorize');
      if (!c.members.includes(actor.id)) throw new DomainException('NOT_SEATED', 'not a member');
    },
    decide(c, command) {
      log.push('decide');
      if (command.by <= 0) throw new DomainException('INVALID_COMMAND', 'add a positive number');
      return [{ by: command.by }];
    },
    append(c, events) {
      log.push('append');
      if (c.version !== stored.version)
        return Promise.reject(new DomainException('VERSION_CONFLICT', 'the counter moved on'));
      appended.push([...events]);
      stored.version += events.length;
      stored.value += events.reduce((n, e) => n + e.by, 0);
      return Promise.resolve({ ...stored });
    },
    publish(_id, c) {
      log.push('publish');
      published.push(c.version);
    },
  };
  return { stored, appended, published, log, target, makeStale: () => (stale = true) };
}

const noIdempotency = { run: (_r: unknown, work: () => Promise<unknown>) => work() } as unknown as IdempotencyService;
const handler = new CommandHandler(noIdempotency);
const add = (by: number, actor = 'ann', ifMatch?: number[]) => ({
  operation: 'add',
  id: 'c1',
  args: { by },
  actor: { id: actor },
  opts: ifMatch ? { ifMatch } : {},
  build: () => ({ by }),
  respond: (c: Counter) => c.value,
});

describe('CommandHandler', () => {
  it('loads, authorizes, decides, appends at the expected version, publishes, answers', async () => {
    const c = counters();
    await expect(handler.run(c.target, add(5))).resolves.toBe(15);
    expect(c.log).toEqual(['load cached', 'authorize', 'decide', 'append', 'publish']);
    expect(c.published).toEqual([4]);
  });

  it('stores nothing and publishes nothing when the actor is refused, the rules refuse, or If-Match names another version', async () => {
    const c = counters();
    await expect(handler.run(c.target, add(5, 'bob'))).rejects.toMatchObject({ code: 'NOT_SEATED' });
    await expect(handler.run(c.target, add(0))).rejects.toMatchObject({ code: 'INVALID_COMMAND' });
    await expect(handler.run(c.target, add(5, 'ann', [2]))).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' });
    expect(c.appended).toEqual([]);
    expect(c.published).toEqual([]);
    await expect(handler.run(c.target, add(5, 'ann', [3]))).resolves.toBe(15);
  });

  it('an unknown aggregate is its not-found error', async () => {
    const c = counters();
    await expect(handler.run(c.target, { ...add(1), id: 'c2' })).rejects.toMatchObject({ code: 'GAME_NOT_FOUND' });
  });

  it('a refusal decided on a stale cached state is retried once on a fresh load', async () => {
    const c = counters();
    c.makeStale();
    // If-Match names the real version: refused on the stale copy, accepted on the fresh one.
    await expect(handler.run(c.target, add(2, 'ann', [3]))).resolves.toBe(12);
    expect(c.log).toEqual([
      'load cached',
      'authorize',
      'forget',
      'load fresh',
      'authorize',
      'decide',
      'append',
      'publish',
    ]);
    expect(c.appended).toHaveLength(1);
  });

  it('a version conflict from the append is not retried (a double click must not apply twice)', async () => {
    const c = counters();
    c.makeStale();
    await expect(handler.run(c.target, add(2))).rejects.toMatchObject({ code: 'VERSION_CONFLICT' });
    expect(c.appended).toEqual([]);
    expect(c.log.filter((l) => l.startsWith('load'))).toEqual(['load cached']);
  });

  it('a service move applies only at its version; a race lost or nothing to do is a no-op', async () => {
    const c = counters();
    await expect(handler.serviceMove(c.target, 'c1', 2, () => Promise.resolve({ by: 1 }))).resolves.toBeNull();
    await expect(handler.serviceMove(c.target, 'c1', 3, () => Promise.resolve(null))).resolves.toBeNull();
    await expect(handler.serviceMove(c.target, 'c1', 3, () => Promise.resolve('later' as const))).resolves.toBe(
      'later',
    );
    expect(c.appended).toEqual([]);
    const applied = await handler.serviceMove(c.target, 'c1', 3, () => Promise.resolve({ by: 1 }));
    expect(applied).toMatchObject({ version: 4, value: 11 });
    expect(c.published).toEqual([4]);
    // Another writer got there between the load and the append: no-op, nothing stored.
    const racing = { ...c.target, append: () => Promise.reject(new DomainException('VERSION_CONFLICT', 'moved on')) };
    await expect(handler.serviceMove(racing, 'c1', 4, () => Promise.resolve({ by: 1 }))).resolves.toBeNull();
    expect(c.appended).toHaveLength(1);
  });
});
