/**
 * The tournaments application service: the ONE entry point of REST and GraphQL for tournaments
 * (docs/tournaments.md). A command reads as: load the tournament's stream → check access →
 * decide (packages/core/src/rules/tournament) → append with the expected version → publish.
 * Rounds are run by the service: starting the tournament creates round 1's games; every
 * tournament game that ends schedules a `tournament` job (src/event-store/async-effects.ts) whose
 * handler here finishes the round once all its games ended, then starts the next round or
 * finishes the tournament. Seeds: docs/fairness.md §10.
 */
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DomainException } from '../common/errors';
import { dbOr, inTransaction } from '../database/unit-of-work';
import { CommandHandler } from '../commands/command-handler';
import { Inject } from '@nestjs/common';
import { Pool } from 'pg';
import { PG_POOL } from '../database/pg-pool';
import { TournamentStore, type LoadedTournament } from '../event-store/tournament-store.service';
import { generateClientSeed, generateServerSeed } from '../fairness/seed-generation';
import { commitmentOf } from '@fairdice/core/fairness/seeds';
import { isRuleError } from '@fairdice/core/rules/core/errors';
import {
  computeStandings,
  decideTournament,
  emptyTournament,
  evolveTournament,
  type GameResult,
  type StandingRow,
  type TournamentCommand,
  type TournamentEvent,
  type TournamentState,
} from '@fairdice/core/rules/tournament';
import { GamesService } from '../games/games.service';
import type { AuthenticatedPlayer } from '../players/players.types';
import { TournamentBus } from './tournament-bus';
import { GameEventBus } from '../games/game-event-bus';
import { StandingsStream } from './standings-stream';
import type { CreateTournamentInput } from './dto/tournament.inputs';
import { decodeCursor, encodeCursor } from '../common/pagination/cursor';
import type { TournamentView } from './dto/tournament.models';
import { toTournamentView } from './tournament-view';
import { maySeeTournament, TournamentAggregate, tournamentNotFound } from './tournament-aggregate';
import { TournamentRounds } from './tournament-rounds.service';
import { createTournamentCommand, startJobs } from './tournament-creation';
import { UUID_PATTERN_ANY_CASE as UUID } from '@fairdice/core/fairness/ids';

type Player = AuthenticatedPlayer;

export function checkTournamentId(id: unknown, field = 'tournamentId'): string {
  if (typeof id !== 'string' || !UUID.test(id)) {
    throw new DomainException('VALIDATION_FAILED', `${field} must be a UUID`, {
      errors: [{ field, problems: [`${field} must be a UUID`] }],
    });
  }
  return id.toLowerCase();
}

export interface TournamentSnapshot {
  state: TournamentState;
  head: string;
  names: Record<string, string>;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The retry and concurrency options of a tournament command, as for game commands
 * (docs/api.md "Idempotency" and "Conditional requests"; decision 0088).
 */
export interface TournamentCommandOptions {
  /** Idempotency-Key header / idempotencyKey argument (validated here: 400 when malformed). */
  idempotencyKey?: string | null;
  /** If-Match: the versions the client expects the tournament at ('*' = any); 412 otherwise. */
  ifMatch?: '*' | number[];
  /** Called when the answer is the stored outcome of an earlier request with the same key. */
  onReplay?: () => void;
}

export interface StandingsSnapshot {
  tournamentId: string;
  version: number;
  status: TournamentState['status'];
  /** True when running games' current totals are counted (tables rounds in progress). */
  live: boolean;
  rows: Array<StandingRow & { displayName: string | null }>;
}

@Injectable()
export class TournamentsService {
  constructor(
    private readonly store: TournamentStore,
    private readonly games: GamesService,
    private readonly bus: TournamentBus,
    private readonly gameBus: GameEventBus,
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly handler: CommandHandler,
    private readonly aggregate: TournamentAggregate,
    private readonly rounds: TournamentRounds,
  ) {}

  // ------------------------------------------------------------------ commands

  async create(
    player: Player,
    input: CreateTournamentInput,
    opts: TournamentCommandOptions = {},
  ): Promise<TournamentView> {
    const request = { operation: 'create', args: input, actor: player, opts };
    return this.handler
      .create('tournament', request, null, async () => toTournamentView(await this.createNow(player, input)))
      .then(replayedView);
  }

  private async createNow(player: Player, input: CreateTournamentInput): Promise<TournamentSnapshot> {
    const id = randomUUID();
    const seed = generateServerSeed();
    const commitment = commitmentOf(seed);
    const command = createTournamentCommand(id, player.id, commitment, input);
    const events = decideTournament(emptyTournament(id), command);
    if (isRuleError(events)) throw DomainException.fromRule(events);
    const state = events.reduce(evolveTournament, emptyTournament(id));
    const t = await this.store.create(
      { id, organizerId: player.id, tournamentSeed: seed.toString('hex'), commitment },
      events,
      command,
      state,
      startJobs(state),
    );
    return this.snapshot(t);
  }

  async register(
    player: Player,
    rawId: string,
    input: { clientSeed?: string | null },
    opts: TournamentCommandOptions = {},
  ): Promise<TournamentView> {
    const given = input.clientSeed ?? null;
    return this.command(player, rawId, true, opts, ['register', { clientSeed: given }], () => ({
      type: 'register',
      playerId: player.id,
      clientSeed: given ?? generateClientSeed(),
      clientSeedGenerated: given === null,
      at: new Date().toISOString(),
    }));
  }

  setOrganizerSeed(
    player: Player,
    rawId: string,
    organizerSeed: string,
    opts: TournamentCommandOptions = {},
  ): Promise<TournamentView> {
    return this.command(player, rawId, false, opts, ['setOrganizerSeed', { organizerSeed }], () => ({
      type: 'setOrganizerSeed',
      playerId: player.id,
      organizerSeed,
    }));
  }

  closeRegistration(player: Player, rawId: string, opts: TournamentCommandOptions = {}): Promise<TournamentView> {
    return this.command(player, rawId, false, opts, ['closeRegistration', {}], () => ({
      type: 'closeRegistration',
      playerId: player.id,
      generatedOrganizerSeed: generateClientSeed(),
    }));
  }

  /** Closes registration if open, starts, creates round 1 (one transaction; `startNow`). */
  async start(player: Player, rawId: string, opts: TournamentCommandOptions = {}): Promise<TournamentView> {
    return this.command(player, rawId, false, opts, ['start', {}], null, async (t) =>
      this.rounds.startNow(t, player.id),
    );
  }

  cancel(player: Player, rawId: string, reason: string, opts: TournamentCommandOptions = {}): Promise<TournamentView> {
    return this.command(
      player,
      rawId,
      false,
      opts,
      ['cancel', { reason }],
      (t) => ({ type: 'cancel', playerId: player.id, reason, tournamentSeed: t.row.tournamentSeed }),
      async (t) => {
        // The tournament seed is public now: every round seed follows from it, so no game stays sealed.
        for (const r of t.state.roundStates) await this.store.unsealRound(t.row.id, r.round);
      },
    );
  }

  /** An entrant withdraws (themselves, or by the organizer), with a reason. */
  withdraw(
    player: Player,
    rawId: string,
    entrantPlayerId: string,
    reason: string,
    opts: TournamentCommandOptions = {},
  ): Promise<TournamentView> {
    return this.entrantCommand('withdraw', player, rawId, entrantPlayerId, reason, opts);
  }

  /** The organizer disqualifies an entrant, with a reason. */
  disqualify(
    player: Player,
    rawId: string,
    entrantPlayerId: string,
    reason: string,
    opts: TournamentCommandOptions = {},
  ): Promise<TournamentView> {
    return this.entrantCommand('disqualify', player, rawId, entrantPlayerId, reason, opts);
  }

  /** A command on one entrant (withdraw, disqualify): the decider says who may send it. */
  private entrantCommand(
    type: 'withdraw' | 'disqualify',
    player: Player,
    rawId: string,
    entrantPlayerId: string,
    reason: string,
    opts: TournamentCommandOptions,
  ): Promise<TournamentView> {
    const entrant = checkTournamentId(entrantPlayerId, 'playerId');
    return this.command(player, rawId, false, opts, [type, { playerId: entrant, reason }], () => ({
      type,
      playerId: player.id,
      entrantPlayerId: entrant,
      reason,
    }));
  }

  // ------------------------------------------------------------------ queries

  async get(player: Player | null, rawId: string): Promise<TournamentSnapshot> {
    return this.snapshot(await this.loadVisible(player, checkTournamentId(rawId), false));
  }

  /** Public tournaments and those the caller organizes or entered, newest first (cursor paging). */
  async list(
    player: Player | null,
    page: { limit: number; cursor?: string },
  ): Promise<{ items: TournamentSnapshot[]; nextCursor: string | null }> {
    const after =
      page.cursor === undefined
        ? null
        : (([createdMicros, id]) => ({ createdMicros: createdMicros as number, id: id as string }))(
            decodeCursor(page.cursor, 'tournaments', ['int', 'uuid']),
          );
    const rows = await this.store.list(player?.id ?? null, page.limit + 1, after);
    const more = rows.length > page.limit;
    const shown = rows.slice(0, page.limit);
    const items: TournamentSnapshot[] = [];
    for (const r of shown) {
      const t = await this.store.load(r.id);
      if (t) items.push(await this.snapshot(t));
    }
    const last = shown[shown.length - 1];
    return { items, nextCursor: more && last ? encodeCursor('tournaments', [last.createdMicros, last.id]) : null };
  }

  /** The tournament's stored events (hash-chained; for audits and replays). */
  async events(player: Player | null, rawId: string) {
    const t = await this.loadVisible(player, checkTournamentId(rawId), false);
    return t.events;
  }

  /**
   * Standings now: finished rounds, plus the current totals of running games at tables. A
   * duplicate round's scores are counted only once the whole round has ended (they would tell
   * the others about the shared dice).
   */
  async standings(player: Player | null, rawId: string): Promise<StandingsSnapshot> {
    const t = await this.loadVisible(player, checkTournamentId(rawId), false);
    return this.standingsOf(t);
  }

  async standingsOf(t: LoadedTournament): Promise<StandingsSnapshot> {
    const s = t.state;
    const running = s.roundStates.find((r) => !r.finished);
    const live: GameResult[] = [];
    if (running && s.format === 'tables') {
      for (const g of running.games) {
        const now = await this.games.currentTotals(g.gameId);
        if (now) live.push({ gameId: g.gameId, scores: now.totals, status: 'finished' });
      }
    }
    const names = await this.names(s);
    return {
      tournamentId: s.id,
      version: s.version,
      status: s.status,
      live: live.length > 0,
      rows: computeStandings(s, live).map((r) => ({ ...r, displayName: names[r.playerId] ?? null })),
    };
  }

  /** Live standings: the current snapshot, then one per change (SSE, GraphQL subscription). */
  async standingsStream(player: Player | null, rawId: string): Promise<StandingsStream> {
    const t = await this.loadVisible(player, checkTournamentId(rawId), false);
    return new StandingsStream(this, this.bus, this.gameBus, t).start();
  }

  /** The tournament as the caller may see it (for streams: checks access, returns the loaded stream). */
  async loadFor(player: Player | null, rawId: string): Promise<LoadedTournament> {
    return this.loadVisible(player, checkTournamentId(rawId), false);
  }

  // ------------------------------------------------------------------ internals

  /**
   * One tournament command through the one command handler (src/commands): load → access →
   * If-Match → decide and append (one transaction) → publish once committed. With an idempotency
   * key the whole command runs in the transaction that stores its outcome, the answered view, so a
   * retry gets the same answer and no second effect. `build` null: the command is `after` alone
   * (start: close, start and round 1 in one transaction).
   */
  private command(
    player: Player,
    rawId: string,
    outsiderMayAct: boolean,
    opts: TournamentCommandOptions,
    [operation, args]: [string, unknown],
    build: ((t: LoadedTournament) => TournamentCommand) | null,
    after?: (t: LoadedTournament) => Promise<LoadedTournament | void>,
  ): Promise<TournamentView> {
    const id = checkTournamentId(rawId);
    return this.handler
      .run<LoadedTournament, TournamentCommand, TournamentEvent, LoadedTournament, TournamentView>(this.aggregate, {
        operation,
        id,
        args,
        actor: player,
        opts,
        outsiderMayAct,
        around: (work) => this.rounds.serialized(id, work),
        ...(build ? { build } : {}),
        act: (t, command) =>
          inTransaction(this.pool, async () => {
            const o = command ? await this.rounds.apply(t, command) : t;
            return (after ? await after(o) : undefined) ?? o;
          }),
        respond: async (out) => toTournamentView(await this.snapshot(out)),
      })
      .then(replayedView);
  }

  /** Private tournaments: only the organizer and entrants (an invitation link lets others register). */
  private async loadVisible(player: Player | null, id: string, outsiderMayAct: boolean): Promise<LoadedTournament> {
    const t = await this.store.load(id);
    if (!t || !maySeeTournament(t.state, player, outsiderMayAct)) throw tournamentNotFound();
    return t;
  }

  private async names(s: TournamentState): Promise<Record<string, string>> {
    const ids = [s.organizerId, ...s.entrants.map((e) => e.playerId)];
    // Inside a command's transaction (an idempotent one holds its connection), on that transaction.
    const { rows } = await dbOr(this.pool).query<{ id: string; display_name: string }>(
      `SELECT id, display_name FROM players WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    return Object.fromEntries(rows.map((r) => [r.id, r.display_name]));
  }

  async snapshot(t: LoadedTournament): Promise<TournamentSnapshot> {
    return {
      state: t.state,
      head: t.head,
      names: await this.names(t.state),
      createdAt: t.row.createdAt,
      updatedAt: t.row.updatedAt,
    };
  }
}

/**
 * A replayed view comes from stored JSON, whose `…At` strings are revived as Dates (GraphQL's
 * DateTime needs them); entryClosesAt and startsAt are ISO strings in the view, as first answered.
 */
function replayedView(v: TournamentView): TournamentView {
  const iso = (d: unknown) => (d instanceof Date ? d.toISOString() : (d as string | null));
  return { ...v, entryClosesAt: iso(v.entryClosesAt), startsAt: iso(v.startsAt) };
}
