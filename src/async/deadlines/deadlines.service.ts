/**
 * Turn deadlines: the handler of the `deadline` job queue. The job `deadline:<gameId>` is
 * (re)scheduled by every command that leaves the game waiting on a seat with a time limit
 * (src/event-store/async-effects.ts, written with the events). When it comes due, the turn of the
 * seat to move is completed by the computer through GamesService.timeout, at the version the
 * job was scheduled for: if the game moved on meanwhile it is a no-op, and a job run twice
 * (lease expired after a crash) cannot apply twice.
 */
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DomainException } from '../../common/errors';
import { GamesService } from '../../games/games.service';
import { DEADLINE_QUEUE, DeadlinePayload } from '../../event-store/async-effects';
import { ClaimedJob, JobOutcome, JobQueue } from '../jobs/job-queue.service';
import { ComputerTables, TABLE_RETRY_MS } from '../computer/computer-tables';

@Injectable()
export class DeadlinesService implements OnModuleInit {
  private readonly logger = new Logger('Deadlines');

  constructor(
    private readonly jobs: JobQueue,
    private readonly games: GamesService,
    private readonly tables: ComputerTables,
  ) {}

  onModuleInit(): void {
    this.jobs.register(DEADLINE_QUEUE, (job) => this.fire(job));
  }

  /** Completes the timed-out turn, or does nothing when the game moved on. */
  async fire(job: Pick<ClaimedJob, 'payload'>): Promise<JobOutcome> {
    const { gameId, version } = job.payload as unknown as DeadlinePayload;
    try {
      const applied = await this.games.timeout(gameId, version, this.tables.loader);
      if (applied === 'table-building') return { retryInMs: TABLE_RETRY_MS };
      if (applied)
        this.logger.log(
          `deadline fired: game ${gameId} v${version} timed out -> v${applied.version} (${applied.events} events)`,
        );
      else this.logger.log(`deadline fired: game ${gameId} v${version} skipped (the game moved on)`);
    } catch (err) {
      // A rule refusing the timeout will refuse it again: log and drop. Anything else is retried.
      if (err instanceof DomainException && err.code !== 'DATABASE_UNAVAILABLE' && err.code !== 'INTERNAL') {
        this.logger.warn(`timeout of game ${gameId} v${version} refused: ${err.code} ${err.message}`);
        return;
      }
      throw err;
    }
  }
}
