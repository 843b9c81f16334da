import { Global, Module } from '@nestjs/common';
import { AuthGuard } from './auth.guard';
import { LeaderboardsController, PlayersController } from './players.controller';
import { PlayersResolver } from './players.resolver';
import { PlayersService } from './players.service';

/** Global so that every module can use AuthGuard (authentication lives here, with the players it finds). */
@Global()
@Module({
  controllers: [PlayersController, LeaderboardsController],
  providers: [PlayersService, PlayersResolver, AuthGuard],
  exports: [PlayersService, AuthGuard],
})
export class PlayersModule {}
