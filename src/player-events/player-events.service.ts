/**
 * The per-player event stream (docs/async.md, *Player events*; decision 0116).
 *
 * - Raised: a game or tournament command lists its players' events (player-notices.ts:
 *   gamePlayerNotices, tournamentPlayerNotices) in one `player-events` job written by the command's
 *   own append statement. This service's handler stores them, in ONE statement, in
 *   `player_events` with each player's next sequence numbers (`player_event_heads.last_seq`, whose
 *   row lock orders concurrent writers: a player's events commit in sequence order), skips any
 *   already stored (unique (player, source): a job run twice stores nothing twice), schedules the
 *   deadlineSoon reminder of a yourTurn with a deadline, and NOTIFYs `fairdice_player_events`
 *   '<playerId>:<seq>' (delivered on commit, to every instance).
 * - Streams (player-event-stream.ts) read the store after their position when woken: by this
 *   instance at once after the insert, by the NOTIFY on the others (through the GameEventBus's
 *   LISTEN session), and all of them after that session reconnects.
 * - Retention: a job (`player-events-prune`, every PLAYER_EVENTS_PRUNE_INTERVAL_MS) deletes events
 *   older than PLAYER_EVENTS_RETENTION_HOURS and records the highest pruned number per player;
 *   a stream opened at or before it starts with a `resync`.
 */
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleInit, Optional } from '@nestjs/common';
import { Pool } from 'pg';
import { DomainException } from '../common/errors';
import { APP_CONFIG, AppConfig } from '../config/config';
import { PG_POOL } from '../database/pg-pool';
import { PLAYER_EVENTS_QUEUE, type PlayerEventsPayload, type PlayerNotice } from '../event-store/player-notices';
import { GameEventBus } from '../games/game-event-bus';
import { type ClaimedJob, type JobOutcome, JobQueue } from '../async/jobs/job-queue.service';
import { PlayersService } from '../players/players.service';
import type { AuthenticatedPlayer } from '../players/players.types';
import { PlayerEventStream, type PlayerEventSource, type PlayerStreamListener } from './player-event-stream';
import {
  DEADLINE_SOON_QUEUE,
  DEFAULT_DEADLINE_SOON_SHARE,
  DEFAULT_PUSH_EVENTS,
  PLAYER_EVENTS_CHANNEL,
  PLAYER_EVENTS_PRUNE_KEY,
  PLAYER_EVENTS_PRUNE_QUEUE,
  PUSH_QUEUE,
  type PlayerEventRecord,
  type PlayerEventType,
} from './player-events.types';
import { namedStatement } from '../database/prepared-statements';
import { UUID_PATTERN as UUID } from '@fairdice/core/fairness/ids';

/** Payload of a DEADLINE_SOON_QUEUE job. */
interface DeadlineSoonPayload {
  gameId: string;
  version: number;
  playerId: string;
  seat: number;
  deadline: string;
}

// One statement: the fresh notices get each player's next numbers, the yourTurn events with a
// deadline schedule their reminder, and every stored event is signalled on commit.
// Every lookup of another table is a correlated probe of its index (EXISTS / LATERAL … OFFSET 0,
// which the planner cannot turn into a join): jsonb_to_recordset is estimated at 100 rows, so as a
// join the generic plan hashed a sequential scan of all players (and of player_events, and of the
// settings) for the one or two notices a command stores: 0.75 ms of PostgreSQL per call, growing
// with the tables, against 0.15 ms now (decision 0155).
export const STORE_SQL = `
WITH input AS (
  SELECT x.player_id, x.type, x.source, x.data, x.ord
    FROM jsonb_to_recordset($1::jsonb) AS x(player_id uuid, type text, source text, data jsonb, ord int)
   WHERE EXISTS (SELECT 1 FROM players p WHERE p.id = x.player_id OFFSET 0)),
fresh AS (
  SELECT i.* FROM input i
   WHERE NOT EXISTS (SELECT 1 FROM player_events e WHERE e.player_id = i.player_id AND e.source = i.source OFFSET 0)),
counts AS (SELECT player_id, count(*)::bigint AS n FROM fresh GROUP BY player_id),
heads AS (
  INSERT INTO player_event_heads AS h (player_id, last_seq)
  SELECT player_id, n FROM counts ORDER BY player_id
  ON CONFLICT (player_id) DO UPDATE SET last_seq = h.last_seq + EXCLUDED.last_seq
  RETURNING h.player_id, h.last_seq),
ins AS (
  INSERT INTO player_events (player_id, seq, type, source, data)
  SELECT f.player_id, hd.last_seq - c.n + row_number() OVER (PARTITION BY f.player_id ORDER BY f.ord),
         f.type, f.source, f.data
    FROM fresh f JOIN counts c USING (player_id) JOIN heads hd USING (player_id)
  ON CONFLICT (player_id, source) DO NOTHING
  RETURNING player_id, seq, type, data, created_at),
soon AS (
  INSERT INTO async_jobs (queue, key, payload, run_at)
  SELECT '${DEADLINE_SOON_QUEUE}', 'deadline-soon:' || (ins.data ->> 'gameId') || ':' || ins.player_id::text,
         jsonb_build_object('gameId', ins.data ->> 'gameId', 'version', (ins.data ->> 'version')::int,
                            'playerId', ins.player_id::text, 'seat', (ins.data ->> 'seat')::int,
                            'deadline', ins.data ->> 'deadline'),
         (ins.data ->> 'deadline')::timestamptz
           - COALESCE(s.deadline_soon_share, $2::float8) * (ins.data ->> 'turnTimeLimitSeconds')::float8 * interval '1 second'
    FROM ins LEFT JOIN LATERAL (
      SELECT deadline_soon_share FROM player_event_settings s WHERE s.player_id = ins.player_id OFFSET 0) s ON true
   WHERE ins.type = 'yourTurn' AND ins.data ->> 'deadline' IS NOT NULL
     AND COALESCE(s.deadline_soon_share, $2::float8) > 0
  ON CONFLICT (key) DO UPDATE
    SET queue = EXCLUDED.queue, payload = EXCLUDED.payload, run_at = EXCLUDED.run_at, attempts = 0,
        revision = async_jobs.revision + 1, locked_by = NULL, last_error = NULL, updated_at = now()),
-- Web Push: one delivery job per subscription of the player, for the types the player pushes.
pushes AS (
  INSERT INTO async_jobs (queue, key, payload, run_at)
  SELECT '${PUSH_QUEUE}', 'push:' || ps.id::text || ':' || ins.seq::text,
         jsonb_build_object('subscriptionId', ps.id::text, 'playerId', ins.player_id::text, 'seq', ins.seq),
         now()
    FROM ins JOIN LATERAL (
      SELECT ps.id FROM push_subscriptions ps WHERE ps.player_id = ins.player_id OFFSET 0) ps ON true
    LEFT JOIN LATERAL (
      SELECT push_events FROM player_event_settings s WHERE s.player_id = ins.player_id OFFSET 0) s ON true
   WHERE ins.type = ANY (COALESCE(s.push_events, $3::text[]))
  ON CONFLICT (key) DO NOTHING)
SELECT ins.player_id::text AS player_id, ins.seq::text AS seq, ins.type, ins.data, ins.created_at,
       pg_notify('${PLAYER_EVENTS_CHANNEL}', ins.player_id::text || ':' || ins.seq::text) AS notified
  FROM ins ORDER BY ins.player_id, ins.seq`;

/** STORE_SQL, prepared on connections that allow it (decision 0152). */
const storeStatement = namedStatement('fairdice_store_player_events', STORE_SQL);

interface EventRow {
  seq: string;
  type: string;
  data: Record<string, unknown>;
  created_at: Date;
}

const toRecord = (r: EventRow): PlayerEventRecord => ({
  seq: Number(r.seq),
  type: r.type as PlayerEventType,
  createdAt: r.created_at.toISOString(),
  data: r.data,
});

/** A Last-Event-ID or `after`: a non-negative integer of at most 15 digits, else 400 INVALID_EVENT_CURSOR. */
export function parseEventCursor(raw: string | number | undefined | null, what: string): number | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const text = String(raw);
  if (!/^\d{1,15}$/.test(text))
    throw new DomainException('INVALID_EVENT_CURSOR', `${what} must be a sequence number of your event stream`);
  return Number(text);
}

@Injectable()
export class PlayerEventsService implements OnModuleInit, OnApplicationBootstrap, PlayerEventSource {
  private readonly logger = new Logger('PlayerEvents');
  private readonly listeners = new Map<string, Set<PlayerStreamListener>>();
  readonly retentionHours: number;
  private readonly pruneIntervalMs: number;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly jobs: JobQueue,
    private readonly bus: GameEventBus,
    private readonly players: PlayersService,
    @Optional() @Inject(APP_CONFIG) config?: AppConfig,
  ) {
    this.retentionHours = config?.PLAYER_EVENTS_RETENTION_HOURS ?? 168;
    this.pruneIntervalMs = config?.PLAYER_EVENTS_PRUNE_INTERVAL_MS ?? 3_600_000;
  }

  onModuleInit(): void {
    this.jobs.register(PLAYER_EVENTS_QUEUE, (job) => this.storeJob(job));
    this.jobs.register(DEADLINE_SOON_QUEUE, (job) => this.deadlineSoon(job));
    this.jobs.register(PLAYER_EVENTS_PRUNE_QUEUE, () => this.pruneJob());
    this.bus.onSignal(
      PLAYER_EVENTS_CHANNEL,
      (payload) => this.onSignal(payload),
      () => {
        for (const id of this.listeners.keys()) this.wakeAll(id);
      },
    );
    // A rotation or a revoked session on this instance ends the player's streams of that token at once.
    this.players.onTokensChanged((playerId) => {
      for (const l of [...(this.listeners.get(playerId) ?? [])]) l.recheck();
    });
  }

  /** The prune job exists once (a singleton key; every instance makes sure of it at start-up). */
  async onApplicationBootstrap(): Promise<void> {
    await this.pool
      .query(
        `INSERT INTO async_jobs (queue, key, payload, run_at)
         VALUES ($1, $2, '{}'::jsonb, now() + $3::float8 * interval '1 millisecond') ON CONFLICT (key) DO NOTHING`,
        [PLAYER_EVENTS_PRUNE_QUEUE, PLAYER_EVENTS_PRUNE_KEY, this.pruneIntervalMs],
      )
      .catch((err) => this.logger.warn(`scheduling the prune job failed: ${(err as Error).message}`));
  }

  private async storeJob(job: ClaimedJob): Promise<JobOutcome> {
    const { notices } = job.payload as unknown as PlayerEventsPayload;
    await this.store(notices ?? []);
  }

  /** Stores notices (idempotent by their key) and wakes the streams; returns what was stored now. */
  async store(notices: readonly PlayerNotice[]): Promise<Array<PlayerEventRecord & { playerId: string }>> {
    if (notices.length === 0) return [];
    const input = notices.map((n, ord) => ({
      player_id: n.playerId,
      type: n.type,
      source: n.key,
      data: n.data,
      ord,
    }));
    const { rows } = await this.pool.query<EventRow & { player_id: string }>(
      storeStatement(this.pool, [JSON.stringify(input), DEFAULT_DEADLINE_SOON_SHARE, DEFAULT_PUSH_EVENTS]),
    );
    const stored = rows.map((r) => ({ ...toRecord(r), playerId: r.player_id }));
    for (const playerId of new Set(stored.map((r) => r.playerId))) this.wakeAll(playerId);
    // Push deliveries written by the statement are due now: claim them without waiting for the poll.
    if (stored.length > 0) this.jobs.wake();
    return stored;
  }

  /**
   * The reminder of a yourTurn: raised only if the game still waits on the player at the version
   * of that yourTurn (no move since), so at most once per turn.
   */
  private async deadlineSoon(job: ClaimedJob): Promise<JobOutcome> {
    const p = job.payload as unknown as DeadlineSoonPayload;
    const { rows } = await this.pool.query<{ version: number; left: number }>(
      `SELECT version, GREATEST(0, extract(epoch FROM turn_deadline - now()))::float8 AS left FROM games
        WHERE id = $1 AND status = 'playing' AND current_player_id = $2 AND turn_deadline IS NOT NULL`,
      [p.gameId, p.playerId],
    );
    const game = rows[0];
    if (!game || game.version !== p.version) return;
    await this.store([
      {
        playerId: p.playerId,
        type: 'deadlineSoon',
        key: `deadlineSoon:${p.gameId}:${p.version}:${p.playerId}`,
        data: {
          gameId: p.gameId,
          version: p.version,
          seat: p.seat,
          deadline: p.deadline,
          secondsLeft: Math.floor(game.left),
        },
      },
    ]);
  }

  private async pruneJob(): Promise<JobOutcome> {
    await this.prune(this.retentionHours * 3_600_000);
    return { retryInMs: this.pruneIntervalMs };
  }

  /** Deletes events older than `olderThanMs` and records the highest number pruned per player. */
  async prune(olderThanMs: number): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>(
      `WITH d AS (
         DELETE FROM player_events WHERE created_at < now() - $1::float8 * interval '1 millisecond'
         RETURNING player_id, seq),
       m AS (SELECT player_id, max(seq) AS s, count(*) AS n FROM d GROUP BY player_id),
       u AS (UPDATE player_event_heads h SET pruned_through = GREATEST(h.pruned_through, m.s)
               FROM m WHERE h.player_id = m.player_id)
       SELECT COALESCE(sum(n), 0)::text AS n FROM m`,
      [olderThanMs],
    );
    return Number(rows[0]?.n ?? 0);
  }

  // --- reading and streaming ---

  async read(playerId: string, after: number, limit: number): Promise<PlayerEventRecord[]> {
    const { rows } = await this.pool.query<EventRow>(
      `SELECT seq::text AS seq, type, data, created_at FROM player_events
        WHERE player_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
      [playerId, after, limit],
    );
    return rows.map(toRecord);
  }

  /** One stored event (null when pruned or never stored). */
  async one(playerId: string, seq: number): Promise<PlayerEventRecord | null> {
    const { rows } = await this.pool.query<EventRow>(
      'SELECT seq::text AS seq, type, data, created_at FROM player_events WHERE player_id = $1 AND seq = $2',
      [playerId, seq],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  subscribe(playerId: string, listener: PlayerStreamListener): () => void {
    let set = this.listeners.get(playerId);
    if (!set) this.listeners.set(playerId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(playerId) === set) this.listeners.delete(playerId);
    };
  }

  /** How many streams this instance holds (the bench and metrics). */
  get openStreams(): number {
    let n = 0;
    for (const s of this.listeners.values()) n += s.size;
    return n;
  }

  /**
   * Opens the stream of `playerId` after `after` (undefined: live only, from the current last
   * number). A position beyond the player's last number is 400 INVALID_EVENT_CURSOR; one at or
   * before the highest pruned number (but not 0 with nothing pruned) starts with a resync.
   */
  async open(playerId: string, after: number | undefined, authorized: () => Promise<boolean>) {
    const { rows } = await this.pool.query<{ last_seq: string; pruned_through: string }>(
      'SELECT last_seq::text, pruned_through::text FROM player_event_heads WHERE player_id = $1',
      [playerId],
    );
    const last = Number(rows[0]?.last_seq ?? 0);
    const pruned = Number(rows[0]?.pruned_through ?? 0);
    const from = after ?? last;
    if (from > last)
      throw new DomainException('INVALID_EVENT_CURSOR', `No event ${from} in your stream yet (the last is ${last})`);
    const resync =
      pruned > 0 && from < pruned ? { kind: 'resync' as const, seq: last, reason: 'retention' as const } : null;
    return new PlayerEventStream(this, playerId, from, authorized, resync).start();
  }

  /** The position to resume from: Last-Event-ID (SSE) first, else `after`; neither: live only. */
  cursor(lastEventId: string | undefined, after: string | number | undefined | null): number | undefined {
    return parseEventCursor(lastEventId, 'Last-Event-ID') ?? parseEventCursor(after, 'after');
  }

  /**
   * The caller's own stream: the player is the token's (there is no parameter naming another), and
   * the stream ends once that token no longer authenticates as them.
   */
  openFor(me: AuthenticatedPlayer, token: string | null, after: number | undefined) {
    const authorized = token
      ? async () => (await this.players.authenticate(token))?.id === me.id
      : () => Promise.resolve(true);
    return this.open(me.id, after, authorized);
  }

  async settings(playerId: string): Promise<{ deadlineSoonShare: number; pushEvents: string[] }> {
    const { rows } = await this.pool.query<{ deadline_soon_share: number | null; push_events: string[] | null }>(
      'SELECT deadline_soon_share, push_events FROM player_event_settings WHERE player_id = $1',
      [playerId],
    );
    return {
      deadlineSoonShare: rows[0]?.deadline_soon_share ?? DEFAULT_DEADLINE_SOON_SHARE,
      pushEvents: rows[0]?.push_events ?? [...DEFAULT_PUSH_EVENTS],
    };
  }

  async updateSettings(
    playerId: string,
    input: { deadlineSoonShare?: number | null; pushEvents?: string[] | null },
  ): Promise<{ deadlineSoonShare: number; pushEvents: string[] }> {
    const pushEvents = input.pushEvents ? [...new Set(input.pushEvents)] : null;
    await this.pool.query(
      `INSERT INTO player_event_settings (player_id, deadline_soon_share, push_events, updated_at)
       VALUES ($1, $2, $3, now())
       ON CONFLICT (player_id) DO UPDATE
         SET deadline_soon_share = COALESCE($2, player_event_settings.deadline_soon_share),
             push_events = COALESCE($3, player_event_settings.push_events), updated_at = now()`,
      [playerId, input.deadlineSoonShare ?? null, pushEvents],
    );
    return this.settings(playerId);
  }

  private wakeAll(playerId: string): void {
    const set = this.listeners.get(playerId);
    if (!set) return;
    for (const l of [...set]) l.wake();
  }

  /** '<playerId>:<seq>' from another instance (or this one: the streams de-duplicate). */
  private onSignal(payload: string): void {
    const playerId = payload.slice(0, payload.indexOf(':'));
    if (!UUID.test(playerId)) return;
    this.wakeAll(playerId);
  }
}
