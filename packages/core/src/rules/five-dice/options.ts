import { type RuleError, ruleError } from '../core/errors';
import type { FiveDiceOptions, JokerRule } from './types';

/** 000 "Penta": forced joker, +100 for each further five of a kind. Maximum 1575. */
export const penta: FiveDiceOptions = Object.freeze({
  joker: 'forced',
  extraFiveOfAKindBonus: 100,
  upperBonusThreshold: 63,
  upperBonusPoints: 35,
});

/** 002: no joker, no extra bonus; a five of a kind is not a full house. Maximum 375. */
export const simple: FiveDiceOptions = Object.freeze({
  joker: 'none',
  extraFiveOfAKindBonus: 0,
  upperBonusThreshold: 63,
  upperBonusPoints: 35,
});

/** 003: +100 for each further five of a kind, no joker. Maximum 1480. */
export const bonus: FiveDiceOptions = Object.freeze({
  joker: 'none',
  extraFiveOfAKindBonus: 100,
  upperBonusThreshold: 63,
  upperBonusPoints: 35,
});

export const FIVE_DICE_PRESETS = Object.freeze({ penta, simple, bonus });
export type FiveDicePresetName = keyof typeof FIVE_DICE_PRESETS;

export const JOKER_RULES: readonly JokerRule[] = ['forced', 'free', 'freeChoice', 'none'];

/** Accepted ranges (inclusive). The upper section can total at most 105. */
export const OPTION_LIMITS = Object.freeze({
  extraFiveOfAKindBonus: { min: 0, max: 1000 },
  upperBonusThreshold: { min: 1, max: 105 },
  upperBonusPoints: { min: 0, max: 1000 },
});

/**
 * Auto-score delays the service puts into the create command of a new game of these presets
 * unless the creator's overrides name `autoScoreAfterMs` (null turns it off): `penta` follows 000
 * ("if you don't choose anything after the last roll, the app enters the result itself after 3
 * seconds, in the box the computer would choose"); 002 and 003 have no such rule. The default
 * travels in the command, not in the preset, so the commands of games created before it re-run
 * to the same events (docs/rules.md).
 */
export const AUTO_SCORE_DEFAULTS: Readonly<Record<string, number>> = Object.freeze({ penta: 3000 });

/** `autoScoreAfterMs`: 0 (at once) to one day; null = off. */
export const AUTO_SCORE_LIMITS = Object.freeze({ min: 0, max: 86_400_000 });

const OPTION_KEYS = [
  'joker',
  'jokerAfterSacrifice',
  'autoScoreAfterMs',
  'extraFiveOfAKindBonus',
  'upperBonusThreshold',
  'upperBonusPoints',
] as const;

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

const invalid = (option: string, message: string) =>
  ruleError('INVALID_OPTIONS', `option '${option}': ${message}`, { option });

/**
 * Applies caller-supplied overrides on top of `base` (a preset). `undefined`/`null` mean "no overrides".
 * Unknown keys, wrong types and out-of-range values give INVALID_OPTIONS naming the option.
 */
export function resolveOptions(base: FiveDiceOptions, overrides: unknown): FiveDiceOptions | RuleError {
  if (overrides === undefined || overrides === null) return { ...base };
  if (!isPlainObject(overrides)) return ruleError('INVALID_OPTIONS', 'options must be a plain object');
  const out: { -readonly [K in keyof FiveDiceOptions]: FiveDiceOptions[K] } = { ...base };
  for (const key of Object.keys(overrides)) {
    if (!(OPTION_KEYS as readonly string[]).includes(key)) {
      return invalid(key, `unknown option (known: ${OPTION_KEYS.join(', ')})`);
    }
    const value = overrides[key];
    if (key === 'joker') {
      if (typeof value !== 'string' || !(JOKER_RULES as readonly string[]).includes(value)) {
        return invalid(key, `must be one of ${JOKER_RULES.join(', ')}`);
      }
      out.joker = value as JokerRule;
    } else if (key === 'autoScoreAfterMs') {
      const { min, max } = AUTO_SCORE_LIMITS;
      if (value !== null && (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max))
        return invalid(key, `must be null (off) or an integer from ${min} to ${max} (milliseconds)`);
      // Absent and null both mean off; only a delay is recorded (older games' options stay as they were).
      if (value === null) delete out.autoScoreAfterMs;
      else out.autoScoreAfterMs = value;
    } else if (key === 'jokerAfterSacrifice') {
      if (typeof value !== 'boolean') return invalid(key, 'must be a boolean');
      out.jokerAfterSacrifice = value;
    } else {
      const limits = OPTION_LIMITS[key as keyof typeof OPTION_LIMITS];
      if (typeof value !== 'number' || !Number.isInteger(value) || value < limits.min || value > limits.max) {
        return invalid(key, `must be an integer from ${limits.min} to ${limits.max}`);
      }
      out[key as keyof typeof OPTION_LIMITS] = value;
    }
  }
  return out;
}
