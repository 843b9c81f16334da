/**
 * A new tournament's create command, from what the organizer sent, and the job that starts it at
 * `startsAt`. TournamentsService runs the command (decide → store).
 */
import type { RuleSetName } from '@fairdice/core/rules/registry';
import type { TournamentCommand, TournamentState } from '@fairdice/core/rules/tournament';
import { TOURNAMENT_QUEUE } from '../event-store/async-effects';
import type { ScheduledJob } from '../event-store/event-store.types';
import type { CreateTournamentInput } from './dto/tournament.inputs';

/** The create command of tournament `id`, with the defaults the input leaves out. */
export function createTournamentCommand(
  id: string,
  organizerId: string,
  commitment: string,
  input: CreateTournamentInput,
): TournamentCommand {
  return {
    type: 'create',
    tournamentId: id,
    organizerId,
    commitment,
    at: new Date().toISOString(),
    settings: {
      name: input.name,
      ruleSet: input.ruleSet as RuleSetName,
      options: input.options ?? {},
      format: input.format,
      visibility: input.visibility ?? 'public',
      maxEntrants: input.maxEntrants,
      rounds: input.rounds,
      gamesPerRound: input.gamesPerRound ?? 1,
      tableSizeMin: input.tableSizeMin ?? (input.format === 'tables' ? 2 : 1),
      tableSizeMax: input.tableSizeMax ?? (input.format === 'tables' ? 4 : 1),
      turnTimeLimitSeconds: input.turnTimeLimitSeconds ?? null,
      // Stored normalized (UTC, milliseconds); the DTO checked the ISO 8601 form.
      entryClosesAt: isoOrNull(input.entryClosesAt),
      startsAt: isoOrNull(input.startsAt),
    },
  };
}

/** The scheduled start of a tournament created with `startsAt` (none without). */
export function startJobs(state: TournamentState): ScheduledJob[] {
  if (state.startsAt === null) return [];
  return [
    {
      queue: TOURNAMENT_QUEUE,
      key: `tournament-start:${state.id}`,
      payload: { tournamentId: state.id, kind: 'start' },
      delayMs: Math.max(0, Date.parse(state.startsAt) - Date.now()),
    },
  ];
}

const isoOrNull = (v: string | undefined | null): string | null =>
  v === undefined || v === null || Number.isNaN(Date.parse(v)) ? (v ?? null) : new Date(v).toISOString();
