import { Module } from '@nestjs/common';
import { GamesModule } from '../games/games.module';
import { AdviceController } from './advice.controller';
import { AdviceResolver } from './advice.resolver';
import { AdviceService } from './advice.service';
import { AdviceTablesService } from './advice-tables.service';

/** Optimal advice (docs/advice.md): the solved tables, the advice API and post-game analysis. */
@Module({
  imports: [GamesModule],
  controllers: [AdviceController],
  providers: [AdviceTablesService, AdviceService, AdviceResolver],
  exports: [AdviceTablesService],
})
export class AdviceModule {}
