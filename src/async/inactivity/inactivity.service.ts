/**
 * Games never left unrevealed: the handler of the `inactivity` job queue. The job
 * `inactivity:<gameId>` is scheduled when a game is created and when it starts
 * (src/event-store/async-effects.ts, written with the events), due GAME_EXPIRE_OPEN_AFTER_MS (open)
 * or GAME_ABANDON_AFTER_MS (playing) later; moves do not touch it. When it comes due:
 * - the game has ended: nothing to do (the job is deleted);
 * - its last command (games.updated_at) is more recent than the period: the job is put off to
 *   the period after that command (lazy rescheduling: one job write per period of activity, not
 *   one per move);
 * - otherwise GamesService.abandonInactive ends it (an `abandon` command: `expired` or
 *   `inactive`), which makes its server seed public in the game and the audit bundle. It applies
 *   only at the version just read, so a command landing meanwhile wins and the job looks again.
 *   A job run twice cannot apply twice.
 *
 * At start-up, every open or playing game without such a job gets one, due the period after its
 * last command (games from before this job existed, or a job row lost by hand): no game can stay
 * unrevealed because its job is missing.
 */
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { Pool } from 'pg';
import { PG_POOL } from '../../database/pg-pool';
import { DomainException } from '../../common/errors';
import { GamesService } from '../../games/games.service';
import { INACTIVITY_QUEUE, InactivityPayload } from '../../event-store/async-effects';
import { ClaimedJob, JobOutcome, JobQueue } from '../jobs/job-queue.service';

@Injectable()
export class InactivityService implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger('Inactivity');

  constructor(
    private readonly jobs: JobQueue,
    private readonly games: GamesService,
    @Inject(PG_POOL) private readonly pool: Pool,
  ) {}

  onModuleInit(): void {
    this.jobs.register(INACTIVITY_QUEUE, (job) => this.fire(job));
  }

  async onApplicationBootstrap(): Promise<void> {
    try {
      const added = await this.ensureJobs();
      if (added > 0) this.logger.log(`scheduled the inactivity job of ${added} game(s) that had none`);
    } catch (err) {
      // The database may be down at start-up; the next start (or the games' next command) schedules them.
      this.logger.warn(`could not check inactivity jobs: ${(err as Error).message}`);
    }
  }

  /** Schedules the job of every open or playing game that has none (one statement; idempotent). */
  async ensureJobs(): Promise<number> {
    const { abandonAfterMs, expireOpenAfterMs } = this.games.inactivity;
    const res = await this.pool.query(
      `INSERT INTO async_jobs (queue, key, payload, run_at)
       SELECT $1, 'inactivity:' || g.id::text,
              jsonb_build_object('gameId', g.id::text, 'version', g.version, 'afterMs', p.ms),
              g.updated_at + p.ms * interval '1 millisecond'
         FROM games g, LATERAL (SELECT CASE WHEN g.status = 'open' THEN $2::float8 ELSE $3::float8 END AS ms) p
        WHERE g.status IN ('open', 'playing')
          AND NOT EXISTS (SELECT 1 FROM async_jobs j WHERE j.key = 'inactivity:' || g.id::text)
       ON CONFLICT (key) DO NOTHING`,
      [INACTIVITY_QUEUE, expireOpenAfterMs, abandonAfterMs],
    );
    return res.rowCount ?? 0;
  }

  async fire(job: Pick<ClaimedJob, 'payload'>): Promise<JobOutcome> {
    const { gameId, afterMs } = job.payload as unknown as InactivityPayload;
    const { abandonAfterMs, expireOpenAfterMs } = this.games.inactivity;
    // Time left before the game counts as inactive, by the database's clock (the one updated_at
    // uses), with the period the job was scheduled with (older jobs: this instance's setting).
    const { rows } = await this.pool.query<{ version: number; left_ms: number }>(
      `SELECT version,
              (extract(epoch FROM updated_at - now()) * 1000
                 + coalesce($4::float8, CASE WHEN status = 'open' THEN $2::float8 ELSE $3::float8 END))::float8 AS left_ms
         FROM games WHERE id = $1::uuid AND status IN ('open', 'playing')`,
      [gameId, expireOpenAfterMs, abandonAfterMs, typeof afterMs === 'number' ? afterMs : null],
    );
    const game = rows[0];
    if (!game) return; // ended (or gone): the job is done
    if (game.left_ms > 0) return { retryInMs: Math.ceil(game.left_ms) }; // played meanwhile: look again then
    const version = game.version;
    try {
      const ended = await this.games.abandonInactive(gameId, version);
      if (ended)
        this.logger.log(`game ${gameId} v${version} ended for inactivity (${ended.reason}) -> v${ended.version}`);
      // A command landed between the read and the abandon: look again shortly.
      else return { retryInMs: 1000 };
    } catch (err) {
      // A rule refusing it will refuse again: log and drop. Anything else is retried.
      if (err instanceof DomainException && err.code !== 'DATABASE_UNAVAILABLE' && err.code !== 'INTERNAL') {
        this.logger.warn(`ending game ${gameId} v${version} refused: ${err.code} ${err.message}`);
        return;
      }
      throw err;
    }
  }
}
