import { Module } from '@nestjs/common';
import { GamesModule } from '../../games/games.module';
import { JobsModule } from '../jobs/jobs.module';
import { ComputerModule } from '../computer/computer.module';
import { DeadlinesService } from './deadlines.service';

@Module({ imports: [JobsModule, GamesModule, ComputerModule], providers: [DeadlinesService] })
export class DeadlinesModule {}
