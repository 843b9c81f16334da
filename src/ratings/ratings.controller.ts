import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CursorQuery } from '../common/dto/pagination';
import { ApiProblems, PATH_PROBLEMS } from '../common/openapi/decorators';
import { NEXT_LINK_HEADER, setNextLink } from '../common/pagination/next-link';
import { pageRequest } from '../common/pagination/page-request';
import { UuidPipe } from '../reliability/http/uuid.pipe';
import { PlayerRatingsList, RatedResultPage, RatingHistoryPage, RatingLeaderboardPage } from './dto/rating.model';
import { RatingsService } from './ratings.service';

@ApiTags('ratings')
@Controller()
export class RatingsController {
  constructor(private readonly ratings: RatingsService) {}

  @Get('ratings/:pool/results')
  @ApiOperation({
    summary: 'The public list of rated results of a pool',
    description:
      "Every finished rated game of the pool in the order it applied to the ratings (seq ascending): its seats with final totals and forfeits, and each player's rating before and after. docs/ratings.md defines the computation, so anyone can recompute every rating from this list. Paged by cursor. No token needed.",
  })
  @ApiOkResponse({ type: RatedResultPage, headers: { ...NEXT_LINK_HEADER } })
  @ApiProblems(...PATH_PROBLEMS, 'RULE_SET_NOT_FOUND', 'INVALID_CURSOR', 'DATABASE_UNAVAILABLE')
  async results(
    @Param('pool') pool: string,
    @Query() q: CursorQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<RatedResultPage> {
    const page = await this.ratings.results(pool, pageRequest(q));
    setNextLink(req, reply, page.nextCursor);
    return { items: page.items, nextCursor: page.nextCursor };
  }

  @Get('leaderboards/:pool/ratings')
  @ApiOperation({
    summary: "A pool's rating leaderboard",
    description:
      'Players with at least RATING_LEADERBOARD_MIN_GAMES (default 5) rated games in the pool and one within the last RATING_LEADERBOARD_ACTIVE_DAYS (default 30) days, by rating (high first), then player id; rank is competition ranking by rating (docs/ratings.md §5). Paged by cursor. No token needed.',
  })
  @ApiOkResponse({ type: RatingLeaderboardPage, headers: { ...NEXT_LINK_HEADER } })
  @ApiProblems(...PATH_PROBLEMS, 'RULE_SET_NOT_FOUND', 'INVALID_CURSOR', 'DATABASE_UNAVAILABLE')
  async leaderboard(
    @Param('pool') pool: string,
    @Query() q: CursorQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<RatingLeaderboardPage> {
    const page = await this.ratings.leaderboard(pool, pageRequest(q));
    setNextLink(req, reply, page.nextCursor);
    return { items: page.items, nextCursor: page.nextCursor };
  }

  @Get('players/:id/ratings')
  @ApiOperation({
    summary: "A player's ratings",
    description:
      "The player's Glicko-2 rating in each pool they played rated games in, with the current deviation and whether it is provisional (docs/ratings.md). Part of the public profile; no token needed.",
  })
  @ApiOkResponse({ type: PlayerRatingsList })
  @ApiProblems(...PATH_PROBLEMS, 'PLAYER_NOT_FOUND', 'DATABASE_UNAVAILABLE')
  async playerRatings(@Param('id', UuidPipe) id: string): Promise<PlayerRatingsList> {
    return { items: await this.ratings.playerRatings(id) };
  }

  @Get('players/:id/ratings/:pool/history')
  @ApiOperation({
    summary: "A player's rating history in a pool",
    description:
      'One line per rated game, newest first: the rating before and after, and the pairwise results. Paged by cursor. No token needed.',
  })
  @ApiOkResponse({ type: RatingHistoryPage, headers: { ...NEXT_LINK_HEADER } })
  @ApiProblems(...PATH_PROBLEMS, 'PLAYER_NOT_FOUND', 'RULE_SET_NOT_FOUND', 'INVALID_CURSOR', 'DATABASE_UNAVAILABLE')
  async history(
    @Param('id', UuidPipe) id: string,
    @Param('pool') pool: string,
    @Query() q: CursorQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<RatingHistoryPage> {
    const page = await this.ratings.history(id, pool, pageRequest(q));
    setNextLink(req, reply, page.nextCursor);
    return { items: page.items, nextCursor: page.nextCursor };
  }
}
