/**
 * Rule-set options, typed per family (packages/core/src/rules/{five-dice/types,farkle/options}.ts):
 * GraphQL only. REST carries the same members under `options`.
 */
import { createUnionType, Field, InputType, Int, ObjectType, type FieldMiddleware } from '@nestjs/graphql';
import { JokerRuleEnum } from './enums';

/** Resolved options of games created before the option existed do not carry it: false. */
const absentIsFalse: FieldMiddleware = async (_ctx, next) => ((await next()) as boolean | undefined) ?? false;

@ObjectType({ description: 'Options of a five-dice rule set (docs/rules.md).' })
export class FiveDiceOptions {
  @Field(() => JokerRuleEnum) joker: string;
  @Field({
    description:
      'The joker also applies once the five-of-a-kind box holds 0, without the extra bonus (the official reading; docs/rules.md).',
    middleware: [absentIsFalse],
  })
  jokerAfterSacrifice: boolean;
  @Field(() => Int, {
    description: 'Points for each further five of a kind while the five-of-a-kind box holds 50 (0: no bonus).',
  })
  extraFiveOfAKindBonus: number;
  @Field(() => Int, { description: 'The upper section must reach this sum ...' }) upperBonusThreshold: number;
  @Field(() => Int, { description: '... to earn these points.' }) upperBonusPoints: number;
}

@ObjectType({ description: 'Points of the optional Farkle straights; null: that straight does not score.' })
export class FarkleStraights {
  @Field(() => Int, { nullable: true, description: '1-2-3-4-5 in one roll.' }) low: number | null;
  @Field(() => Int, { nullable: true, description: '2-3-4-5-6 in one roll.' }) high: number | null;
  @Field(() => Int, { nullable: true, description: '1-2-3-4-5-6 in one roll.' }) full: number | null;
}

@ObjectType({ description: 'Options of a Farkle rule set (docs/rules.md).' })
export class FarkleOptions {
  @Field(() => Int, { description: "Minimum points of a player's first banked turn; 0: off." }) entryThreshold: number;
  @Field(() => Int, { description: 'Banking to this total (or more) starts the last round.' }) target: number;
  @Field({ description: 'The target must be hit exactly; a bank that would overshoot loses the turn.' })
  exactTarget: boolean;
  @Field(() => Int, { description: 'Points lost on every third consecutive farkle of a seat; 0: off.' })
  threeFarklePenalty: number;
  @Field(() => FarkleStraights) straights: FarkleStraights;
}

/** Five-dice options carry `joker`, Farkle options never do (the families' option keys). */
export const isFiveDiceOptions = (options: object): boolean => 'joker' in options;

export const GameOptions = createUnionType({
  name: 'GameOptions',
  description: "A rule set's resolved options: FiveDiceOptions or FarkleOptions, by the game's family.",
  types: () => [FiveDiceOptions, FarkleOptions] as const,
  resolveType: (value: object) => (isFiveDiceOptions(value) ? FiveDiceOptions : FarkleOptions),
});

// ------------------------------------------------------------------ inputs: overrides of a preset

@InputType({ description: 'Overrides of a five-dice preset; every member optional (docs/rules.md).' })
export class FiveDiceOptionsInput {
  @Field(() => JokerRuleEnum, { nullable: true }) joker?: string;
  @Field({ nullable: true, description: 'The joker also applies once the five-of-a-kind box holds 0.' })
  jokerAfterSacrifice?: boolean;
  @Field(() => Int, { nullable: true, description: '0 to 1000.' }) extraFiveOfAKindBonus?: number;
  @Field(() => Int, { nullable: true, description: '1 to 105.' }) upperBonusThreshold?: number;
  @Field(() => Int, { nullable: true, description: '0 to 1000.' }) upperBonusPoints?: number;
}

@InputType({ description: 'Points of the Farkle straights; null switches one off, an absent one keeps the preset.' })
export class FarkleStraightsInput {
  @Field(() => Int, { nullable: true }) low?: number | null;
  @Field(() => Int, { nullable: true }) high?: number | null;
  @Field(() => Int, { nullable: true }) full?: number | null;
}

@InputType({ description: 'Overrides of a Farkle preset; every member optional (docs/rules.md).' })
export class FarkleOptionsInput {
  @Field(() => Int, { nullable: true, description: '0 (off) to 1,000,000, at most the target.' })
  entryThreshold?: number;
  @Field(() => Int, { nullable: true, description: 'A multiple of 50 from 50 to 1,000,000.' }) target?: number;
  @Field({ nullable: true }) exactTarget?: boolean;
  @Field(() => Int, { nullable: true, description: '0 (off) to 1,000,000.' }) threeFarklePenalty?: number;
  @Field(() => FarkleStraightsInput, { nullable: true }) straights?: FarkleStraightsInput;
}

@InputType({
  description:
    "Overrides of the rule set's options: the members of FiveDiceOptionsInput or of FarkleOptionsInput, by the rule set's family (a member of the other family is INVALID_OPTIONS). The same object as REST's options.",
})
export class GameOptionsInput {
  @Field(() => JokerRuleEnum, { nullable: true, description: 'Five dice.' }) joker?: string;
  @Field({ nullable: true, description: 'Five dice: the joker also applies once the five-of-a-kind box holds 0.' })
  jokerAfterSacrifice?: boolean;
  @Field(() => Int, { nullable: true, description: 'Five dice: 0 to 1000.' }) extraFiveOfAKindBonus?: number;
  @Field(() => Int, { nullable: true, description: 'Five dice: 1 to 105.' }) upperBonusThreshold?: number;
  @Field(() => Int, { nullable: true, description: 'Five dice: 0 to 1000.' }) upperBonusPoints?: number;
  @Field(() => Int, { nullable: true, description: 'Farkle: 0 (off) to 1,000,000, at most the target.' })
  entryThreshold?: number;
  @Field(() => Int, { nullable: true, description: 'Farkle: a multiple of 50 from 50 to 1,000,000.' }) target?: number;
  @Field({ nullable: true, description: 'Farkle.' }) exactTarget?: boolean;
  @Field(() => Int, { nullable: true, description: 'Farkle: 0 (off) to 1,000,000.' }) threeFarklePenalty?: number;
  @Field(() => FarkleStraightsInput, { nullable: true, description: 'Farkle.' }) straights?: FarkleStraightsInput;
}
