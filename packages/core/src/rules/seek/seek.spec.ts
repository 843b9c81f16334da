import { isRuleError, type RuleError } from '../core/errors';
import {
  acceptableWindow,
  compatible,
  decideSeek,
  emptySeek,
  evolveSeek,
  pairSeeks,
  SEEK_LIMITS,
  widening,
  WINDOW,
  type SeekCommand,
  type SeekState,
  type WaitingSeek,
} from './index';

const spec = { pool: 'penta', seats: 2, rated: true, turnTimeLimitSeconds: 60 };
const create = (over: Record<string, unknown> = {}, openSeeks = 0): SeekCommand => ({
  type: 'create',
  playerId: 'p1',
  spec: { ...spec, ...over },
  openSeeks,
});

function run(commands: SeekCommand[], from: SeekState = emptySeek('s1')): SeekState {
  return commands.reduce((s, c) => {
    const events = decideSeek(s, c);
    if (isRuleError(events)) throw new Error(`${c.type}: ${events.code}`);
    return events.reduce(evolveSeek, s);
  }, from);
}
const code = (s: SeekState, c: SeekCommand) => (decideSeek(s, c) as RuleError).code;

describe('seek decider', () => {
  it('creates an open seek with its spec (bounds default to null)', () => {
    const s = run([create()]);
    expect(s).toMatchObject({ status: 'open', playerId: 'p1', version: 1 });
    expect(s.spec).toEqual({ ...spec, ratingMin: null, ratingMax: null });
  });

  it.each([
    [{ pool: 'yahtzee' }, 'UNKNOWN_POOL'],
    [{ pool: undefined }, 'UNKNOWN_POOL'],
    [{ seats: 1 }, 'INVALID_COMMAND'],
    [{ seats: 5 }, 'INVALID_COMMAND'],
    [{ seats: 2.5 }, 'INVALID_COMMAND'],
    [{ rated: 'yes' }, 'INVALID_COMMAND'],
    [{ ratingMin: 1800, ratingMax: 1600 }, 'INVALID_RATING_RANGE'],
    [{ ratingMin: 100 }, 'INVALID_RATING_RANGE'],
    [{ ratingMax: 4001 }, 'INVALID_RATING_RANGE'],
    [{ ratingMin: 1500.5 }, 'INVALID_RATING_RANGE'],
    [{ turnTimeLimitSeconds: undefined }, 'INVALID_TIME_CONTROL'],
    [{ turnTimeLimitSeconds: 61 }, 'INVALID_TIME_CONTROL'],
    [{ rated: false, turnTimeLimitSeconds: 0 }, 'INVALID_TIME_CONTROL'],
  ])('refuses %j with %s', (over, expected) => {
    expect(code(emptySeek('s1'), create(over))).toBe(expected);
  });

  it('lets a casual seek have no time limit, and an equal min and max', () => {
    const s = run([create({ rated: false, turnTimeLimitSeconds: null, ratingMin: 1500, ratingMax: 1500 })]);
    expect(s.spec).toMatchObject({ rated: false, turnTimeLimitSeconds: null, ratingMin: 1500, ratingMax: 1500 });
  });

  it('refuses a seek beyond the open-seek cap', () => {
    expect(run([create({}, SEEK_LIMITS.openPerPlayer - 1)]).status).toBe('open');
    expect(code(emptySeek('s1'), create({}, SEEK_LIMITS.openPerPlayer))).toBe('SEEK_LIMIT_REACHED');
  });

  it('cancels only its own open seek; pairs only an open one, once', () => {
    const s = run([create()]);
    expect(code(s, { type: 'cancel', playerId: 'p2' })).toBe('NOT_YOUR_SEEK');
    const cancelled = run([{ type: 'cancel', playerId: 'p1' }], s);
    expect(cancelled.status).toBe('cancelled');
    expect(code(cancelled, { type: 'cancel', playerId: 'p1' })).toBe('SEEK_NOT_OPEN');
    expect(code(cancelled, { type: 'pair', gameId: 'g', seekIds: ['s1', 's2'] })).toBe('SEEK_NOT_OPEN');
    const paired = run([{ type: 'pair', gameId: 'g', seekIds: ['s1', 's2'] }], s);
    expect(paired).toMatchObject({ status: 'paired', gameId: 'g', version: 2 });
    expect(code(paired, { type: 'pair', gameId: 'g2', seekIds: ['s1', 's3'] })).toBe('SEEK_NOT_OPEN');
    expect(code(paired, { type: 'cancel', playerId: 'p1' })).toBe('SEEK_NOT_OPEN');
    expect(code(emptySeek('x'), { type: 'cancel', playerId: 'p1' })).toBe('INVALID_COMMAND');
    expect(code(s, create())).toBe('INVALID_COMMAND');
  });
});

const T0 = Date.UTC(2026, 11, 26);
let n = 0;
const seek = (over: Partial<WaitingSeek> = {}): WaitingSeek => {
  n++;
  return {
    id: `s${String(n).padStart(4, '0')}`,
    playerId: `p${n}`,
    pool: 'penta',
    seats: 2,
    rated: true,
    turnTimeLimitSeconds: 60,
    ratingMin: null,
    ratingMax: null,
    rating: 1500,
    createdAtMs: T0,
    ...over,
  };
};

describe('the widening curve and windows', () => {
  it('widens by 50 per full 10 s waited, at most 500', () => {
    expect([0, 9_999, 10_000, 25_000, 60_000, 99_999, 100_000, 3_600_000].map(widening)).toEqual([
      0, 0, 50, 100, 300, 450, 500, 500,
    ]);
    expect(widening(-5)).toBe(0);
  });

  it('defaults each bound to the rating ∓ 200, and widens the given bounds too', () => {
    expect(acceptableWindow(seek({ rating: 1600 }), T0)).toEqual({ low: 1400, high: 1800 });
    expect(acceptableWindow(seek({ ratingMin: 1700 }), T0 + 20_000)).toEqual({ low: 1600, high: 1800 });
    expect(acceptableWindow(seek({ ratingMin: 1000, ratingMax: 1200 }), T0 + 3_600_000)).toEqual({
      low: 500,
      high: 1700,
    });
  });

  it('needs each rating inside the other window, the same game and two players', () => {
    const a = seek({ rating: 1500 });
    expect(compatible(a, seek({ rating: 1700 }), T0)).toBe(true);
    expect(compatible(a, seek({ rating: 1701 }), T0)).toBe(false);
    expect(compatible(a, seek({ rating: 1701 }), T0 + WINDOW.stepMs)).toBe(true);
    // Inside a's window, but b does not accept a.
    expect(compatible(a, seek({ rating: 1600, ratingMin: 1550 }), T0)).toBe(false);
    expect(compatible(a, seek({ pool: 'simple' }), T0)).toBe(false);
    expect(compatible(a, seek({ seats: 3 }), T0)).toBe(false);
    expect(compatible(a, seek({ rated: false }), T0)).toBe(false);
    expect(compatible(a, seek({ turnTimeLimitSeconds: 30 }), T0)).toBe(false);
    expect(compatible(a, seek({ playerId: a.playerId }), T0)).toBe(false);
  });
});

describe('pairSeeks', () => {
  it('serves the oldest seek first with the closest rating, ties by waiting time', () => {
    const oldest = seek({ rating: 1500, createdAtMs: T0 });
    const far = seek({ rating: 1650, createdAtMs: T0 - 1 }); // older, but served after: it is no partner for…
    const near = seek({ rating: 1540, createdAtMs: T0 + 5 });
    const tieNew = seek({ rating: 1460, createdAtMs: T0 + 9 });
    const tieOld = seek({ rating: 1460, createdAtMs: T0 + 3 });
    const pairs = pairSeeks([near, tieNew, oldest, far, tieOld], T0 + 9);
    // far is the oldest: its closest is near (110) over oldest (150); then oldest takes tieOld (40, older than tieNew).
    expect(pairs).toEqual([{ seekIds: [far.id, near.id] }, { seekIds: [oldest.id, tieOld.id] }]);
  });

  it('breaks an equal distance above and below by waiting time', () => {
    const a = seek({ rating: 1500 });
    const above = seek({ rating: 1550, createdAtMs: T0 + 1 });
    const below = seek({ rating: 1450, createdAtMs: T0 + 2 });
    expect(pairSeeks([a, below, above], T0 + 2)).toEqual([{ seekIds: [a.id, above.id] }]);
    const above2 = seek({ rating: 1550, createdAtMs: T0 + 4 });
    const below2 = seek({ rating: 1450, createdAtMs: T0 + 3 });
    const a2 = seek({ rating: 1500 });
    expect(pairSeeks([a2, above2, below2], T0 + 4)).toEqual([{ seekIds: [a2.id, below2.id] }]);
  });

  it('leaves a seek outside every window open, until waiting widens it enough', () => {
    const a = seek({ rating: 1500 });
    const b = seek({ rating: 1500, createdAtMs: T0 + 1 });
    const c = seek({ rating: 1500, ratingMin: 1900, createdAtMs: T0 + 2 });
    const d = seek({ rating: 1500, createdAtMs: T0 + 3 });
    const first = pairSeeks([a, b, c, d], T0 + 3);
    expect(first).toEqual([{ seekIds: [a.id, b.id] }]);
    // d cannot take c (c's window starts at 1900), so both wait; after 80 s c's window reaches 1500.
    expect(pairSeeks([c, d], T0 + 79_999)).toEqual([]);
    expect(pairSeeks([c, d], T0 + 80_002)).toEqual([{ seekIds: [c.id, d.id] }]);
    // A window beyond the widening's 500 never reaches.
    expect(pairSeeks([seek({ ratingMin: 2100 }), seek()], T0 + 1e9)).toEqual([]);
  });

  it('fills games of 3 and 4 seats with seeks compatible with each other', () => {
    const a = seek({ seats: 3, rating: 1500 });
    const b = seek({ seats: 3, rating: 1690 });
    const c = seek({ seats: 3, rating: 1320 }); // inside a's window, but 370 below b
    const d = seek({ seats: 3, rating: 1600 });
    expect(pairSeeks([a, b, c], T0)).toEqual([]);
    expect(pairSeeks([a, b, c, d], T0)).toEqual([{ seekIds: [a.id, d.id, b.id] }]);
    const four = [1, 2, 3, 4].map(() => seek({ seats: 4 }));
    expect(pairSeeks(four.slice(0, 3), T0)).toEqual([]);
    expect(pairSeeks(four, T0)).toEqual([{ seekIds: four.map((s) => s.id) }]);
  });

  it('never pairs a seek twice, nor a player with themselves, in a large random pass', () => {
    let x = 7;
    const rnd = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const seeks = Array.from({ length: 2000 }, () =>
      seek({
        playerId: `p${Math.floor(rnd() * 700)}`,
        seats: 2 + Math.floor(rnd() * 3),
        rating: 1000 + Math.round(rnd() * 1000),
        pool: rnd() < 0.5 ? 'penta' : 'farkle',
        createdAtMs: T0 + Math.floor(rnd() * 60_000),
      }),
    );
    const now = T0 + 60_000;
    const pairs = pairSeeks(seeks, now);
    const byId = new Map(seeks.map((s) => [s.id, s]));
    const used = pairs.flatMap((p) => p.seekIds);
    expect(new Set(used).size).toBe(used.length);
    expect(pairs.length).toBeGreaterThan(100);
    for (const p of pairs) {
      const members = p.seekIds.map((id) => byId.get(id)!);
      expect(members).toHaveLength(members[0].seats);
      for (const m of members) for (const o of members) if (m !== o) expect(compatible(m, o, now)).toBe(true);
    }
  });
});
