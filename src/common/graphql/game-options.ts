/**
 * Rule-set options, typed per family (packages/core/src/rules/{five-dice/types,farkle/options}.ts):
 * GraphQL only. REST carries the same members under `options`.
 */
import { createUnionType, Field, Int, ObjectType } from '@nestjs/graphql';
import { JokerRuleEnum } from './enums';

@ObjectType({ description: 'Options of a five-dice rule set (docs/rules.md).' })
export class FiveDiceOptions {
  @Field(() => JokerRuleEnum) joker: string;
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
