import { Body, Controller, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthGuard, CurrentPlayer } from './auth.guard';
import { AuthenticatedPlayer } from './players.types';
import { PlayersService } from './players.service';
import { RegisterPlayerInput } from './dto/register-player.dto';
import { MeModel, RegisteredPlayerModel, TokenModel } from './dto/player.model';
import { NoFieldsPipe } from '../common/dto/no-fields.pipe';
import { ApiNoFieldsBody, ApiProblems, BODY_PROBLEMS } from '../common/openapi/decorators';

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
  rotate(
    @CurrentPlayer() player: AuthenticatedPlayer,
    @Body(new NoFieldsPipe()) _body: Record<string, never>,
  ): Promise<TokenModel> {
    return this.players.rotateToken(player.id);
  }
}
