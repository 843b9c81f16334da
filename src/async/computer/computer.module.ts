import { Module } from '@nestjs/common';
import { AdviceModule } from '../../advice/advice.module';
import { GamesModule } from '../../games/games.module';
import { JobsModule } from '../jobs/jobs.module';
import { ComputerService } from './computer.service';
import { ComputerTables } from './computer-tables';

/** Computer seats and auto-score (docs/async.md): their job handlers and the optimal tables they play with. */
@Module({
  imports: [JobsModule, GamesModule, AdviceModule],
  providers: [ComputerService, ComputerTables],
  exports: [ComputerTables],
})
export class ComputerModule {}
