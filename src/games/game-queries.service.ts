/**
 * Reading games: one game (now, or at a version), its events, live streams, lists, and the replayed
 * state other features read (advice, tournaments). Every read applies the one access rule
 * (maySeeGame): a game the reader may not see is GAME_NOT_FOUND.
 */
import { Injectable, Optional } from '@nestjs/common';
import type { FamilyId } from '@fairdice/core/rules/core/family';
import { emptyGame, evolveGame, type GameEvent, type GameState, maySeeGame } from '@fairdice/core/rules/game';
import { familyById } from '@fairdice/core/rules/registry';
import { DomainException } from '../common/errors';
import { ReadRouter } from '../database/read-routing';
import { cursorPage, decodeCursor, encodeCursor } from '../common/pagination/cursor';
import type { PageRequest } from '../common/pagination/page-request';
import { EventStore, type LoadedGame } from '../event-store/event-store.service';
import { toGameEvent, type GameSummaryRow, type ListPosition } from '../event-store/event-store.types';
import type { AuthenticatedPlayer } from '../players/players.types';
import type { GameSummaryView, GameView } from './dto/game-view.model';
import { GameEventBus } from './game-event-bus';
import { GameEventStream } from './game-stream';
import { buildGameView, toEventView, viewOfLoaded } from './game-view';
import { checkGameId, gameNotFound, type GameEventListPage, type GameListPage } from './games.types';

type Player = AuthenticatedPlayer;

@Injectable()
export class GameQueries {
  constructor(
    private readonly store: EventStore,
    private readonly bus: GameEventBus,
    @Optional() private readonly reads?: ReadRouter,
  ) {}

  /**
   * Each seat's total now, for the service's own use (live tournament standings at tables; never
   * for duplicate games, whose scores stay secret until their round ended). null: no such game.
   */
  async currentTotals(gameId: string): Promise<{ status: string; totals: number[] } | null> {
    const g = await this.store.load(checkGameId(gameId));
    if (!g) return null;
    const standings =
      g.state.standings ?? (g.state.play === null ? null : familyById(g.state.family).standings(g.state.play));
    const totals = g.state.seats.map((s) => standings?.find((x) => x.seat === s.seat)?.total ?? 0);
    return { status: g.state.status, totals };
  }

  /**
   * The game now: from the event store's cache while it is known current (decision 0150), else
   * read; `fresh` always reads (a client's `Cache-Control: no-cache`).
   */
  async get(player: Player | null, gameId: string, opts: { fresh?: boolean } = {}): Promise<GameView> {
    return viewOfLoaded(await this.loadVisible(player, gameId, { current: !opts.fresh }));
  }

  /** My games, newest first (decision 0025: a stable order, so paging neither skips nor repeats). */
  async listMine(player: Player, page: PageRequest): Promise<GameListPage> {
    const rows = await this.store.listMine(player.id, page.limit + 1, this.gamesPosition('games:mine', page));
    return this.gamePage('games:mine', rows, page, player);
  }

  /**
   * Open public games, newest first. A public read: on the standby when DATABASE_READ_URL is set
   * (decision 0091), so a game may still be listed for a moment after it filled up (joining it then
   * answers from the primary).
   */
  async listOpen(player: Player | null, page: PageRequest): Promise<GameListPage> {
    const position = this.gamesPosition('games:open', page);
    const rows = this.reads
      ? await this.reads.read((t) => this.store.listOpen(page.limit + 1, position, t.db))
      : await this.store.listOpen(page.limit + 1, position);
    return this.gamePage('games:open', rows, page, player);
  }

  /**
   * The game's events with version > `after` (or after the `cursor`'s version), oldest first.
   * Events are append-only, so this paging is exact.
   */
  async history(
    player: Player | null,
    gameId: string,
    page: PageRequest & { after?: number },
  ): Promise<GameEventListPage> {
    const g = await this.loadVisible(player, gameId);
    const list = `events:${g.row.id}`;
    if (page.cursor !== undefined && page.after !== undefined)
      throw new DomainException('VALIDATION_FAILED', 'Give either a cursor or `after`, not both');
    const after =
      page.cursor !== undefined ? (decodeCursor(page.cursor, list, ['int'])[0] as number) : (page.after ?? 0);
    const events = await this.store.readEvents(g.row.id, after, page.limit);
    const lastVersion = events.length ? events[events.length - 1].version : after;
    const more = lastVersion < g.state.version && events.length > 0;
    const cursors = events.map((e) => encodeCursor(list, [e.version]));
    return {
      items: events.map(toEventView),
      cursors,
      nextCursor: more ? cursors[cursors.length - 1] : null,
      nextAfter: more ? lastVersion : null,
      family: g.state.family,
    };
  }

  /** The state right after event `version` (replayed from the stored events up to it). */
  async atVersion(player: Player | null, gameId: string, version: number): Promise<GameView> {
    const g = await this.loadVisible(player, gameId);
    if (!Number.isInteger(version) || version < 1 || version > g.state.version) {
      throw new DomainException('VERSION_NOT_FOUND', `The game has versions 1 to ${g.state.version}`, {
        latestVersion: g.state.version,
      });
    }
    const events = await this.store.readEventsUpTo(g.row.id, version);
    let state = emptyGame(g.row.id);
    let lastRolled: Record<string, unknown> | null = null;
    for (const e of events) {
      state = evolveGame(state, toGameEvent(e));
      if (e.type === 'rolled') lastRolled = e.data;
    }
    const head = events[events.length - 1].hash;
    const row = {
      ...g.row,
      updatedAt: events[events.length - 1].createdAt,
      finishedAt: state.status === 'finished' || state.status === 'abandoned' ? g.row.finishedAt : null,
      startedAt: state.status === 'open' ? null : g.row.startedAt,
    };
    return buildGameView(row, state, head, lastRolled, g.names, g.state.status);
  }

  /**
   * Live events after `after` (backlog first), for SSE and GraphQL subscriptions. Access is
   * checked when the stream opens and again on every later event (the stream ends with an
   * AccessRevoked item once the subscriber may no longer see the game).
   */
  async stream(player: Player | null, gameId: string, after = 0): Promise<GameEventStream> {
    return (await this.streamOf(player, gameId, after)).stream;
  }

  /** The stream with the game's family (GraphQL types each event by type and family). */
  async streamOf(
    player: Player | null,
    gameId: string,
    after = 0,
  ): Promise<{ family: FamilyId; stream: GameEventStream }> {
    const g = await this.loadVisible(player, gameId);
    const access = { state: g.state, mayView: (state: GameState) => maySeeGame(state, player) };
    const stream = await new GameEventStream(this.store, this.bus, g.row.id, after, access).start();
    return { family: g.state.family, stream };
  }

  /**
   * The game as the rules see it, for features that read games (advice): its replayed state and,
   * with `withEvents`, every stored event in order. The same access as `get` (GAME_NOT_FOUND).
   */
  async replayed(
    player: Player | null,
    gameId: string,
    withEvents = false,
  ): Promise<{ state: GameState; events: GameEvent[] | null }> {
    const g = await this.loadVisible(player, gameId);
    if (!withEvents) return { state: g.state, events: null };
    const stored = await this.store.readEventsUpTo(g.row.id, g.state.version);
    return { state: g.state, events: stored.map(toGameEvent) };
  }

  /** The game, or GAME_NOT_FOUND for a malformed id, no such game, or one the reader may not see. */
  async loadVisible(player: Player | null, rawId: string, opts: { current?: boolean } = {}): Promise<LoadedGame> {
    const g = await this.store.load(checkGameId(rawId), opts);
    if (!g || !maySeeGame(g.state, player)) throw gameNotFound();
    return g;
  }

  private gamesPosition(list: string, page: PageRequest): ListPosition {
    if (page.cursor === undefined) return { offset: page.offset };
    const [createdMicros, id] = decodeCursor(page.cursor, list, ['int', 'uuid']) as [number, string];
    return { after: { createdMicros, id } };
  }

  private gamePage(list: string, rows: GameSummaryRow[], page: PageRequest, player: Player | null): GameListPage {
    const toItem = (r: GameSummaryRow): GameSummaryView => ({
      id: r.id,
      ruleSet: r.ruleSet,
      family: r.family,
      status: r.status,
      visibility: r.visibility,
      version: r.version,
      seatCount: r.seatCount,
      seatsTaken: r.seatsTaken,
      computerSeats: r.computerSeats,
      creatorId: r.creatorId,
      currentSeat: r.currentSeat,
      currentPlayerId: r.currentPlayerId,
      awaitingMyMove: player !== null && r.status === 'playing' && r.currentPlayerId === player.id,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    });
    const result = cursorPage(rows, page.limit, list, (r) => [r.createdMicros, r.id], toItem);
    // Offsets stay meaningful only for offset paging (a cursor's absolute position is unknown).
    const nextOffset = page.cursor === undefined && result.nextCursor !== null ? (page.offset ?? 0) + page.limit : null;
    return { ...result, nextOffset };
  }
}
