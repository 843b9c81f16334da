/**
 * Tournament enums (GraphQL and OpenAPI names), here in common so that players' public profiles
 * (tournament results) and the tournaments module share one registration of each.
 */
import { registerEnumType } from '@nestjs/graphql';
import { enumOf } from './enums';

export const TOURNAMENT_FORMATS = ['duplicate', 'tables'] as const;
export const TOURNAMENT_STATUSES = ['registering', 'closed', 'running', 'finished', 'cancelled'] as const;
export const ENTRANT_STATUSES = ['active', 'withdrawn', 'disqualified'] as const;
export const TournamentFormatEnum = enumOf(TOURNAMENT_FORMATS);
export const TournamentStatusEnum = enumOf(TOURNAMENT_STATUSES);
export const EntrantStatusEnum = enumOf(ENTRANT_STATUSES);
registerEnumType(TournamentFormatEnum, {
  name: 'TournamentFormat',
  description:
    'duplicate: every entrant plays solo games fed by the same dice stream (five-dice rule sets); tables: entrants are drawn into multiplayer tables each round (every rule set).',
});
registerEnumType(TournamentStatusEnum, {
  name: 'TournamentStatus',
  description: 'registering → closed → running → finished; or cancelled.',
});
registerEnumType(EntrantStatusEnum, { name: 'EntrantStatus', description: 'active, withdrawn or disqualified.' });
