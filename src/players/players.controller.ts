import { FULL_TOKEN, RequireScope } from './require-scope';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { UuidPipe } from '../reliability/http/uuid.pipe';
import { CursorQuery } from '../common/dto/pagination';
import { pageRequest } from '../common/pagination/page-request';
import { NEXT_LINK_HEADER, setNextLink } from '../common/pagination/next-link';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthGuard, CurrentPlayer } from './auth.guard';
import { AuthenticatedPlayer } from './players.types';
import { PlayersService } from './players.service';
import { RegisterPlayerInput } from './dto/register-player.dto';
import {
  MeModel,
  PlayerProfileView,
  RegisteredPlayerModel,
  SoloLeaderboardPage,
  TokenModel,
  TournamentLeaderboardPage,
} from './dto/player.model';
import { NoFieldsPipe } from '../common/dto/no-fields.pipe';
import {
  ApiNoFieldsBody,
  ApiProblems,
  BODY_PROBLEMS,
  PATH_PROBLEMS,
  STALENESS_HEADER_DOC,
} from '../common/openapi/decorators';
import { withStalenessHeader } from '../database/read-routing';

@ApiTags('players')
@Controller('players')
export class PlayersController {
  constructor(private readonly players: PlayersService) {}

  @Post()
  @ApiOperation({
    summary: 'Register a player',
    description: 'Returns the player and a bearer token. The token is shown only once.',
  })
  @ApiCreatedResponse({ type: RegisteredPlayerModel })
  @ApiProblems(...BODY_PROBLEMS, 'DATABASE_UNAVAILABLE')
  register(@Body() input: RegisterPlayerInput): Promise<RegisteredPlayerModel> {
    return this.players.register(input.displayName);
  }

  @Get('me')
  @UseGuards(AuthGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'My profile and statistics per rule set' })
  @ApiOkResponse({ type: MeModel })
  @ApiProblems('DATABASE_UNAVAILABLE')
  @RequireScope('account:read')
  async me(@CurrentPlayer() player: AuthenticatedPlayer): Promise<MeModel> {
    const [profile, stats] = await Promise.all([this.players.profile(player.id), this.players.stats(player.id)]);
    return { ...profile, stats };
  }

  @Post('me/token')
  @HttpCode(200)
  @UseGuards(AuthGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Rotate my token',
    description:
      'Returns a new token; the old one stops working at once. Send no body or `{}`: any other body is 400, a non-JSON content type 415, and the token is not rotated.',
  })
  @ApiOkResponse({ type: TokenModel })
  @ApiNoFieldsBody()
  @ApiProblems(...BODY_PROBLEMS, 'DATABASE_UNAVAILABLE')
  @RequireScope(FULL_TOKEN)
  rotate(
    @CurrentPlayer() player: AuthenticatedPlayer,
    @Body(new NoFieldsPipe()) _body: Record<string, never>,
  ): Promise<TokenModel> {
    return this.players.rotateToken(player.id);
  }

  @Get(':id')
  @ApiOperation({
    summary: "A player's public profile",
    description:
      'Anyone may read it (no token needed): the display name, when the player registered, and statistics per rule set from their finished games (the same figures as GET /v1/players/me).',
  })
  @ApiOkResponse({ type: PlayerProfileView, headers: STALENESS_HEADER_DOC })
  @ApiProblems(...PATH_PROBLEMS, 'PLAYER_NOT_FOUND', 'DATABASE_UNAVAILABLE')
  profile(
    @Param('id', UuidPipe) id: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PlayerProfileView> {
    return withStalenessHeader(reply, () => this.players.publicProfile(id));
  }
}

@ApiTags('leaderboards')
@Controller('leaderboards')
export class LeaderboardsController {
  constructor(private readonly players: PlayersService) {}

  @Get(':ruleSet/solo')
  @ApiOperation({
    summary: 'Best solo scores of a rule set, one line per player',
    description:
      "Only public one-seat games that finished with advice forbidden and in which the computer made no move (no event with reason timeout, autoScore or computer) count; a player's line is their best such score (the earliest, when equal). High score first, then the earlier finish, then the game id; rank is standard competition ranking (equal scores share a rank). Paged by cursor (docs/api.md#pagination). No token needed.",
  })
  @ApiOkResponse({ type: SoloLeaderboardPage, headers: { ...NEXT_LINK_HEADER, ...STALENESS_HEADER_DOC } })
  @ApiProblems(...PATH_PROBLEMS, 'RULE_SET_NOT_FOUND', 'INVALID_CURSOR', 'DATABASE_UNAVAILABLE')
  async solo(
    @Param('ruleSet') ruleSet: string,
    @Query() q: CursorQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SoloLeaderboardPage> {
    const page = await withStalenessHeader(reply, () => this.players.soloLeaderboard(ruleSet, pageRequest(q)));
    setNextLink(req, reply, page.nextCursor);
    return { items: page.items, nextCursor: page.nextCursor };
  }

  @Get(':ruleSet/tournaments')
  @ApiOperation({
    summary: "Players' records in a rule set's finished public tournaments",
    description:
      "One line per player who entered a finished public tournament of the rule set: wins (ranked first), podiums (first to third), tournaments played and best rank, from each tournament's final standings (docs/tournaments.md §4). Ordered by wins, podiums, tournaments played (descending), then player id; rank is competition ranking by (wins, podiums). Paged by cursor. No token needed.",
  })
  @ApiOkResponse({ type: TournamentLeaderboardPage, headers: { ...NEXT_LINK_HEADER, ...STALENESS_HEADER_DOC } })
  @ApiProblems(...PATH_PROBLEMS, 'RULE_SET_NOT_FOUND', 'INVALID_CURSOR', 'DATABASE_UNAVAILABLE')
  async tournaments(
    @Param('ruleSet') ruleSet: string,
    @Query() q: CursorQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TournamentLeaderboardPage> {
    const page = await withStalenessHeader(reply, () => this.players.tournamentLeaderboard(ruleSet, pageRequest(q)));
    setNextLink(req, reply, page.nextCursor);
    return { items: page.items, nextCursor: page.nextCursor };
  }
}
