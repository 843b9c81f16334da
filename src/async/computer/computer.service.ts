/**
 * Computer seats and auto-score: the handlers of the `computer` and `auto-score` job queues
 * (docs/async.md). The jobs are written with the events of the command that made them due
 * (src/event-store/async-effects.ts): `computer:<gameId>` at once when the game waits on a
 * computer seat, `auto-score:<gameId>` autoScoreAfterMs after a human seat's last roll of a turn.
 * Each applies only at the version it was scheduled for, through GamesService (append with the
 * expected version): a game that moved on, a retried job or a second instance is a no-op.
 */
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DomainException } from '../../common/errors';
import { GamesService } from '../../games/games.service';
import type { ServiceMoveResult } from '../../games/games.types';
import { AUTO_SCORE_QUEUE, COMPUTER_QUEUE, type ServiceMovePayload } from '../../event-store/async-effects';
import { ClaimedJob, JobOutcome, JobQueue } from '../jobs/job-queue.service';
import { ComputerTables, TABLE_RETRY_MS } from './computer-tables';

@Injectable()
export class ComputerService implements OnModuleInit {
  private readonly logger = new Logger('Computer');

  constructor(
    private readonly jobs: JobQueue,
    private readonly games: GamesService,
    private readonly tables: ComputerTables,
  ) {}

  onModuleInit(): void {
    this.jobs.register(COMPUTER_QUEUE, (job) => this.run(job, 'computer'));
    this.jobs.register(AUTO_SCORE_QUEUE, (job) => this.run(job, 'auto-score'));
  }

  /** Plays the computer seat's turn (or auto-scores), or does nothing when the game moved on. */
  async run(job: Pick<ClaimedJob, 'payload'>, kind: 'computer' | 'auto-score'): Promise<JobOutcome> {
    const { gameId, version } = job.payload as unknown as ServiceMovePayload;
    let result: ServiceMoveResult;
    try {
      result =
        kind === 'computer'
          ? await this.games.computerTurn(gameId, version, this.tables.loader)
          : await this.games.autoScore(gameId, version, this.tables.loader);
    } catch (err) {
      // A rule refusing the move will refuse it again: log and drop. Anything else is retried.
      if (err instanceof DomainException && err.code !== 'DATABASE_UNAVAILABLE' && err.code !== 'INTERNAL') {
        this.logger.warn(`${kind} move in game ${gameId} v${version} refused: ${err.code} ${err.message}`);
        return;
      }
      throw err;
    }
    if (result === 'table-building') return { retryInMs: TABLE_RETRY_MS };
    if (result) this.logger.log(`${kind}: game ${gameId} v${version} -> v${result.version} (${result.events} events)`);
    return;
  }
}
