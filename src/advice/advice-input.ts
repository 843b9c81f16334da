/**
 * The advice API's input checks (docs/advice.md): a rule set's options with the caller's
 * overrides, the Farkle rules the solver models, and a five-dice sheet a game could have produced.
 * Each refusal is a DomainException with a stable code (INVALID_SHEET, UNKNOWN_BOX, ADVICE_UNSUPPORTED,
 * WIN_PROBABILITY_UNSUPPORTED).
 */
import { assertFarkleSolvable, assertTwoPlayerSolvable } from '@fairdice/core/rules/advice';
import { RuleError } from '@fairdice/core/rules/core/errors';
import type { FamilyId } from '@fairdice/core/rules/core/family';
import type { FamilyTypes } from '@fairdice/core/rules/families';
import { familyById, type RuleSetPresetOf } from '@fairdice/core/rules/registry';
import {
  BOX_IDS,
  isPossibleBoxValue,
  UPPER_BOXES,
  type BoxId,
  type FiveDiceOptions,
  type FiveDiceSheet,
} from '@fairdice/core/rules/five-dice';
import type { FarkleOptions } from '@fairdice/core/rules/farkle';
import { DomainException } from '../common/errors';

const invalidSheet = (message: string, details: Record<string, unknown> = {}) =>
  new DomainException('INVALID_SHEET', message, details);
export const invalidPosition = (message: string, field: string) =>
  new DomainException('INVALID_POSITION', message, { field });
export const unsupported = (message: string) => new DomainException('ADVICE_UNSUPPORTED', message);
export const winProbabilityUnsupported = (message: string) =>
  new DomainException('WIN_PROBABILITY_UNSUPPORTED', message);

export function resolveOptions<F extends FamilyId>(
  preset: RuleSetPresetOf<F>,
  overrides: Record<string, unknown> | undefined,
): FamilyTypes[F]['options'] {
  const resolved = familyById(preset.family).resolveOptions(preset.options, overrides ?? {});
  if (resolved instanceof RuleError) throw DomainException.fromRule(resolved);
  return resolved;
}

export function supportedFarkle(options: FarkleOptions): void {
  try {
    assertFarkleSolvable(options);
  } catch (error) {
    throw unsupported(`Farkle advice does not model these rules: ${(error as Error).message}`);
  }
}

/** Options the two-player Farkle solver models (else 422 WIN_PROBABILITY_UNSUPPORTED with its reason). */
export function supportedTwoPlayer(options: FarkleOptions): void {
  try {
    assertTwoPlayerSolvable(options);
  } catch (error) {
    throw winProbabilityUnsupported(
      `Win-probability advice does not model these Farkle rules: ${(error as Error).message}`,
    );
  }
}

/**
 * A sheet a game could have produced: known boxes, each at most once, each value possible for its
 * box, not full, and an extra bonus that is a multiple of the rule's bonus, earned only with 50 in
 * five of a kind and at most one per other filled box.
 */
export function checkedSheet(
  filled: ReadonlyArray<{ box: string; points: number }>,
  extraBonus: number,
  options: FiveDiceOptions,
): FiveDiceSheet {
  const boxes: Partial<Record<BoxId, number>> = {};
  for (const { box, points } of filled) {
    if (!(BOX_IDS as readonly string[]).includes(box))
      throw new DomainException('UNKNOWN_BOX', `unknown box '${box}'`, { box });
    if (box in boxes) throw invalidSheet(`box ${box} is listed twice`, { box });
    if (!isPossibleBoxValue(box as BoxId, points))
      throw invalidSheet(
        (UPPER_BOXES as readonly string[]).includes(box)
          ? `box ${box} cannot hold ${points}: a multiple of its face up to five times it`
          : `box ${box} cannot hold ${points}`,
        { box, points },
      );
    boxes[box as BoxId] = points;
  }
  if (Object.keys(boxes).length === BOX_IDS.length) throw invalidSheet('the sheet is full: no decision is left');
  if (extraBonus > 0) {
    const unit = options.extraFiveOfAKindBonus;
    const others = Object.keys(boxes).length - 1;
    if (unit === 0 || extraBonus % unit !== 0 || boxes.fiveOfAKind !== 50 || extraBonus / unit > others)
      throw invalidSheet(
        `extraBonus ${extraBonus} is impossible: a multiple of ${unit} earned only with 50 in fiveOfAKind, at most one per other filled box`,
        { field: 'extraBonus' },
      );
  }
  return { boxes, extraBonus };
}
