import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ScoringService } from './scoring.service';
import {
  FarkleScoreInput,
  FarkleSelectionsModel,
  FiveDiceScoreInput,
  RuleSetModel,
  ScoreOptionsModel,
} from './dto/scoring.dto';
import { ApiProblems, BODY_PROBLEMS, PATH_PROBLEMS } from '../common/openapi/decorators';

@ApiTags('scoring')
@Controller()
export class ScoringController {
  constructor(private readonly scoring: ScoringService) {}

  @Get('rule-sets')
  @ApiOperation({ summary: 'List the rule sets with their options' })
  @ApiOkResponse({ type: [RuleSetModel] })
  ruleSets(): RuleSetModel[] {
    return this.scoring.ruleSets();
  }

  @Get('rule-sets/:name')
  @ApiOperation({ summary: 'One rule set' })
  @ApiOkResponse({ type: RuleSetModel })
  @ApiProblems(...PATH_PROBLEMS, 'RULE_SET_NOT_FOUND')
  ruleSet(@Param('name') name: string): RuleSetModel {
    return this.scoring.ruleSet(name);
  }

  @Post('scoring/five-dice')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Score options for dice and a sheet',
    description: 'Every open box with the score the dice would get there, without a game.',
  })
  @ApiOkResponse({ type: ScoreOptionsModel })
  @ApiProblems(...BODY_PROBLEMS, 'INVALID_OPTIONS', 'INVALID_COMMAND', 'UNKNOWN_BOX')
  fiveDice(@Body() input: FiveDiceScoreInput): ScoreOptionsModel {
    return this.scoring.fiveDiceOptions(input);
  }

  @Post('scoring/farkle')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Scoring selections of a Farkle roll',
    description: 'Which dice can be set aside and for how many points; farkle when none.',
  })
  @ApiOkResponse({ type: FarkleSelectionsModel })
  @ApiProblems(...BODY_PROBLEMS, 'INVALID_OPTIONS', 'INVALID_COMMAND')
  farkle(@Body() input: FarkleScoreInput): FarkleSelectionsModel {
    return this.scoring.farkleSelections(input);
  }
}
