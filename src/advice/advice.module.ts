import { Module } from '@nestjs/common';
import { AdviceTablesService } from './advice-tables.service';

/** Optimal advice (docs/advice.md): the solved tables, the advice API and post-game analysis. */
@Module({ providers: [AdviceTablesService], exports: [AdviceTablesService] })
export class AdviceModule {}
