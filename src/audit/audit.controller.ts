import { RequireScope } from '../players/require-scope';
import { Controller, Get, Param, Query, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { AuthGuard, CurrentPlayer, OptionalAuth } from '../players/auth.guard';
import type { AuthenticatedPlayer } from '../players/players.types';
import { AuditService } from './audit.service';
import { AuditQuery } from './dto/audit.dto';
import { ApiProblems, PATH_PROBLEMS, STALENESS_HEADER_DOC } from '../common/openapi/decorators';
import { withStalenessHeader } from '../database/read-routing';

@ApiTags('games')
@ApiBearerAuth()
@UseGuards(AuthGuard)
@Controller('games')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get(':id/audit')
  @OptionalAuth()
  @ApiOperation({
    summary: "The game's audit bundle (public games: anyone; private games: their seats only)",
    description:
      'Rule set and options, players and client seeds, commitment, the server seed once the game has ended, and every event with its command and hashes (docs/fairness.md §5). ' +
      '`?download=1` adds `Content-Disposition: attachment; filename="fairdice-<id>.json"`. Verify offline with `npx fairdice verify <file-or-url>`.',
  })
  @ApiOkResponse({
    schema: { $ref: '#/components/schemas/AuditBundle' },
    headers: { 'Content-Disposition': { $ref: '#/components/headers/ContentDisposition' }, ...STALENESS_HEADER_DOC },
  })
  @ApiProblems(...PATH_PROBLEMS, 'GAME_NOT_FOUND', 'DATABASE_UNAVAILABLE')
  @RequireScope('game:read')
  async get(
    @CurrentPlayer() me: AuthenticatedPlayer | null,
    @Param('id') id: string,
    @Query() q: AuditQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const bundle = await withStalenessHeader(reply, () => this.audit.bundle(me, id));
    if (q.download === '1' || q.download === 'true') {
      reply.header('content-disposition', `attachment; filename="fairdice-${bundle.gameId}.json"`);
    }
    return bundle;
  }
}
