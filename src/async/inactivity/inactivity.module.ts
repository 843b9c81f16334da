import { Module } from '@nestjs/common';
import { GamesModule } from '../../games/games.module';
import { JobsModule } from '../jobs/jobs.module';
import { InactivityService } from './inactivity.service';

@Module({ imports: [JobsModule, GamesModule], providers: [InactivityService] })
export class InactivityModule {}
