/**
 * Cross-instance push: a GameEventBus that also delivers events committed by OTHER instances.
 *
 * - Local publish (this instance's commands) delivers at once, as the in-process bus does.
 * - Every append statement sends NOTIFY fairdice_game_events in the same statement (EventStore,
 *   append-batcher.ts), so the signal is sent exactly when the events commit. With group commit one
 *   statement writes many games and sends ONE notification for all of them:
 *   '<gameId>:<version>,<gameId>:<version>,...' (at most 150 entries each, far below the 8000-byte
 *   limit; a bigger batch sends several). It carries ids, not payloads.
 * - Each instance holds one dedicated pg Client that LISTENs on the channel (reconnecting with
 *   backoff). On a notification for a game that has local subscribers and a version beyond what
 *   they were given, it reads the new events from the event store and publishes them locally.
 *   Reads are serialized per game; GameEventStream de-duplicates by version and fills gaps from
 *   the store, so a duplicate or an out-of-order signal is harmless.
 * - After a reconnect, every game with subscribers is caught up from the store (notifications
 *   sent while disconnected are lost by PostgreSQL). A client that reconnects resumes from its
 *   last version (SSE Last-Event-ID / ?after=, GraphQL afterVersion) through the backlog.
 *
 * Selection (EVENT_BUS): memory = in-process only; postgres = LISTEN/NOTIFY; auto (default) =
 * LISTEN/NOTIFY unless the database is the embedded PGlite, where every connection shares ONE
 * session and a notification reaches only the connection that sent it (tested: docs/async.md).
 */
import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit, Optional } from '@nestjs/common';
import { Client, Pool } from 'pg';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { DATABASE_OPTIONS, DatabaseOptions, PG_POOL } from '../../database/pg-pool';
import { EventStore } from '../../event-store/event-store.service';
import { GAME_EVENTS_CHANNEL, StoredEvent } from '../../event-store/event-store.types';
import { GameEventListener, InProcessGameEventBus } from '../../games/game-event-bus';
import { UUID_PATTERN as UUID } from '@fairdice/core/fairness/ids';

const PAGE = 100;

@Injectable()
export class PostgresGameEventBus extends InProcessGameEventBus implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('GameEventBus');
  private client: Client | null = null;
  private closing = false;
  private reconnectDelayMs = 100;
  private reconnectTimer: NodeJS.Timeout | null = null;
  /** Subscriber count per game (only games with subscribers are followed). */
  private readonly counts = new Map<string, number>();
  /** Highest version handed to local subscribers, per followed game. */
  private readonly delivered = new Map<string, number>();
  private readonly chains = new Map<string, Promise<void>>();
  /** True when LISTEN/NOTIFY is in use. */
  listening = false;
  /** Other channels on the same session (GameEventBus.onSignal), by channel. */
  private readonly signalHandlers = new Map<string, { handler: (payload: string) => void; onResync: () => void }>();

  constructor(
    @Inject(DATABASE_OPTIONS) private readonly db: DatabaseOptions,
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly store: EventStore,
    @Optional() @Inject(APP_CONFIG) private readonly config?: AppConfig,
  ) {
    super();
  }

  async onModuleInit(): Promise<void> {
    const mode = this.config?.EVENT_BUS ?? 'auto';
    // In-process only: this is the one instance, so every commit passes through its cache.
    if (mode === 'memory') return this.store.freshness.single();
    if (mode === 'auto') {
      const { rows } = await this.pool.query<{ v: string }>('SELECT version() AS v');
      if (/pglite/i.test(rows[0]?.v ?? '')) return this.store.freshness.single();
    }
    this.listening = true;
    await this.connect().catch((err) => {
      this.logger.warn(`LISTEN ${GAME_EVENTS_CHANNEL} failed (${(err as Error).message}); retrying`);
      this.reconnectSoon();
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const c = this.client;
    this.client = null;
    await c?.end().catch(() => undefined);
  }

  override publish(gameId: string, events: readonly StoredEvent[]): void {
    if (this.counts.has(gameId)) {
      const top = events.reduce((m, e) => Math.max(m, e.version), 0);
      if (top > (this.delivered.get(gameId) ?? 0)) this.delivered.set(gameId, top);
    }
    super.publish(gameId, events);
  }

  override subscribe(gameId: string, listener: GameEventListener): () => void {
    this.counts.set(gameId, (this.counts.get(gameId) ?? 0) + 1);
    const unsubscribe = super.subscribe(gameId, listener);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      unsubscribe();
      const n = (this.counts.get(gameId) ?? 1) - 1;
      if (n > 0) this.counts.set(gameId, n);
      else {
        this.counts.delete(gameId);
        this.delivered.delete(gameId);
      }
    };
  }

  private async connect(): Promise<void> {
    // LISTEN needs a session of its own: never through a transaction pooler (DATABASE_DIRECT_URL).
    const client = new Client({
      connectionString: this.config?.DATABASE_DIRECT_URL ?? this.db.url,
      application_name: 'fairdice-listen',
      keepAlive: true,
    });
    let failed = false;
    const onFailure = (err?: Error) => {
      if (failed) return;
      failed = true;
      if (this.client === client) {
        // Commits of other instances go unheard from now on: no cached read until LISTEN is back.
        this.store.freshness.deaf();
        this.client = null;
      }
      client.end().catch(() => undefined);
      if (!this.closing) {
        this.logger.warn(`LISTEN connection lost${err ? ` (${err.message})` : ''}; reconnecting`);
        this.reconnectSoon();
      }
    };
    client.on('error', onFailure);
    client.on('end', () => onFailure());
    client.on('notification', (n) => {
      if (!n.payload) return;
      if (n.channel === GAME_EVENTS_CHANNEL) this.onGameSignal(n.payload);
      else this.signalHandlers.get(n.channel)?.handler(n.payload);
    });
    await client.connect();
    await client.query(`LISTEN ${GAME_EVENTS_CHANNEL}`);
    for (const channel of this.signalHandlers.keys()) await client.query(`LISTEN ${channel}`);
    if (this.closing) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    // Hearing every commit again (a new epoch: what was confirmed before may have been missed).
    this.store.freshness.listening();
    this.reconnectDelayMs = 100;
    // Notifications sent while we were not listening are gone: catch up every followed game.
    for (const gameId of this.counts.keys()) this.catchUp(gameId, null);
    for (const { onResync } of this.signalHandlers.values()) onResync();
  }

  override signal(channel: string, payload: string): void {
    if (!this.listening) return;
    this.pool
      .query('SELECT pg_notify($1, $2)', [channel, payload])
      .catch((err) => this.logger.warn(`NOTIFY ${channel} failed: ${(err as Error).message}`));
  }

  override onSignal(channel: string, handler: (payload: string) => void, onResync: () => void): void {
    // A constant of ours, used as an SQL identifier in LISTEN.
    if (!/^[a-z_]+$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
    this.signalHandlers.set(channel, { handler, onResync });
    this.client?.query(`LISTEN ${channel}`).catch((err) => {
      this.logger.warn(`LISTEN ${channel} failed: ${(err as Error).message}`);
    });
  }

  private reconnectSoon(): void {
    if (this.closing || this.reconnectTimer) return;
    const delay = this.reconnectDelayMs;
    this.reconnectDelayMs = Math.min(5000, this.reconnectDelayMs * 2);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect().catch((err) => {
        this.logger.warn(`LISTEN reconnect failed: ${(err as Error).message}`);
        this.reconnectSoon();
      });
    }, delay);
    this.reconnectTimer.unref?.();
  }

  /** '<gameId>:<version>[,<gameId>:<version>...]' (one entry per game of the batch). */
  private onGameSignal(payload: string): void {
    for (const entry of payload.split(',')) this.onEntry(entry);
  }

  private onEntry(payload: string): void {
    const i = payload.lastIndexOf(':');
    const gameId = payload.slice(0, i);
    const version = Number(payload.slice(i + 1));
    if (!UUID.test(gameId) || !Number.isInteger(version)) return;
    // Commands may decide on the event-store cache without reading: drop an entry another instance outdated.
    this.store.noteVersion(gameId, version);
    if (!this.counts.has(gameId)) return;
    if (version <= (this.delivered.get(gameId) ?? 0)) return;
    this.catchUp(gameId, version);
  }

  /** Reads the events after what subscribers got and publishes them locally (serialized per game). */
  private catchUp(gameId: string, signalled: number | null): void {
    const prev = this.chains.get(gameId) ?? Promise.resolve();
    const next = prev
      .then(async () => {
        if (!this.counts.has(gameId)) return;
        const known = this.delivered.get(gameId);
        if (signalled !== null && known !== undefined && signalled <= known) return;
        // Without a known position, start just before the signalled event: the stream fills any gap.
        let after = known ?? (signalled !== null ? signalled - 1 : 0);
        for (;;) {
          const page = await this.store.readEvents(gameId, after, PAGE);
          if (page.length === 0) break;
          after = page[page.length - 1].version;
          this.publish(gameId, page);
          if (page.length < PAGE) break;
        }
      })
      .catch((err) => this.logger.warn(`reading events of ${gameId} failed: ${(err as Error).message}`))
      .finally(() => {
        if (this.chains.get(gameId) === next) this.chains.delete(gameId);
      });
    this.chains.set(gameId, next);
  }
}
