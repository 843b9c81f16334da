import { Module } from '@nestjs/common';
import { ScoringController } from './scoring.controller';
import { ScoringResolver } from './scoring.resolver';
import { ScoringService } from './scoring.service';

@Module({ controllers: [ScoringController], providers: [ScoringService, ScoringResolver], exports: [ScoringService] })
export class ScoringModule {}
