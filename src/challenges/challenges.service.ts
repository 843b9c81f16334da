/**
 * Challenges (docs/challenges.md): a player challenges another (or anyone, by link) to a
 * two-player game of a pool, rated or casual, with a time per move and an optional message; the
 * challenged player accepts (the game is created and started in the same transaction) or declines
 * with a reason; the challenger may cancel; an unanswered challenge expires at its expiry time
 * (CHALLENGE_EXPIRY_SECONDS), recorded by a job due then. Every command goes through the one
 * command handler on the challenge aggregate (challenge-aggregate.ts); both sides are told on their
 * event streams (src/player-events).
 */
import { randomUUID } from 'node:crypto';
import { Inject, Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { Pool } from 'pg';
import {
  emptyChallenge,
  statusAt,
  type ChallengeCommand,
  type ChallengeState,
  type DeclineReason,
} from '@fairdice/core/rules/challenge';
import type { RatingPool } from '@fairdice/core/rules/ratings';
import { UUID_PATTERN_ANY_CASE as UUID } from '@fairdice/core/fairness/ids';
import { CommandHandler, type CommandOptions } from '../commands/command-handler';
import { DomainException } from '../common/errors';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { PG_POOL } from '../database/pg-pool';
import { afterCommit, dbOr, inTransaction } from '../database/unit-of-work';
import { ChallengeStore, type LoadedChallenge } from '../event-store/challenge-store.service';
import { type ClaimedJob, type JobOutcome, JobQueue } from '../async/jobs/job-queue.service';
import { GamesService } from '../games/games.service';
import type { AuthenticatedPlayer } from '../players/players.types';
import { CHALLENGE_EXPIRY_QUEUE, ChallengeAggregate, type ChallengeRequest } from './challenge-aggregate';
import type { ChallengePlayerView, ChallengeView, CreateChallengeInput, MyChallengesView } from './dto/challenge.dto';
import { startChallengeGame } from './start-challenge-game';

type Player = AuthenticatedPlayer;

/** How many challenges each list of GET /v1/challenges shows at most (newest first). */
const LIST_MAX = 50;

@Injectable()
export class ChallengesService implements OnModuleInit {
  readonly expirySeconds: number;
  readonly maxPending: number;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly handler: CommandHandler,
    private readonly aggregate: ChallengeAggregate,
    private readonly store: ChallengeStore,
    private readonly games: GamesService,
    private readonly jobs: JobQueue,
    @Optional() @Inject(APP_CONFIG) config?: AppConfig,
  ) {
    this.expirySeconds = config?.CHALLENGE_EXPIRY_SECONDS ?? 86_400;
    this.maxPending = config?.CHALLENGE_MAX_PENDING ?? 20;
  }

  onModuleInit(): void {
    this.jobs.register(CHALLENGE_EXPIRY_QUEUE, (job) => this.expireJob(job));
  }

  // ------------------------------------------------------------------ commands

  /**
   * A new challenge. Refused, with nothing stored: a missing opponent (PLAYER_NOT_FOUND), oneself
   * (CANNOT_CHALLENGE_SELF), more than CHALLENGE_MAX_PENDING pending challenges made
   * (CHALLENGE_LIMIT_REACHED); the input's form is checked by the transports (VALIDATION_FAILED).
   */
  create(me: Player, input: CreateChallengeInput, opts: CommandOptions = {}): Promise<ChallengeView> {
    return this.handler.create('challenge', { operation: 'create', args: input, actor: me, opts }, null, () =>
      inTransaction(this.pool, async () => {
        const opponent = input.opponent ? await this.findPlayer(input.opponent) : null;
        const id = randomUUID();
        const now = new Date();
        const command: ChallengeCommand = {
          type: 'create',
          challengerId: me.id,
          opponentId: opponent?.id ?? null,
          pool: input.pool as RatingPool,
          rated: input.rated === true,
          turnTimeLimitSeconds: input.turnTimeLimitSeconds,
          message: input.message ?? null,
          now: now.toISOString(),
          expiresAt: new Date(now.getTime() + this.expirySeconds * 1000).toISOString(),
        };
        const loaded: LoadedChallenge = { state: emptyChallenge(id) };
        const request: ChallengeRequest = { command, names: await this.names([me.id, opponent?.id]) };
        const events = this.aggregate.decide(loaded, request);
        // One creation at a time per challenger: the cap cannot be passed by racing requests.
        const db = dbOr(this.pool);
        await db.query('SELECT pg_advisory_xact_lock($1::bigint)', [lockKey(me.id)]);
        const { rows } = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM challenges WHERE challenger_id = $1 AND status = 'pending' AND expires_at > now()`,
          [me.id],
        );
        if (rows[0].n >= this.maxPending)
          throw new DomainException(
            'CHALLENGE_LIMIT_REACHED',
            `You have ${rows[0].n} pending challenges, the most allowed (${this.maxPending}); cancel one or wait for an answer`,
            { limit: this.maxPending },
          );
        const appended = await this.aggregate.append(loaded, events, request);
        afterCommit(() => this.jobs.wake());
        return this.view(appended.state);
      }),
    );
  }

  /**
   * Accepts a challenge: records the acceptance and creates and starts its game in one
   * transaction (exactly once: a second acceptance finds the challenge accepted,
   * CHALLENGE_NOT_PENDING). Returns the challenge with its gameId.
   */
  accept(me: Player, id: string, opts: CommandOptions = {}): Promise<ChallengeView> {
    const build = (): ChallengeCommand => ({
      type: 'accept',
      playerId: me.id,
      gameId: randomUUID(),
      now: new Date().toISOString(),
    });
    return this.command(me, id, 'accept', null, opts, build, (c, command) =>
      inTransaction(this.pool, async () => {
        const request: ChallengeRequest = { command, names: await this.names([c.state.challengerId, me.id]) };
        const appended = await this.aggregate.append(c, this.aggregate.decide(c, request), request);
        const s = appended.state;
        await startChallengeGame(this.games, {
          players: [s.challengerId, me.id],
          pool: s.pool,
          rated: s.rated,
          turnTimeLimitSeconds: s.turnTimeLimitSeconds,
          gameId: s.gameId!,
        });
        return appended;
      }),
    );
  }

  decline(me: Player, id: string, reason: DeclineReason, opts: CommandOptions = {}): Promise<ChallengeView> {
    const build = (): ChallengeCommand => ({ type: 'decline', playerId: me.id, reason, now: new Date().toISOString() });
    return this.command(me, id, 'decline', { reason }, opts, build);
  }

  cancel(me: Player, id: string, opts: CommandOptions = {}): Promise<ChallengeView> {
    const build = (): ChallengeCommand => ({ type: 'cancel', playerId: me.id, now: new Date().toISOString() });
    return this.command(me, id, 'cancel', null, opts, build);
  }

  /**
   * One command through the handler. Two racing commands decided on the same version: the
   * second's append finds the version moved on (VERSION_CONFLICT); it is decided once more on
   * the fresh state, which gives the answer a client can act on (CHALLENGE_NOT_PENDING).
   */
  private async command(
    me: Player,
    id: string,
    operation: 'accept' | 'decline' | 'cancel',
    args: unknown,
    opts: CommandOptions,
    build: () => ChallengeCommand,
    act: (c: LoadedChallenge, command: ChallengeCommand) => Promise<LoadedChallenge> = (c, command) =>
      this.appendNamed(c, command),
  ): Promise<ChallengeView> {
    const run = () =>
      this.handler.run(this.aggregate, {
        operation,
        id,
        args,
        actor: me,
        opts,
        build: (): ChallengeRequest => ({ command: build(), names: {} }),
        act: (c: LoadedChallenge, request: ChallengeRequest | null) => act(c, request?.command ?? build()),
        respond: (appended: LoadedChallenge) => this.view(appended.state),
      });
    try {
      return await run();
    } catch (err) {
      if (!(err instanceof DomainException) || err.code !== 'VERSION_CONFLICT') throw err;
      return run();
    }
  }

  /** Decide and append with the players' names in the notices. */
  private async appendNamed(c: LoadedChallenge, command: ChallengeCommand): Promise<LoadedChallenge> {
    const named: ChallengeRequest = { command, names: await this.names([c.state.challengerId, c.state.opponentId]) };
    const appended = await this.aggregate.append(c, this.aggregate.decide(c, named), named);
    afterCommit(() => this.jobs.wake());
    return appended;
  }

  /** The expiry sweep: records challengeExpired once the expiry time passed (a no-op once answered). */
  private async expireJob(job: ClaimedJob): Promise<JobOutcome> {
    const { challengeId, version } = job.payload as { challengeId: string; version: number };
    const out = await this.handler.serviceMove(this.aggregate, challengeId, version, async (c) => {
      const now = new Date();
      if (c.state.status !== 'pending') return null;
      if (statusAt(c.state, now.toISOString()) !== 'expired') return 'later';
      return {
        command: { type: 'expire', now: now.toISOString() },
        names: await this.names([c.state.challengerId, c.state.opponentId]),
      };
    });
    if (out === 'later') {
      const c = await this.store.load(challengeId);
      return { retryInMs: c ? Math.max(10, Date.parse(c.state.expiresAt) - Date.now()) : 1000 };
    }
    if (out) this.jobs.wake();
  }

  // ------------------------------------------------------------------ reads

  /** My pending challenges: to me (incoming) and made by me (outgoing), newest first. */
  async list(me: Player): Promise<MyChallengesView> {
    const { rows } = await this.pool.query<{ id: string; incoming: boolean }>(
      `(SELECT id, true AS incoming, created_at FROM challenges
         WHERE opponent_id = $1 AND status = 'pending' AND expires_at > now() ORDER BY created_at DESC LIMIT $2)
       UNION ALL
       (SELECT id, false AS incoming, created_at FROM challenges
         WHERE challenger_id = $1 AND status = 'pending' AND expires_at > now() ORDER BY created_at DESC LIMIT $2)
       ORDER BY created_at DESC`,
      [me.id, LIST_MAX],
    );
    const views = await Promise.all(rows.map(async (r) => ({ incoming: r.incoming, view: await this.loadView(r.id) })));
    return {
      incoming: views.filter((v) => v.incoming && v.view).map((v) => v.view!),
      outgoing: views.filter((v) => !v.incoming && v.view).map((v) => v.view!),
    };
  }

  /**
   * One challenge: a direct challenge is seen by its two players only (CHALLENGE_NOT_FOUND for
   * anyone else); an open one by anyone with its link (the link page needs no token).
   */
  async get(me: Player | null, id: string): Promise<ChallengeView> {
    const c = await this.store.load(id);
    const s = c?.state;
    const maySee =
      s && (s.opponentId === null || (me !== null && (me.id === s.challengerId || me.id === s.opponentId)));
    if (!s || !maySee) throw new DomainException('CHALLENGE_NOT_FOUND', 'No such challenge');
    return this.view(s);
  }

  private async loadView(id: string): Promise<ChallengeView | null> {
    const c = await this.store.load(id);
    return c ? this.view(c.state) : null;
  }

  private async view(s: ChallengeState): Promise<ChallengeView> {
    const opponentId = s.opponentId ?? s.acceptedBy;
    const players = await this.players([s.challengerId, opponentId]);
    return {
      id: s.id,
      version: s.version,
      status: statusAt(s, new Date().toISOString()) ?? 'pending',
      challenger: players.get(s.challengerId)!,
      opponent: opponentId === null ? null : (players.get(opponentId) ?? null),
      open: s.opponentId === null,
      pool: s.pool,
      rated: s.rated,
      turnTimeLimitSeconds: s.turnTimeLimitSeconds,
      message: s.message,
      createdAt: new Date(s.createdAt),
      expiresAt: new Date(s.expiresAt),
      endedAt: s.endedAt === null ? null : new Date(s.endedAt),
      gameId: s.gameId,
      declineReason: s.declineReason,
      url: `/challenge/${s.id}`,
    };
  }

  /** A player by id (UUID) or username (any case); PLAYER_NOT_FOUND otherwise. */
  private async findPlayer(ref: string): Promise<{ id: string }> {
    const db = dbOr(this.pool);
    const { rows } = UUID.test(ref)
      ? await db.query<{ id: string }>('SELECT id FROM players WHERE id = $1', [ref.toLowerCase()])
      : await db.query<{ id: string }>('SELECT player_id AS id FROM accounts WHERE username_key = lower($1)', [ref]);
    if (rows.length === 0)
      throw new DomainException('PLAYER_NOT_FOUND', `No player with the id or username "${ref}"`, {
        errors: [{ field: 'opponent', problems: ['no such player'] }],
      });
    return rows[0];
  }

  private async players(ids: Array<string | null | undefined>): Promise<Map<string, ChallengePlayerView>> {
    const wanted = [...new Set(ids.filter((x): x is string => typeof x === 'string'))];
    const { rows } = await dbOr(this.pool).query<{ id: string; display_name: string; username: string | null }>(
      `SELECT p.id, p.display_name, a.username FROM players p LEFT JOIN accounts a ON a.player_id = p.id
        WHERE p.id = ANY($1::uuid[])`,
      [wanted],
    );
    return new Map(rows.map((r) => [r.id, { id: r.id, displayName: r.display_name, username: r.username }]));
  }

  private async names(ids: Array<string | null | undefined>): Promise<Record<string, string>> {
    const players = await this.players(ids);
    return Object.fromEntries([...players.values()].map((p) => [p.id, p.displayName]));
  }
}

/** The advisory lock of a challenger's creations: 63 bits of the player id. */
const lockKey = (playerId: string) =>
  BigInt.asIntN(64, BigInt(`0x${playerId.replace(/-/g, '').slice(0, 16)}`)).toString();
