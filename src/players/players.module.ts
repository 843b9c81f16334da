import { Global, Module } from '@nestjs/common';
import { AuthGuard } from '../common/auth/auth.guard';
import { PlayersController } from './players.controller';
import { PlayersResolver } from './players.resolver';
import { PlayersService } from './players.service';

/** Global so that every module can use AuthGuard (which needs PlayersService). */
@Global()
@Module({
  controllers: [PlayersController],
  providers: [PlayersService, PlayersResolver, AuthGuard],
  exports: [PlayersService, AuthGuard],
})
export class PlayersModule {}
