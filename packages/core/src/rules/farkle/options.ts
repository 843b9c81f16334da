import { type RuleError, ruleError } from '../core/errors';

/** Points for the optional (house-rule) straights; `null` switches a straight off. */
export interface FarkleStraights {
  /** 1-2-3-4-5 in one roll (the brief: 1,250). */
  readonly low: number | null;
  /** 2-3-4-5-6 in one roll (the brief says "50", which is garbled: see docs/rules.md (Farkle)). */
  readonly high: number | null;
  /** 1-2-3-4-5-6 in one roll (not in the brief; common house value 1,500). */
  readonly full: number | null;
}

// A type literal (not an interface) so that it is a Record<string, unknown> (JSON options).
export type FarkleOptions = {
  /** Minimum points of a player's first banked turn ("750 to get on the board"); 0 = off. */
  readonly entryThreshold: number;
  /** Banking to this total (or more) starts the last round. */
  readonly target: number;
  /** The target must be hit exactly; a bank that would overshoot loses the turn's points. */
  readonly exactTarget: boolean;
  /** Points lost on every third consecutive farkle of a seat; 0 = off. Totals never go below 0. */
  readonly threeFarklePenalty: number;
  readonly straights: FarkleStraights;
};

/** The default rule set: the brief's rules without the house-rule straights or exact target. */
export const farkle: FarkleOptions = Object.freeze({
  entryThreshold: 750,
  target: 10_000,
  exactTarget: false,
  threeFarklePenalty: 0,
  straights: Object.freeze({ low: null, high: null, full: null }),
});

/**
 * House variant with straights (docs/rules.md (Farkle)): low 1,250 as the brief says, high 1,250
 * (the brief's "50" is garbled; a high straight is exactly as likely as a low one), full 1,500
 * (kept above high straight + single 1 = 1,350 so the full straight is worth reading as one).
 */
export const farkleWithStraights: FarkleOptions = Object.freeze({
  ...farkle,
  straights: Object.freeze({ low: 1250, high: 1250, full: 1500 }),
});

const MAX_POINTS = 1_000_000;
const OPTION_KEYS = ['entryThreshold', 'target', 'exactTarget', 'threeFarklePenalty', 'straights'] as const;
const STRAIGHT_KEYS = ['low', 'high', 'full'] as const;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

const bad = (option: string, message: string, value: unknown) =>
  ruleError('INVALID_OPTIONS', `Invalid Farkle option "${option}": ${message}`, { option, value: describe(value) });

function describe(value: unknown): unknown {
  if (value === undefined || value === null || typeof value === 'number' || typeof value === 'boolean')
    return value ?? null;
  if (typeof value === 'string') return value.length > 64 ? value.slice(0, 64) + '…' : value;
  return Array.isArray(value) ? 'array' : typeof value;
}

/**
 * Validates caller-supplied overrides (untrusted JSON) on top of `base`.
 * `undefined`/`null` means "no overrides". Unknown keys and bad values give INVALID_OPTIONS naming the option.
 * `straights` may be partial: `{ straights: { low: 1250 } }` keeps the base's high and full.
 */
export function resolveOptions(base: FarkleOptions, overrides: unknown): FarkleOptions | RuleError {
  if (overrides === undefined || overrides === null) return base;
  if (!isPlainObject(overrides)) return bad('(options)', 'overrides must be a plain object', overrides);
  for (const key of Object.keys(overrides)) {
    if (!(OPTION_KEYS as readonly string[]).includes(key)) return bad(key, 'unknown option', overrides[key]);
  }
  const o = overrides as Partial<Record<(typeof OPTION_KEYS)[number], unknown>>;
  let { entryThreshold, target, exactTarget, threeFarklePenalty } = base;
  const straights = { ...base.straights };

  if (o.entryThreshold !== undefined) {
    if (!isInt(o.entryThreshold) || o.entryThreshold < 0 || o.entryThreshold > MAX_POINTS)
      return bad('entryThreshold', `must be an integer from 0 (off) to ${MAX_POINTS}`, o.entryThreshold);
    entryThreshold = o.entryThreshold;
  }
  if (o.target !== undefined) {
    if (!isInt(o.target) || o.target < 50 || o.target > MAX_POINTS || o.target % 50 !== 0)
      return bad('target', `must be a multiple of 50 from 50 to ${MAX_POINTS}`, o.target);
    target = o.target;
  }
  if (o.exactTarget !== undefined) {
    if (typeof o.exactTarget !== 'boolean') return bad('exactTarget', 'must be a boolean', o.exactTarget);
    exactTarget = o.exactTarget;
  }
  if (o.threeFarklePenalty !== undefined) {
    if (!isInt(o.threeFarklePenalty) || o.threeFarklePenalty < 0 || o.threeFarklePenalty > MAX_POINTS)
      return bad('threeFarklePenalty', `must be an integer from 0 (off) to ${MAX_POINTS}`, o.threeFarklePenalty);
    threeFarklePenalty = o.threeFarklePenalty;
  }
  if (o.straights !== undefined) {
    if (!isPlainObject(o.straights))
      return bad('straights', 'must be an object with low, high and/or full', o.straights);
    for (const key of Object.keys(o.straights)) {
      if (!(STRAIGHT_KEYS as readonly string[]).includes(key))
        return bad(`straights.${key}`, 'unknown straight', o.straights[key]);
    }
    for (const key of STRAIGHT_KEYS) {
      const v = o.straights[key];
      if (v === undefined) continue;
      if (v !== null && (!isInt(v) || v < 1 || v > MAX_POINTS))
        return bad(`straights.${key}`, `must be null (off) or an integer from 1 to ${MAX_POINTS}`, v);
      straights[key] = v;
    }
  }
  if (entryThreshold > target) return bad('entryThreshold', `must not exceed the target (${target})`, entryThreshold);
  return Object.freeze({
    entryThreshold,
    target,
    exactTarget,
    threeFarklePenalty,
    straights: Object.freeze(straights),
  });
}
