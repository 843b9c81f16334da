/**
 * What a command schedules for async play, decided from the states before and after it (pure:
 * no I/O). The games service passes the result to the event store, which writes it in the SAME
 * statement as the events (see EventStore.append), so nothing is scheduled for a command that
 * did not commit, and nothing is lost for one that did.
 *
 * - Turn deadline: while the game waits on a seat and has a turn time limit, every command
 *   restarts that seat's clock: games.turn_deadline = now() + limit, and the job
 *   `deadline:<gameId>` is (re)scheduled with the version after the command. The key is per game,
 *   so scheduling again replaces the previous deadline; the version in the payload makes the
 *   timeout a no-op when anything happened meanwhile (see DeadlinesService).
 * - Inactivity: the command that creates a game, and the one that starts it, schedule the job
 *   `inactivity:<gameId>`, due GAME_EXPIRE_OPEN_AFTER_MS (open) or GAME_ABANDON_AFTER_MS (playing)
 *   later, payload { gameId, version, afterMs }. Other commands write nothing for it (one row write less
 *   per move): when the job comes due, src/async/inactivity looks at the game's last command
 *   (games.updated_at) and either ends it (an open game expires, a started one is abandoned, and
 *   either way its server seed is revealed) or puts the job off to the period after that command.
 *   A game is never left unrevealed.
 * - Computer seats: whenever a command leaves the game waiting on a seat the computer plays, the
 *   job `computer:<gameId>` (queue `computer`) is due at once, payload { gameId, version, seat }:
 *   its handler (src/async/computer) plays that seat's whole turn as one command, applied only at
 *   that version. Such a seat gets no turn deadline.
 * - Auto-score (five dice with `autoScoreAfterMs`): the command that makes a human seat's third
 *   roll schedules `auto-score:<gameId>` (queue `auto-score`) that many milliseconds later, payload
 *   { gameId, version, seat }; it scores only if the game is still at that version (not scored yet).
 * - Webhooks: one fan-out job per command that starts the game, hands the turn to another player
 *   (turn.started) or finishes the game; the fan-out worker turns it into one delivery per
 *   registered webhook (src/async/webhooks).
 * - Player events: one `player-events` job per command that raises any, listed by
 *   player-notices.ts (src/player-events; docs/async.md, *Player events*).
 *
 * Owned by the event store, below both games (which passes the result to append) and async (whose
 * workers consume these queues and payloads): so games never imports async (docs/architecture.md).
 */
import type { ReadModelUpdate, ScheduledJob } from './event-store.types';
import { familyById } from '@fairdice/core/rules/registry';
import type { GameState } from '@fairdice/core/rules/game';
import { computeStandings, type TournamentEvent, type TournamentState } from '@fairdice/core/rules/tournament';
import { isEnded } from '@fairdice/core/rules/game/status';
import { currentOf, seatedPlayers } from './game-seats';
import { gamePlayerNotices, playerEventsJobs, tournamentPlayerNotices } from './player-notices';

export const DEADLINE_QUEUE = 'deadline';
export const INACTIVITY_QUEUE = 'inactivity';
export const FANOUT_QUEUE = 'webhook-fanout';
export const DELIVERY_QUEUE = 'webhook-delivery';
export const COMPUTER_QUEUE = 'computer';
export const AUTO_SCORE_QUEUE = 'auto-score';

/** A computer seat's turn (COMPUTER_QUEUE) or an auto-score (AUTO_SCORE_QUEUE), due at `version`. */
export interface ServiceMovePayload {
  gameId: string;
  /** The game's version when the job was scheduled: the move applies only at it. */
  version: number;
  seat: number;
}

/** Notices about a game, to its seated players. A webhook registered without `events` gets these. */
export const GAME_WEBHOOK_EVENT_TYPES = ['turn.started', 'game.started', 'game.finished'] as const;
/** Notices about a tournament, to its organizer and entrants (docs/tournaments.md); opt-in. */
export const TOURNAMENT_WEBHOOK_EVENT_TYPES = [
  'tournament.started',
  'round.started',
  'round.finished',
  'tournament.finished',
] as const;
export const WEBHOOK_EVENT_TYPES = [...GAME_WEBHOOK_EVENT_TYPES, ...TOURNAMENT_WEBHOOK_EVENT_TYPES] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export interface DeadlinePayload {
  gameId: string;
  /** The game's version when the deadline was scheduled: the timeout applies only at it. */
  version: number;
  seat: number;
}

export interface InactivityPayload {
  gameId: string;
  /** The game's version when the job was scheduled (for the log; the job reads the game itself). */
  version: number;
  /**
   * The inactivity period the job was scheduled with (the open or the playing one). Every instance
   * that runs the job uses it, so instances configured differently cannot keep putting it off.
   * Absent in jobs written before it existed: the running instance's setting applies.
   */
  afterMs?: number;
}

/** Periods without any command after which the service ends a game (milliseconds). */
export interface InactivityPeriods {
  /** A started game (GAME_ABANDON_AFTER_MS). */
  abandonAfterMs: number;
  /** An open game that never started (GAME_EXPIRE_OPEN_AFTER_MS). */
  expireOpenAfterMs: number;
}

/** Queue of the tournament jobs (src/tournaments): a game of a round ended; a scheduled start. */
export const TOURNAMENT_QUEUE = 'tournament';
export interface TournamentProgressPayload {
  tournamentId: string;
  round: number;
}

/** Queue of rating updates (src/ratings): a rated game finished. */
export const RATING_QUEUE = 'rating';
export interface RatingPayload {
  gameId: string;
}

export interface FanoutNotice {
  type: WebhookEventType;
  playerIds: string[];
  data: Record<string, unknown>;
}

export interface FanoutPayload {
  gameId: string;
  version: number;
  notices: FanoutNotice[];
}

/** The auto-score delay when the game waits for a score after the turn's last roll (the family says), else null. */
function autoScoreDelay(state: GameState): number | null {
  if (state.status !== 'playing' || state.play === null) return null;
  return familyById(state.family).autoScoreDelayMs?.(state.play) ?? null;
}

/** The deadline column and the jobs of a command that took the game from `before` to `after`. */
export function asyncEffects(
  before: GameState,
  after: GameState,
  inactivity?: InactivityPeriods,
  now: Date = new Date(),
): Pick<ReadModelUpdate, 'turnDeadlineSeconds' | 'jobs'> {
  const jobs: ScheduledJob[] = [];
  // Created (version 0 before) or started: (re)schedule; other commands leave the job alone.
  const createdOrStarted = before.version === 0 || before.status !== after.status;
  if (inactivity && createdOrStarted && (after.status === 'open' || after.status === 'playing')) {
    const afterMs = after.status === 'open' ? inactivity.expireOpenAfterMs : inactivity.abandonAfterMs;
    const payload: InactivityPayload = { gameId: after.id, version: after.version, afterMs };
    jobs.push({ queue: INACTIVITY_QUEUE, key: `inactivity:${after.id}`, payload: { ...payload }, delayMs: afterMs });
  }
  const next = currentOf(after);
  const limit = after.turnTimeLimitSeconds;
  let turnDeadlineSeconds: number | null = null;
  const computerOnTurn = next.seat !== null && after.seats[next.seat]?.computer != null;
  if (computerOnTurn) {
    const payload: ServiceMovePayload = { gameId: after.id, version: after.version, seat: next.seat! };
    jobs.push({ queue: COMPUTER_QUEUE, key: `computer:${after.id}`, payload: { ...payload }, delayMs: 0 });
  }
  const autoScoreMs = autoScoreDelay(after);
  if (!computerOnTurn && next.seat !== null && autoScoreMs !== null) {
    const payload: ServiceMovePayload = { gameId: after.id, version: after.version, seat: next.seat };
    jobs.push({
      queue: AUTO_SCORE_QUEUE,
      key: `auto-score:${after.id}`,
      payload: { ...payload },
      delayMs: autoScoreMs,
    });
  }
  if (limit !== null && limit > 0 && next.seat !== null && !computerOnTurn) {
    turnDeadlineSeconds = limit;
    const payload: DeadlinePayload = { gameId: after.id, version: after.version, seat: next.seat };
    jobs.push({ queue: DEADLINE_QUEUE, key: `deadline:${after.id}`, payload: { ...payload }, delayMs: limit * 1000 });
  }

  const notices: FanoutNotice[] = [];
  const game = { gameId: after.id, ruleSet: after.ruleSet, family: after.family, version: after.version };
  const started = before.status !== 'playing' && after.status === 'playing';
  if (started) {
    notices.push({
      type: 'game.started',
      playerIds: seatedPlayers(after),
      data: { ...game, seats: after.seats.map((s) => ({ seat: s.seat, playerId: s.playerId })) },
    });
  }
  const prev = currentOf(before);
  if (next.playerId !== null && (started || prev.playerId !== next.playerId)) {
    notices.push({
      type: 'turn.started',
      playerIds: [next.playerId],
      data: {
        ...game,
        seat: next.seat,
        playerId: next.playerId,
        turnTimeLimitSeconds: limit,
        deadline:
          turnDeadlineSeconds === null ? null : new Date(now.getTime() + turnDeadlineSeconds * 1000).toISOString(),
      },
    });
  }
  if (before.status !== 'finished' && after.status === 'finished') {
    notices.push({
      type: 'game.finished',
      playerIds: seatedPlayers(after),
      data: { ...game, standings: after.standings },
    });
  }
  jobs.push(...playerEventsJobs(after.id, after.version, gamePlayerNotices(before, after, turnDeadlineSeconds, now)));
  // A tournament game that ends wakes its tournament (src/tournaments): the round may be over.
  if (after.tournament && !isEnded(before.status) && isEnded(after.status)) {
    const payload: TournamentProgressPayload = { tournamentId: after.tournament.id, round: after.tournament.round };
    jobs.push({
      queue: TOURNAMENT_QUEUE,
      key: `tournament-progress:${after.tournament.id}:${after.tournament.round}`,
      payload: { ...payload },
      delayMs: 0,
    });
  }
  // A rated game that finishes updates its players' ratings (src/ratings, docs/ratings.md), once.
  if (after.rated && before.status !== 'finished' && after.status === 'finished') {
    const payload: RatingPayload = { gameId: after.id };
    jobs.push({ queue: RATING_QUEUE, key: `rating:${after.id}`, payload: { ...payload }, delayMs: 0 });
  }
  if (notices.length > 0) {
    const payload: FanoutPayload = { gameId: after.id, version: after.version, notices };
    jobs.push({ queue: FANOUT_QUEUE, key: `fanout:${after.id}:${after.version}`, payload: { ...payload }, delayMs: 0 });
  }
  return { turnDeadlineSeconds, jobs };
}

/**
 * The webhook fan-out of a tournament command (written with its events, like a game's): the
 * tournament started, a round started or finished, the tournament finished or was cancelled. Sent to
 * the organizer and every entrant. The fan-out payload's `gameId` is the tournament id and its
 * `version` the tournament's version (the deliveries' key).
 */
export function tournamentEffects(after: TournamentState, events: readonly TournamentEvent[]): ScheduledJob[] {
  const notices: FanoutNotice[] = [];
  const playerIds = [...new Set([after.organizerId, ...after.entrants.map((e) => e.playerId)])];
  const base = {
    tournamentId: after.id,
    name: after.name,
    ruleSet: after.ruleSet,
    format: after.format,
    version: after.version,
  };
  for (const e of events) {
    const d = e.data;
    if (e.type === 'tournamentStarted')
      notices.push({ type: 'tournament.started', playerIds, data: { ...base, entrants: d.entrants } });
    else if (e.type === 'roundStarted') {
      const byNumber = new Map(after.entrants.map((x) => [x.number, x.playerId]));
      const games = (d.games as Array<{ gameId: string; game: number; table: number; entrants: number[] }>).map(
        (g) => ({
          gameId: g.gameId,
          game: g.game,
          table: g.table,
          playerIds: g.entrants.map((n) => byNumber.get(n) ?? null),
        }),
      );
      notices.push({ type: 'round.started', playerIds, data: { ...base, round: d.round, games } });
    } else if (e.type === 'roundFinished')
      notices.push({ type: 'round.finished', playerIds, data: { ...base, round: d.round, roundSeed: d.roundSeed } });
    else if (e.type === 'tournamentFinished' || e.type === 'tournamentCancelled')
      notices.push({
        type: 'tournament.finished',
        playerIds,
        data: {
          ...base,
          status: after.status,
          tournamentSeed: d.tournamentSeed,
          standings: computeStandings(after).map((r) => ({
            rank: r.rank,
            entrant: r.entrant,
            playerId: r.playerId,
            status: r.status,
            totalScore: r.totalScore,
            matchPoints: r.matchPoints,
          })),
        },
      });
  }
  const jobs: ScheduledJob[] = [];
  if (notices.length > 0) {
    const payload: FanoutPayload = { gameId: after.id, version: after.version, notices };
    jobs.push({ queue: FANOUT_QUEUE, key: `fanout:${after.id}:${after.version}`, payload: { ...payload }, delayMs: 0 });
  }
  jobs.push(...playerEventsJobs(after.id, after.version, tournamentPlayerNotices(after, events)));
  return jobs;
}
