import { Args, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { RuleSetNameEnum } from '../common/graphql/enums';
import { GameOptions } from '../common/graphql/game-options';
import { ScoringService } from './scoring.service';
import {
  FarkleScoreInput,
  FarkleSelectionsModel,
  FiveDiceScoreInput,
  RuleSetModel,
  ScoreOptionsModel,
} from './dto/scoring.dto';

@Resolver(() => RuleSetModel)
export class ScoringResolver {
  constructor(private readonly scoring: ScoringService) {}

  @Query(() => [RuleSetModel], { description: 'The rule sets with their options.' })
  ruleSets(): RuleSetModel[] {
    return this.scoring.ruleSets();
  }

  @Query(() => RuleSetModel, { description: 'One rule set by name.' })
  ruleSet(@Args('name', { type: () => RuleSetNameEnum }) name: string): RuleSetModel {
    return this.scoring.ruleSet(name);
  }

  @ResolveField('ruleOptions', () => GameOptions, {
    description: 'The preset option values, typed per family; a game may override them (see docs/rules.md).',
  })
  ruleOptions(@Parent() ruleSet: RuleSetModel): object {
    return ruleSet.options;
  }

  @Query(() => ScoreOptionsModel, {
    description: 'Every open box with the score the dice would get there (no game needed).',
  })
  fiveDiceScoreOptions(@Args('input') input: FiveDiceScoreInput): ScoreOptionsModel {
    return this.scoring.fiveDiceOptions(input);
  }

  @Query(() => FarkleSelectionsModel, { description: 'The scoring selections of one Farkle roll.' })
  farkleSelections(@Args('input') input: FarkleScoreInput): FarkleSelectionsModel {
    return this.scoring.farkleSelections(input);
  }
}
