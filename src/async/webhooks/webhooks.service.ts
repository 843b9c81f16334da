/**
 * Webhooks: registration (create/list/delete), fan-out and signed delivery with retries.
 *
 * - A player registers URLs; each gets a Standard Webhooks secret (whsec_<base64>), stored to
 *   sign and shown only in the registration response.
 * - Fan-out (queue `webhook-fanout`): the job written with the events that started a game,
 *   handed the turn to someone or finished the game becomes, in ONE statement, one
 *   webhook_deliveries row per matching webhook plus its `webhook-delivery` job. Unique
 *   (webhook, game, version, type) makes a re-run fan-out insert nothing twice.
 * - Delivery (queue `webhook-delivery`): POST the JSON body with webhook-id (the delivery id,
 *   the same on every attempt: receivers de-duplicate with it), webhook-timestamp and
 *   webhook-signature (HMAC-SHA256 by the standardwebhooks library). 2xx = delivered; otherwise
 *   retried after WEBHOOK_BACKOFF_BASE_MS × 2^(attempt-1) (1 s, 2 s, 4 s...) up to
 *   WEBHOOK_MAX_ATTEMPTS (8), then `failed`. Every attempt is recorded on the row. The job lives
 *   in PostgreSQL, so a pending delivery survives restarts and is made by whichever instance
 *   claims it.
 * - Destinations (webhook-targets.ts): public addresses only, checked at registration and again
 *   before every attempt, the connection pinned to the checked address, no redirects followed.
 *   The owner sees a failure as a category (DELIVERY_FAILURES), never the raw error text (which
 *   would make the deliveries list a port scanner); operators get the detail in the log.
 */
import { METRICS, type Metrics } from '../../metrics/metrics';
import { randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, OnModuleInit, Optional } from '@nestjs/common';
import { Pool } from 'pg';
import { Webhook } from 'standardwebhooks';
import { DomainException } from '../../common/errors';
import { cursorPage, decodeCursor, fromMicros, micros, type CursorPage } from '../../common/pagination/cursor';
import type { PageRequest } from '../../common/pagination/page-request';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { PG_POOL } from '../../database/pg-pool';
import { DELIVERY_QUEUE, FANOUT_QUEUE, FanoutPayload, GAME_WEBHOOK_EVENT_TYPES } from '../../event-store/async-effects';
import { ClaimedJob, JobOutcome, JobQueue } from '../jobs/job-queue.service';
import type { CreateWebhookInput, WebhookDeliveryView, WebhookRegistration, WebhookView } from './dto/webhook.dto';
import { postToTarget, WebhookTargets } from './webhook-targets';
import { UUID_PATTERN_ANY_CASE as UUID } from '@fairdice/core/fairness/ids';

/**
 * What the owner is told about a failed attempt (webhook_deliveries.last_error):
 * - timeout: no answer within WEBHOOK_TIMEOUT_MS;
 * - unreachable: the host did not resolve, or the connection was refused or reset;
 * - refused-address: the URL resolves to a non-public address (or is http:// while https is required);
 * - tls: the TLS handshake failed (certificate not valid for the host, expired...);
 * - http-status: the receiver answered outside 2xx (lastStatusCode; redirects are not followed);
 * - interrupted: the attempt was cut by this instance shutting down.
 */
export const DELIVERY_FAILURES = [
  'timeout',
  'unreachable',
  'refused-address',
  'tls',
  'http-status',
  'interrupted',
] as const;
export type DeliveryFailure = (typeof DELIVERY_FAILURES)[number];

/** Rows written before failures were categorised held free text: shown as a category too. */
export function deliveryFailureOf(stored: string | null): DeliveryFailure | null {
  if (stored === null) return null;
  if ((DELIVERY_FAILURES as readonly string[]).includes(stored)) return stored as DeliveryFailure;
  if (/^HTTP \d+/.test(stored)) return 'http-status';
  if (/^timed out/.test(stored)) return 'timeout';
  return 'unreachable';
}

const TLS_ERROR = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/;

/** Webhooks one player may hold. */
export const MAX_WEBHOOKS_PER_PLAYER = 10;

const notFound = () => new DomainException('WEBHOOK_NOT_FOUND', 'No such webhook');

/** A new Standard Webhooks signing secret: whsec_ + base64 of 32 random bytes. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

@Injectable()
export class WebhooksService implements OnModuleInit {
  private readonly logger = new Logger('Webhooks');
  private readonly maxAttempts: number;
  private readonly backoffBaseMs: number;
  private readonly timeoutMs: number;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly jobs: JobQueue,
    private readonly targets: WebhookTargets,
    @Optional() @Inject(APP_CONFIG) config?: AppConfig,
    @Optional() @Inject(METRICS) private readonly metrics?: Metrics,
  ) {
    this.maxAttempts = config?.WEBHOOK_MAX_ATTEMPTS ?? 8;
    this.backoffBaseMs = config?.WEBHOOK_BACKOFF_BASE_MS ?? 1000;
    this.timeoutMs = config?.WEBHOOK_TIMEOUT_MS ?? 10000;
  }

  onModuleInit(): void {
    this.jobs.register(FANOUT_QUEUE, (job) => this.fanOut(job));
    this.jobs.register(DELIVERY_QUEUE, (job, signal) => this.deliver(job, signal));
  }

  // ------------------------------------------------------------------ registration

  async create(playerId: string, input: CreateWebhookInput): Promise<WebhookRegistration> {
    const target = await this.targets.check(input.url);
    if (!target.ok)
      throw new DomainException('WEBHOOK_URL_NOT_ALLOWED', target.detail, {
        reason: target.reason,
        errors: [{ field: 'url', problems: [target.detail] }],
      });
    const id = randomUUID();
    const secret = newWebhookSecret();
    // Without `events`: the game notices (tournament notices are opt-in, docs/tournaments.md).
    const events = input.events?.length ? [...new Set(input.events)] : [...GAME_WEBHOOK_EVENT_TYPES];
    // The limit check and the insert in one statement (no row when the player is at the limit).
    const { rows } = await this.pool.query(
      `INSERT INTO webhooks (id, player_id, url, secret, events, description, created_at)
       SELECT $1, $2, $3, $4, $5::text[], $6, now()
        WHERE (SELECT count(*) FROM webhooks WHERE player_id = $2) < $7
       RETURNING id, url, events, description, created_at`,
      [id, playerId, input.url, secret, events, input.description ?? null, MAX_WEBHOOKS_PER_PLAYER],
    );
    if (rows.length === 0) {
      throw new DomainException(
        'WEBHOOK_LIMIT_REACHED',
        `A player may register at most ${MAX_WEBHOOKS_PER_PLAYER} webhooks; delete one first`,
      );
    }
    return { webhook: toView(rows[0]), secret };
  }

  async list(playerId: string): Promise<WebhookView[]> {
    const { rows } = await this.pool.query(
      'SELECT id, url, events, description, created_at FROM webhooks WHERE player_id = $1 ORDER BY created_at, id',
      [playerId],
    );
    return rows.map(toView);
  }

  /** Deletes the webhook, its deliveries and (by their lookups failing) its pending jobs. */
  async remove(playerId: string, id: string): Promise<void> {
    if (!UUID.test(id)) throw notFound();
    const { rowCount } = await this.pool.query('DELETE FROM webhooks WHERE id = $1 AND player_id = $2', [id, playerId]);
    if (!rowCount) throw notFound();
  }

  /**
   * A webhook's deliveries, newest first: ORDER BY created_at DESC, id DESC (a delivery's key never
   * changes, so paging is stable while deliveries are attempted; new ones are not added to a pass
   * under way). The keyset condition sits in the join, so an owned webhook with no (more)
   * deliveries still gives one row and only an unknown webhook is WEBHOOK_NOT_FOUND.
   */
  async deliveries(playerId: string, id: string, page: PageRequest): Promise<CursorPage<WebhookDeliveryView>> {
    if (!UUID.test(id)) throw notFound();
    const list = `deliveries:${id.toLowerCase()}`;
    const values: unknown[] = [id, playerId];
    const p = (v: unknown) => `$${values.push(v)}`;
    let keyset = '';
    if (page.cursor !== undefined) {
      const [createdMicros, deliveryId] = decodeCursor(page.cursor, list, ['int', 'uuid']);
      keyset = ` AND (d.created_at, d.id) < (${fromMicros(p(createdMicros))}, ${p(deliveryId)}::uuid)`;
    }
    const { rows } = await this.pool.query(
      `SELECT d.id, d.event_type, d.game_id, d.game_version, d.status, d.attempts, d.last_status_code, d.last_error,
              d.next_attempt_at, d.created_at, d.delivered_at, ${micros('d.created_at')} AS created_micros, w.player_id
         FROM webhooks w LEFT JOIN webhook_deliveries d ON d.webhook_id = w.id${keyset}
        WHERE w.id = $1 AND w.player_id = $2
        ORDER BY d.created_at DESC NULLS LAST, d.id DESC LIMIT ${p(page.limit + 1)}`,
      values,
    );
    if (rows.length === 0) throw notFound();
    return cursorPage(
      rows.filter((r) => r.id !== null),
      page.limit,
      list,
      (r) => [Number(r.created_micros), r.id],
      (r): WebhookDeliveryView => ({
        id: r.id,
        eventType: r.event_type,
        gameId: r.game_id,
        gameVersion: r.game_version,
        status: r.status,
        attempts: r.attempts,
        lastStatusCode: r.last_status_code,
        lastError: deliveryFailureOf(r.last_error),
        nextAttemptAt: r.next_attempt_at,
        createdAt: r.created_at,
        deliveredAt: r.delivered_at,
      }),
    );
  }

  // ------------------------------------------------------------------ workers

  /** One delivery row + job per matching webhook, in one statement (idempotent). */
  async fanOut(job: Pick<ClaimedJob, 'payload'>): Promise<void> {
    const { gameId, version, notices } = job.payload as unknown as FanoutPayload;
    const timestamp = new Date().toISOString();
    const rows = notices.flatMap((n) =>
      n.playerIds.map((playerId) => ({
        type: n.type,
        player_id: playerId,
        body: { type: n.type, timestamp, data: n.data },
      })),
    );
    if (rows.length === 0) return;
    const { rows: inserted } = await this.pool.query(
      `WITH d AS (
         INSERT INTO webhook_deliveries (id, webhook_id, event_type, game_id, game_version, payload, status, created_at)
         SELECT gen_random_uuid(), w.id, x.type, $1::uuid, $2::int, x.body, 'pending', now()
           FROM jsonb_to_recordset($3::jsonb) AS x(type text, player_id uuid, body jsonb)
           JOIN webhooks w ON w.player_id = x.player_id AND x.type = ANY(w.events)
         ON CONFLICT (webhook_id, game_id, game_version, event_type) DO NOTHING
         RETURNING id)
       INSERT INTO async_jobs (queue, key, payload, run_at)
       SELECT $4, 'delivery:' || d.id::text, jsonb_build_object('deliveryId', d.id::text), now() FROM d
       ON CONFLICT (key) DO NOTHING
       RETURNING id`,
      [gameId, version, JSON.stringify(rows), DELIVERY_QUEUE],
    );
    if (inserted.length > 0) this.jobs.wake();
  }

  /** One attempt of one delivery (see the file comment). */
  async deliver(job: Pick<ClaimedJob, 'payload'>, signal?: AbortSignal): Promise<JobOutcome> {
    const deliveryId = String(job.payload.deliveryId);
    const { rows } = await this.pool.query(
      `SELECT d.id, d.payload, d.status, d.attempts, w.url, w.secret
         FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id WHERE d.id = $1`,
      [deliveryId],
    );
    const d = rows[0];
    if (!d || d.status !== 'pending') return; // deleted webhook, or already settled
    const attempt: number = d.attempts + 1;
    const body = JSON.stringify(d.payload);
    const now = new Date();
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'fairdice-webhooks/1',
      'webhook-id': d.id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': new Webhook(d.secret).sign(d.id, now, body),
    };
    let statusCode: number | null = null;
    let error: DeliveryFailure | null = null;
    const timeout = AbortSignal.timeout(this.timeoutMs);
    try {
      const target = await this.targets.check(d.url);
      if (!target.ok) {
        error = target.reason === 'unresolvable' ? 'unreachable' : 'refused-address';
        this.logger.warn(`webhook delivery ${d.id} not attempted: ${target.detail}`);
      } else {
        statusCode = await postToTarget(
          target.url,
          target.address,
          headers,
          body,
          signal ? AbortSignal.any([signal, timeout]) : timeout,
        );
        if (statusCode < 200 || statusCode >= 300) error = 'http-status';
      }
    } catch (err) {
      const code = (err as NodeJS.ErrnoException)?.code ?? '';
      error = timeout.aborted
        ? 'timeout'
        : signal?.aborted
          ? 'interrupted'
          : TLS_ERROR.test(code)
            ? 'tls'
            : 'unreachable';
      this.logger.warn(`webhook delivery ${d.id} attempt ${attempt}: ${error} (${code || (err as Error)?.message})`);
    }
    const outcome = error === null ? 'delivered' : attempt >= this.maxAttempts ? 'failed' : 'retry';
    this.metrics?.webhookDeliveries.inc({ outcome, reason: error ?? 'none' });
    if (error === null) {
      await this.pool.query(
        `UPDATE webhook_deliveries SET status = 'delivered', attempts = $2, last_status_code = $3, last_error = NULL,
                next_attempt_at = NULL, delivered_at = now() WHERE id = $1`,
        [d.id, attempt, statusCode],
      );
      return;
    }
    if (attempt >= this.maxAttempts) {
      await this.pool.query(
        `UPDATE webhook_deliveries SET status = 'failed', attempts = $2, last_status_code = $3, last_error = $4, next_attempt_at = NULL WHERE id = $1`,
        [d.id, attempt, statusCode, error],
      );
      this.logger.warn(`webhook delivery ${d.id} failed after ${attempt} attempts: ${error}`);
      return;
    }
    const retryInMs = this.backoffBaseMs * 2 ** (attempt - 1);
    await this.pool.query(
      `UPDATE webhook_deliveries SET attempts = $2, last_status_code = $3, last_error = $4,
              next_attempt_at = now() + $5::float8 * interval '1 millisecond' WHERE id = $1`,
      [d.id, attempt, statusCode, error, retryInMs],
    );
    return { retryInMs, error };
  }
}

/** A row of the webhooks table as pg returns it. */
interface WebhookRow {
  id: string;
  url: string;
  events: WebhookView['events'];
  description: WebhookView['description'];
  created_at: Date;
}

const toView = (r: WebhookRow): WebhookView => ({
  id: r.id,
  url: r.url,
  events: r.events,
  description: r.description,
  createdAt: r.created_at,
});
