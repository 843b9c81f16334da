/**
 * Games never left unrevealed: the handler of the `inactivity` job queue. The job
 * `inactivity:<gameId>` is (re)scheduled by every command that leaves a game open or playing
 * (src/async/async-effects.ts, written with the events), due GAME_EXPIRE_OPEN_AFTER_MS (open) or
 * GAME_ABANDON_AFTER_MS (playing) later. When it comes due and the game is still at the version it
 * was scheduled for, GamesService.abandonInactive ends it (an `abandon` command: `expired` or
 * `inactive`), which makes its server seed public in the game and the audit bundle. A game that
 * moved on makes it a no-op; a job run twice cannot apply twice.
 */
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DomainException } from '../../common/errors';
import { GamesService } from '../../games/games.service';
import { INACTIVITY_QUEUE, InactivityPayload } from '../async-effects';
import { ClaimedJob, JobQueue } from '../jobs/job-queue.service';

@Injectable()
export class InactivityService implements OnModuleInit {
  private readonly logger = new Logger('Inactivity');

  constructor(
    private readonly jobs: JobQueue,
    private readonly games: GamesService,
  ) {}

  onModuleInit(): void {
    this.jobs.register(INACTIVITY_QUEUE, (job) => this.fire(job));
  }

  async fire(job: Pick<ClaimedJob, 'payload'>): Promise<void> {
    const { gameId, version } = job.payload as unknown as InactivityPayload;
    try {
      const ended = await this.games.abandonInactive(gameId, version);
      if (ended)
        this.logger.log(`game ${gameId} v${version} ended for inactivity (${ended.reason}) -> v${ended.version}`);
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
