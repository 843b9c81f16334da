/**
 * Seeks (docs/matchmaking.md): a player posts a seek, lists the open ones (the lobby), cancels
 * their own. Creating and cancelling are commands of the seek aggregate through the one command
 * handler (counted, idempotent under their key); the matchmaker (MatchmakerService) pairs them.
 */
import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { checkSeekSpec, type SeekCommand } from '@fairdice/core/rules/seek';
import { isRuleError } from '@fairdice/core/rules/core/errors';
import { CommandHandler, type CommandOptions } from '../commands/command-handler';
import { DomainException } from '../common/errors';
import { cursorPage, decodeCursor, fromMicros, micros, type CursorPage } from '../common/pagination/cursor';
import type { PageRequest } from '../common/pagination/page-request';
import { PG_POOL } from '../database/pg-pool';
import { afterCommit, dbOr, inTransaction } from '../database/unit-of-work';
import { SeekStore } from '../event-store/seek-store.service';
import type { AuthenticatedPlayer } from '../players/players.types';
import type { CreateSeekInput, SeekView } from './dto/seek.dto';
import { MatchmakerService } from './matchmaker.service';
import { SeekAggregate } from './seek-aggregate';

interface SeekRow {
  id: string;
  player_id: string;
  display_name: string;
  pool: string;
  seats: number;
  rated: boolean;
  rating_min: number | null;
  rating_max: number | null;
  turn_time_limit_seconds: number | null;
  status: string;
  game_id: string | null;
  created_at: Date;
  at_us: string;
  rating: number | null;
}

const SELECT = `SELECT s.id, s.player_id, p.display_name, s.pool, s.seats, s.rated, s.rating_min, s.rating_max,
                       s.turn_time_limit_seconds, s.status, s.game_id, s.created_at, ${micros('s.created_at')} AS at_us,
                       r.rating
                  FROM seeks s JOIN players p ON p.id = s.player_id
                  LEFT JOIN ratings r ON r.player_id = s.player_id AND r.pool = s.pool`;

const view = (r: SeekRow): SeekView => ({
  id: r.id,
  playerId: r.player_id,
  playerName: r.display_name,
  pool: r.pool,
  seats: r.seats,
  rated: r.rated,
  ratingMin: r.rating_min,
  ratingMax: r.rating_max,
  turnTimeLimitSeconds: r.turn_time_limit_seconds,
  rating: r.rating,
  status: r.status,
  gameId: r.game_id,
  createdAt: r.created_at,
});

@Injectable()
export class SeeksService {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly handler: CommandHandler,
    private readonly seek: SeekAggregate,
    private readonly store: SeekStore,
    private readonly matchmaker: MatchmakerService,
  ) {}

  /**
   * Posts a seek. The spec is checked first (nothing stored, not even an idempotency key, when it
   * is refused); the open-seek cap is counted under a per-player lock in the seek's transaction,
   * so two concurrent posts cannot both pass it.
   */
  create(player: AuthenticatedPlayer, input: CreateSeekInput, opts: CommandOptions = {}): Promise<SeekView> {
    const spec = { ...input };
    return this.handler.create(
      'seek',
      { operation: 'create', args: spec, actor: player, opts },
      () => {
        const checked = checkSeekSpec(spec);
        if (isRuleError(checked)) throw DomainException.fromRule(checked);
      },
      () =>
        inTransaction(this.pool, async () => {
          const db = dbOr(this.pool);
          await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`seeks:${player.id}`]);
          const open = await db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM seeks WHERE player_id = $1 AND status = 'open'`,
            [player.id],
          );
          const loaded = this.store.fresh(randomUUID());
          const command: SeekCommand = { type: 'create', playerId: player.id, spec, openSeeks: open.rows[0].n };
          const created = await this.seek.append(loaded, this.seek.decide(loaded, command), command);
          afterCommit(() => this.matchmaker.wake());
          return this.get(created.state.id);
        }),
    );
  }

  /** One seek (any status). */
  async get(id: string): Promise<SeekView> {
    const { rows } = await dbOr(this.pool).query<SeekRow>(`${SELECT} WHERE s.id = $1`, [id]);
    if (rows.length === 0) throw new DomainException('SEEK_NOT_FOUND', 'No such seek');
    return view(rows[0]);
  }

  /** The lobby: the open seeks, oldest first (the order the matchmaker serves them in). */
  async list(page: PageRequest): Promise<CursorPage<SeekView>> {
    const key = page.cursor === undefined ? null : decodeCursor(page.cursor, 'seeks', ['int', 'uuid']);
    const { rows } = await this.pool.query<SeekRow>(
      `${SELECT} WHERE s.status = 'open'
         ${key ? `AND (s.created_at, s.id) > (${fromMicros('$2')}, $3)` : ''}
       ORDER BY s.created_at, s.id LIMIT $1`,
      key ? [page.limit + 1, key[0], key[1]] : [page.limit + 1],
    );
    return cursorPage(rows, page.limit, 'seeks', (r) => [Number(r.at_us), r.id], view);
  }

  /**
   * Cancels my open seek. A pass of the matchmaker holds the open seeks' rows while it pairs them:
   * a cancel that raced it and lost (VERSION_CONFLICT) is decided once more on the seek as the
   * pass left it, which says SEEK_NOT_OPEN when it was paired.
   */
  async cancel(player: AuthenticatedPlayer, id: string, opts: CommandOptions = {}): Promise<SeekView> {
    const run = () =>
      this.handler.run(this.seek, {
        operation: 'cancel',
        id,
        args: {},
        actor: player,
        opts,
        build: (): SeekCommand => ({ type: 'cancel', playerId: player.id }),
        respond: (s) => this.get(s.state.id),
      });
    try {
      return await run();
    } catch (err) {
      if (err instanceof DomainException && err.code === 'VERSION_CONFLICT') return run();
      throw err;
    }
  }
}
