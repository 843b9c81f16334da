import { Injectable } from '@nestjs/common';
import { DomainException } from '../common/errors';
import { RuleError } from '@fairdice/core/rules/core/errors';
import { Die } from '@fairdice/core/rules/core/dice';
import { familyById, isRuleSetName, RULE_SETS, RULE_SET_NAMES, RuleSetPreset } from '@fairdice/core/rules/registry';
import { calculateScoreOptions, FiveDiceOptions, ScoreOptions } from '@fairdice/core/rules/five-dice';
import {
  bestSelection,
  FarkleOptions,
  isFarkle,
  scoringSelections,
  ScoringSelection,
} from '@fairdice/core/rules/farkle';

/** Rule-set listing and stateless calculators (no game, no database). */
@Injectable()
export class ScoringService {
  ruleSets(): RuleSetPreset[] {
    return RULE_SET_NAMES.map((name) => RULE_SETS[name]);
  }

  ruleSet(name: string): RuleSetPreset {
    if (!isRuleSetName(name))
      throw new DomainException('RULE_SET_NOT_FOUND', `No rule set named "${name}"; see GET /v1/rule-sets`);
    return RULE_SETS[name];
  }

  fiveDiceOptions(input: {
    ruleSet: string;
    options?: Record<string, unknown>;
    dice: number[];
    filled?: Array<{ box: string; points: number }>;
  }): ScoreOptions {
    const preset = this.ruleSet(input.ruleSet);
    const options = this.resolve<FiveDiceOptions>(preset, input.options);
    const boxes: Record<string, number> = {};
    for (const { box, points } of input.filled ?? []) {
      if (box in boxes) throw new DomainException('VALIDATION_FAILED', `filled: box ${box} is listed twice`);
      boxes[box] = points;
    }
    return unwrap(calculateScoreOptions({ dice: input.dice, boxes }, options));
  }

  farkleSelections(input: { dice: number[]; options?: Record<string, unknown> }): {
    farkle: boolean;
    selections: ScoringSelection[];
    best: ScoringSelection | null;
  } {
    const options = this.resolve<FarkleOptions>(RULE_SETS.farkle, input.options);
    const dice = input.dice as Die[];
    return {
      farkle: isFarkle(dice, options),
      selections: scoringSelections(dice, options),
      best: bestSelection(dice, options),
    };
  }

  private resolve<O>(preset: RuleSetPreset, overrides?: Record<string, unknown>): O {
    return unwrap(familyById(preset.family).resolveOptions(preset.options, overrides ?? {})) as O;
  }
}

function unwrap<T>(value: T | RuleError): T {
  if (value instanceof RuleError) throw DomainException.fromRule(value);
  return value;
}
