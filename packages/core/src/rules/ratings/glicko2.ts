/**
 * Glicko-2 (Mark E. Glickman, "Example of the Glicko-2 system", 2013), one rated game at a time:
 * each finished rated game is one rating period for each of its players (as Lichess does), and a
 * player's deviation first grows with the time since their previous rated game. Pure: the caller
 * passes the times. docs/ratings.md defines every step; this file follows it line by line.
 */

/** Glicko scale ↔ Glicko-2 scale (step 2 of the paper). */
export const GLICKO2_SCALE = 173.7178;
export const DEFAULT_RATING = 1500;
export const DEFAULT_RD = 350;
export const DEFAULT_VOLATILITY = 0.06;
/** The system constant τ: how much the volatility may change per period (paper: 0.3 to 1.2). */
export const TAU = 0.5;
/** Convergence tolerance of the volatility iteration (step 5.4). */
export const EPSILON = 0.000001;
/** One rating period, for the deviation's growth between games: 7 days. */
export const RATING_PERIOD_MS = 7 * 24 * 60 * 60 * 1000;
/** Bounds applied after each update (and to the grown deviation). */
export const MIN_RATING = 400;
export const MAX_RATING = 4000;
export const MIN_RD = 45;
/** The starting deviation is also the largest. */
export const MAX_RD = 350;
export const MAX_VOLATILITY = 0.1;
/** A rating is provisional while its deviation is above this. */
export const PROVISIONAL_RD = 110;

export interface Rating {
  rating: number;
  rd: number;
  volatility: number;
}

export const INITIAL_RATING: Rating = { rating: DEFAULT_RATING, rd: DEFAULT_RD, volatility: DEFAULT_VOLATILITY };

/** One result of the period: the opponent's rating before the game, and the score (1 win, 0.5 draw, 0 loss). */
export interface Result {
  opponent: Pick<Rating, 'rating' | 'rd'>;
  score: 0 | 0.5 | 1;
}

export interface Glicko2Settings {
  tau: number;
  epsilon: number;
}

const DEFAULTS: Glicko2Settings = { tau: TAU, epsilon: EPSILON };

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

export const isProvisional = (r: Pick<Rating, 'rd'>): boolean => r.rd > PROVISIONAL_RD;

/**
 * Rating periods between two times (fractional, never negative); `null` (no previous rated game)
 * counts as one period, as in the paper.
 */
export function elapsedPeriods(lastGameAtMs: number | null, nowMs: number): number {
  if (lastGameAtMs === null) return 1;
  return Math.max(0, nowMs - lastGameAtMs) / RATING_PERIOD_MS;
}

/**
 * The paper's steps 2–8 for one player and one period, where step 6's pre-period deviation
 * grows with `periods` instead of exactly one period: φ* = √(φ² + periods·σ′²). With periods = 1
 * this is exactly the paper. No results: only the deviation grows (step 6 alone, σ unchanged).
 * Unbounded: `rate` applies the bounds.
 */
export function glicko2(
  player: Rating,
  results: readonly Result[],
  periods: number,
  settings: Glicko2Settings = DEFAULTS,
): Rating {
  const mu = (player.rating - DEFAULT_RATING) / GLICKO2_SCALE;
  const phi = player.rd / GLICKO2_SCALE;
  const sigma = player.volatility;
  if (results.length === 0) {
    const phiStar = Math.sqrt(phi * phi + periods * sigma * sigma);
    return { rating: player.rating, rd: phiStar * GLICKO2_SCALE, volatility: sigma };
  }
  // Step 3: v; step 4: Δ.
  let vInv = 0;
  let sum = 0;
  for (const r of results) {
    const muJ = (r.opponent.rating - DEFAULT_RATING) / GLICKO2_SCALE;
    const phiJ = r.opponent.rd / GLICKO2_SCALE;
    const g = 1 / Math.sqrt(1 + (3 * phiJ * phiJ) / (Math.PI * Math.PI));
    const e = 1 / (1 + Math.exp(-g * (mu - muJ)));
    vInv += g * g * e * (1 - e);
    sum += g * (r.score - e);
  }
  const v = 1 / vInv;
  const delta = v * sum;
  // Step 5: the new volatility σ′ (Illinois algorithm).
  const a = Math.log(sigma * sigma);
  const tau = settings.tau;
  const f = (x: number) => {
    const ex = Math.exp(x);
    const d = phi * phi + v + ex;
    return (ex * (delta * delta - phi * phi - v - ex)) / (2 * d * d) - (x - a) / (tau * tau);
  };
  let A = a;
  let B: number;
  if (delta * delta > phi * phi + v) {
    B = Math.log(delta * delta - phi * phi - v);
  } else {
    let k = 1;
    while (f(a - k * tau) < 0) k += 1;
    B = a - k * tau;
  }
  let fA = f(A);
  let fB = f(B);
  while (Math.abs(B - A) > settings.epsilon) {
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else {
      fA = fA / 2;
    }
    B = C;
    fB = fC;
  }
  const sigmaNew = Math.exp(A / 2);
  // Step 6 (grown by the elapsed periods), step 7, step 8.
  const phiStar = Math.sqrt(phi * phi + periods * sigmaNew * sigmaNew);
  const phiNew = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  const muNew = mu + phiNew * phiNew * sum;
  return { rating: muNew * GLICKO2_SCALE + DEFAULT_RATING, rd: phiNew * GLICKO2_SCALE, volatility: sigmaNew };
}

/** The bounds of docs/ratings.md: rating in [400, 4000], deviation in [45, 350], volatility at most 0.1. */
export function bounded(r: Rating): Rating {
  return {
    rating: clamp(r.rating, MIN_RATING, MAX_RATING),
    rd: clamp(r.rd, MIN_RD, MAX_RD),
    volatility: Math.min(r.volatility, MAX_VOLATILITY),
  };
}

/** The rating a player shows at `nowMs` without playing: the deviation grown by the time since their last rated game. */
export function currentDeviation(r: Rating, lastGameAtMs: number | null, nowMs: number): number {
  if (lastGameAtMs === null) return r.rd;
  return bounded(glicko2(r, [], elapsedPeriods(lastGameAtMs, nowMs))).rd;
}
