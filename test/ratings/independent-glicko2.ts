/**
 * An independent recomputation of every rating from the public list of rated results, written
 * from docs/ratings.md alone (it imports nothing of packages/core or src): the audit a player or
 * a third party can run.
 */
export interface Values {
  rating: number;
  rd: number;
  volatility: number;
}
export interface PublicResult {
  seq: number;
  gameId: string;
  finishedAt: string;
  seats: Array<{ seat: number; playerId: string; total: number; forfeited: boolean }>;
}

const S = 173.7178;
const WEEK_MS = 604_800_000;

/** docs/ratings.md §2: one period of Glicko-2 for one player, the pre-period deviation grown by `t` periods. */
function period(me: Values, games: Array<{ r: number; rd: number; s: number }>, t: number): Values {
  const mu = (me.rating - 1500) / S;
  const phi = me.rd / S;
  const sig = me.volatility;
  const gs = games.map((o) => {
    const phiJ = o.rd / S;
    const g = 1 / Math.sqrt(1 + (3 * phiJ ** 2) / Math.PI ** 2);
    const E = 1 / (1 + Math.exp(-g * (mu - (o.r - 1500) / S)));
    return { g, E, s: o.s };
  });
  const v = 1 / gs.reduce((acc, x) => acc + x.g ** 2 * x.E * (1 - x.E), 0);
  const improvement = gs.reduce((acc, x) => acc + x.g * (x.s - x.E), 0);
  const delta = v * improvement;
  const a = Math.log(sig ** 2);
  const tau = 0.5;
  const f = (x: number) =>
    (Math.exp(x) * (delta ** 2 - phi ** 2 - v - Math.exp(x))) / (2 * (phi ** 2 + v + Math.exp(x)) ** 2) -
    (x - a) / tau ** 2;
  let A = a;
  let B = delta ** 2 > phi ** 2 + v ? Math.log(delta ** 2 - phi ** 2 - v) : NaN;
  if (Number.isNaN(B)) {
    let k = 1;
    for (; f(a - k * tau) < 0; k++);
    B = a - k * tau;
  }
  let fA = f(A);
  let fB = f(B);
  while (Math.abs(B - A) > 1e-6) {
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
    if (fC * fB <= 0) [A, fA] = [B, fB];
    else fA /= 2;
    [B, fB] = [C, fC];
  }
  const newSig = Math.exp(A / 2);
  const pre = Math.sqrt(phi ** 2 + t * newSig ** 2);
  const newPhi = 1 / Math.sqrt(1 / pre ** 2 + 1 / v);
  const newMu = mu + newPhi ** 2 * improvement;
  return {
    rating: Math.min(4000, Math.max(400, newMu * S + 1500)),
    rd: Math.min(350, Math.max(45, newPhi * S)),
    volatility: Math.min(0.1, newSig),
  };
}

/** Every player's rating after applying the results in seq order, with the before/after of each result. */
export function recompute(results: PublicResult[]): {
  ratings: Map<string, Values & { last: number; games: number }>;
  changes: Map<number, Map<string, { before: Values; after: Values }>>;
} {
  const ratings = new Map<string, Values & { last: number; games: number }>();
  const changes = new Map<number, Map<string, { before: Values; after: Values }>>();
  for (const r of [...results].sort((x, y) => x.seq - y.seq)) {
    const at = Date.parse(r.finishedAt);
    const now = (id: string) => ratings.get(id) ?? { rating: 1500, rd: 350, volatility: 0.06, last: NaN, games: 0 };
    const next = new Map<string, Values & { last: number; games: number }>();
    const byGame = new Map<string, { before: Values; after: Values }>();
    for (const me of r.seats) {
      const mine = now(me.playerId);
      const games = r.seats
        .filter((o) => o.playerId !== me.playerId)
        .map((o) => {
          const s =
            me.forfeited !== o.forfeited
              ? me.forfeited
                ? 0
                : 1
              : me.total === o.total
                ? 0.5
                : me.total > o.total
                  ? 1
                  : 0;
          return { r: now(o.playerId).rating, rd: now(o.playerId).rd, s };
        });
      const t = Number.isNaN(mine.last) ? 1 : Math.max(0, at - mine.last) / WEEK_MS;
      const after = period(mine, games, t);
      next.set(me.playerId, { ...after, last: at, games: mine.games + 1 });
      byGame.set(me.playerId, {
        before: { rating: mine.rating, rd: mine.rd, volatility: mine.volatility },
        after,
      });
    }
    for (const [id, v] of next) ratings.set(id, v);
    changes.set(r.seq, byGame);
  }
  return { ratings, changes };
}
