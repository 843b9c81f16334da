/**
 * The per-player events a command raises (src/player-events; docs/async.md, *Player events*;
 * decision 0116): listed here, pure, from the states before and after a game command or from a
 * tournament command's events, and written as one `player-events` job in the command's own append
 * statement (async-effects.ts), so a committed command always raises them.
 */
import type { ScheduledJob } from './event-store.types';
import type { GameState } from '@fairdice/core/rules/game';
import { computeStandings, type TournamentEvent, type TournamentState } from '@fairdice/core/rules/tournament';
import { isEnded } from '@fairdice/core/rules/game/status';
import type { ChallengeEvent, ChallengeState } from '@fairdice/core/rules/challenge';
import { currentOf, seatedPlayers } from './game-seats';

/** Queue of the per-player events a command raises (src/player-events; docs/async.md, *Player events*). */
export const PLAYER_EVENTS_QUEUE = 'player-events';

/**
 * The types of the per-player event stream (deadlineSoon is raised later by its own job,
 * src/player-events; the stream's resync is no stored event). Names as on the wire (docs/async.md).
 */
export const PLAYER_NOTICE_TYPES = [
  'yourTurn',
  'deadlineSoon',
  'gameStarted',
  'gameFinished',
  'seatTaken',
  'tournamentRoundStarted',
  'tournamentFinished',
  'challengeReceived',
  'challengeAccepted',
  'challengeDeclined',
  'challengeCancelled',
  'challengeExpired',
] as const;
export type PlayerNoticeType = (typeof PLAYER_NOTICE_TYPES)[number];

/** One event for one player's stream; `key` makes storing it idempotent (a job may run twice). */
export interface PlayerNotice {
  playerId: string;
  type: PlayerNoticeType;
  key: string;
  data: Record<string, unknown>;
}

/** Payload of a PLAYER_EVENTS_QUEUE job: the notices of one command, in the order they are stored. */
export interface PlayerEventsPayload {
  notices: PlayerNotice[];
}

/** The one job that stores a command's notices (none when there are none); `id` is the game's or the tournament's. */
export function playerEventsJobs(id: string, version: number, notices: PlayerNotice[]): ScheduledJob[] {
  if (notices.length === 0) return [];
  const payload: PlayerEventsPayload = { notices };
  return [{ queue: PLAYER_EVENTS_QUEUE, key: `player-events:${id}:${version}`, payload: { ...payload }, delayMs: 0 }];
}

/**
 * The per-player events of a game command (docs/async.md, *Player events*): gameStarted to every
 * seated player, yourTurn to the player the game now waits on when the turn passed to them (as the
 * webhook turn.started), gameFinished (with each player's place) when the game ends, seatTaken to
 * the players already seated in an open game when someone takes a seat. Written as one job in the
 * command's own append statement, so a committed command always raises them.
 */
export function gamePlayerNotices(
  before: GameState,
  after: GameState,
  turnDeadlineSeconds: number | null,
  now: Date,
): PlayerNotice[] {
  const notices: PlayerNotice[] = [];
  const game = { gameId: after.id, ruleSet: after.ruleSet, family: after.family, version: after.version };
  const key = (type: string, playerId: string) => `${type}:${after.id}:${after.version}:${playerId}`;
  if (before.status === 'open' && before.version > 0 && (after.status === 'open' || after.status === 'playing')) {
    for (const s of after.seats) {
      const was = before.seats[s.seat]?.playerId ?? null;
      if (was !== null || s.playerId === null) continue;
      const taker = s.playerId;
      const seated = after.seats.filter((x) => x.playerId !== null || x.computer !== null).length;
      for (const playerId of seatedPlayers(after).filter((p) => p !== taker))
        notices.push({
          playerId,
          type: 'seatTaken',
          key: key(`seatTaken${s.seat}`, playerId),
          data: { ...game, seat: s.seat, playerId: taker, seatsTaken: seated, seatCount: after.seatCount },
        });
    }
  }
  const started = before.status !== 'playing' && after.status === 'playing';
  if (started)
    for (const playerId of seatedPlayers(after))
      notices.push({
        playerId,
        type: 'gameStarted',
        key: key('gameStarted', playerId),
        data: {
          ...game,
          seats: after.seats.map((s) => ({ seat: s.seat, playerId: s.playerId, computer: s.computer })),
          tournamentId: after.tournament?.id ?? null,
        },
      });
  const prev = currentOf(before);
  const next = currentOf(after);
  if (next.playerId !== null && (started || prev.playerId !== next.playerId))
    notices.push({
      playerId: next.playerId,
      type: 'yourTurn',
      key: key('yourTurn', next.playerId),
      data: {
        ...game,
        seat: next.seat,
        turnTimeLimitSeconds: after.turnTimeLimitSeconds,
        deadline:
          turnDeadlineSeconds === null ? null : new Date(now.getTime() + turnDeadlineSeconds * 1000).toISOString(),
      },
    });
  if (!isEnded(before.status) && isEnded(after.status))
    for (const playerId of seatedPlayers(after)) {
      const mine = after.seats.filter((s) => s.playerId === playerId).map((s) => s.seat);
      const rows = (after.standings ?? []).filter((r) => mine.includes(r.seat));
      const best = rows.reduce<(typeof rows)[number] | null>((b, r) => (b === null || r.rank < b.rank ? r : b), null);
      notices.push({
        playerId,
        type: 'gameFinished',
        key: key('gameFinished', playerId),
        data: {
          ...game,
          status: after.status,
          seat: best?.seat ?? mine[0] ?? null,
          place: best?.rank ?? null,
          of: after.standings?.length ?? after.seatCount,
          total: best?.total ?? null,
          tournamentId: after.tournament?.id ?? null,
        },
      });
    }
  return notices;
}

/**
 * The per-player events of a tournament command: tournamentRoundStarted to each entrant with their
 * game of the round, tournamentFinished (rank, status) to the organizer and every entrant.
 */
export function tournamentPlayerNotices(after: TournamentState, events: readonly TournamentEvent[]): PlayerNotice[] {
  const notices: PlayerNotice[] = [];
  const base = { tournamentId: after.id, name: after.name, ruleSet: after.ruleSet, version: after.version };
  const key = (type: string, playerId: string) => `${type}:${after.id}:${after.version}:${playerId}`;
  for (const e of events) {
    const d = e.data;
    if (e.type === 'roundStarted') {
      const byNumber = new Map(after.entrants.map((x) => [x.number, x.playerId]));
      for (const g of d.games as Array<{ gameId: string; game: number; table: number; entrants: number[] }>)
        g.entrants.forEach((n, seat) => {
          const playerId = byNumber.get(n);
          if (!playerId) return;
          notices.push({
            playerId,
            type: 'tournamentRoundStarted',
            key: key(`tournamentRoundStarted${g.gameId}`, playerId),
            data: { ...base, round: d.round, gameId: g.gameId, table: g.table, seat },
          });
        });
    } else if (e.type === 'tournamentFinished' || e.type === 'tournamentCancelled') {
      const standings = computeStandings(after);
      const playerIds = [...new Set([after.organizerId, ...after.entrants.map((x) => x.playerId)])];
      for (const playerId of playerIds) {
        const row = standings.find((r) => r.playerId === playerId);
        notices.push({
          playerId,
          type: 'tournamentFinished',
          key: key('tournamentFinished', playerId),
          data: { ...base, status: after.status, rank: row?.rank ?? null, of: standings.length },
        });
      }
    }
  }
  return notices;
}

/** The stream type that tells of each challenge event (challengeCreated is told as challengeReceived). */
const CHALLENGE_NOTICE_OF = {
  challengeCreated: 'challengeReceived',
  challengeAccepted: 'challengeAccepted',
  challengeDeclined: 'challengeDeclined',
  challengeCancelled: 'challengeCancelled',
  challengeExpired: 'challengeExpired',
} as const satisfies Record<ChallengeEvent['type'], PlayerNoticeType>;

/**
 * The per-player events of a challenge command (docs/challenges.md, *What each side is told*):
 * challengeReceived to the challenged player of a direct challenge (an open challenge tells no one:
 * its link is the invitation); every ending (accepted, declined, cancelled, expired) to both sides,
 * the challenger and the opponent (for an open challenge accepted, the taker). `names` are the two
 * players' display names, shown by clients ("Ada challenges you").
 */
export function challengePlayerNotices(
  after: ChallengeState,
  events: readonly ChallengeEvent[],
  names: Record<string, string>,
): PlayerNotice[] {
  const notices: PlayerNotice[] = [];
  const opponentId = after.opponentId ?? after.acceptedBy;
  const data = {
    challengeId: after.id,
    version: after.version,
    status: after.status,
    challengerId: after.challengerId,
    challengerName: names[after.challengerId] ?? null,
    opponentId,
    opponentName: opponentId === null ? null : (names[opponentId] ?? null),
    pool: after.pool,
    rated: after.rated,
    turnTimeLimitSeconds: after.turnTimeLimitSeconds,
    message: after.message,
    expiresAt: after.expiresAt,
    gameId: after.gameId,
    reason: after.declineReason,
  };
  for (const e of events) {
    const type = CHALLENGE_NOTICE_OF[e.type];
    const to = e.type === 'challengeCreated' ? [after.opponentId] : [after.challengerId, opponentId];
    for (const playerId of to)
      if (playerId !== null) notices.push({ playerId, type, key: `${type}:${after.id}:${playerId}`, data });
  }
  return notices;
}
