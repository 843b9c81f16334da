/**
 * Web Push (RFC 8030) of a player's events to their browsers, when no page is open (docs/async.md,
 * *Web Push*; decision 0117).
 *
 * - Subscriptions: the endpoint and keys (p256dh, auth) from the browser's PushManager. The endpoint
 *   follows the webhook destination rules (src/async/webhooks/webhook-targets.ts): https and public
 *   addresses only, unless PUSH_ALLOW_PRIVATE_NETWORKS (tests, private deployments: then http and
 *   any address). At most PUSH_MAX_SUBSCRIPTIONS_PER_PLAYER per player; the same endpoint again
 *   replaces its keys.
 * - Deliveries: the statement that stores a player's event also writes one `push` job per
 *   subscription when the event's type is among the player's pushEvents (default yourTurn and
 *   gameFinished). The job encrypts the event (aes128gcm, RFC 8291) and signs the request (VAPID,
 *   RFC 8292) with the maintained `web-push` library (generateRequestDetails), and POSTs it to the
 *   checked address (never following redirects). 2xx: done. 404 or 410: the push service dropped
 *   the subscription, so it is deleted. 429, 5xx, a timeout or a connection error: retried after
 *   PUSH_BACKOFF_BASE_MS × 2^(attempt-1), at most PUSH_MAX_ATTEMPTS attempts. Any other answer: dropped.
 */
import { createPublicKey, randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, OnModuleInit, Optional } from '@nestjs/common';
import { Pool } from 'pg';
import webpush from 'web-push';
import { DomainException } from '../common/errors';
import { APP_CONFIG, AppConfig } from '../config/config';
import { PG_POOL } from '../database/pg-pool';
import { SERVICE_KEYS, type ServiceKeys } from '../keys/service-keys';
import { type ClaimedJob, type JobOutcome, JobQueue } from '../async/jobs/job-queue.service';
import { postToTarget, WebhookTargets } from '../async/webhooks/webhook-targets';
import { PlayerEventsService } from './player-events.service';
import { PUSH_QUEUE, type PlayerEventRecord } from './player-events.types';
import { UUID_PATTERN_ANY_CASE as UUID } from '@fairdice/core/fairness/ids';

export interface PushSubscriptionInput {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface PushSubscriptionView {
  id: string;
  endpoint: string;
  createdAt: Date;
}

interface PushPayload {
  subscriptionId: string;
  playerId: string;
  seq: number | string;
}

/** Seconds a push service keeps an undelivered message (the browser may be offline). */
const PUSH_TTL_SECONDS = 24 * 3600;

/** True when `p256dh` is a base64url uncompressed P-256 point on the curve and `auth` 16 bytes. */
export function validPushKeys(p256dh: unknown, auth: unknown): boolean {
  if (typeof p256dh !== 'string' || typeof auth !== 'string') return false;
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(p256dh) || !/^[A-Za-z0-9_-]+={0,2}$/.test(auth)) return false;
  const point = Buffer.from(p256dh, 'base64url');
  if (point.length !== 65 || point[0] !== 4 || Buffer.from(auth, 'base64url').length !== 16) return false;
  try {
    createPublicKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: point.subarray(1, 33).toString('base64url'),
        y: point.subarray(33).toString('base64url'),
      },
      format: 'jwk',
    });
    return true;
  } catch {
    return false; // not on the curve
  }
}

/** The notification a service worker shows: a title, a body and the page to open. */
export function notificationOf(e: PlayerEventRecord): { title: string; body: string; url: string } {
  const d = e.data as Record<string, string | number | null>;
  const game = d.gameId
    ? `/games/${String(d.gameId)}`
    : d.tournamentId
      ? `/tournaments/${String(d.tournamentId)}`
      : '/';
  switch (e.type) {
    case 'yourTurn':
      return { title: 'Your turn', body: `It is your turn (${String(d.ruleSet)})`, url: game };
    case 'deadlineSoon':
      return { title: 'Your move is due soon', body: `About ${String(d.secondsLeft)} s left`, url: game };
    case 'gameStarted':
      return { title: 'Game started', body: `Your ${String(d.ruleSet)} game started`, url: game };
    case 'gameFinished':
      return {
        title: 'Game over',
        body: d.place === null ? 'The game was abandoned' : `You placed ${String(d.place)} of ${String(d.of)}`,
        url: game,
      };
    case 'seatTaken':
      return {
        title: 'A seat was taken',
        body: `${String(d.seatsTaken)} of ${String(d.seatCount)} seats taken`,
        url: game,
      };
    case 'tournamentRoundStarted':
      return { title: `Round ${String(d.round)} started`, body: String(d.name), url: `/games/${String(d.gameId)}` };
    case 'tournamentFinished':
      return { title: 'Tournament over', body: String(d.name), url: game };
    case 'challengeReceived':
      return {
        title: 'Challenge',
        body: `${String(d.challengerName ?? 'A player')} challenges you (${String(d.pool)}${d.rated ? ', rated' : ''})`,
        url: `/challenge/${String(d.challengeId)}`,
      };
    case 'challengeAccepted':
      return { title: 'Challenge accepted', body: `The ${String(d.pool)} game started`, url: game };
    case 'challengeDeclined':
      return { title: 'Challenge declined', body: `Reason: ${String(d.reason)}`, url: '/' };
    case 'challengeCancelled':
      return { title: 'Challenge cancelled', body: `The ${String(d.pool)} challenge was cancelled`, url: '/' };
    case 'challengeExpired':
      return { title: 'Challenge expired', body: `The ${String(d.pool)} challenge expired unanswered`, url: '/' };
  }
}

@Injectable()
export class PushService implements OnModuleInit {
  private readonly logger = new Logger('WebPush');
  private readonly targets: WebhookTargets;
  private readonly maxPerPlayer: number;
  private readonly maxAttempts: number;
  private readonly backoffMs: number;
  private readonly timeoutMs: number;
  private readonly subject: string;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly jobs: JobQueue,
    private readonly events: PlayerEventsService,
    @Inject(SERVICE_KEYS) private readonly keys: ServiceKeys,
    @Optional() @Inject(APP_CONFIG) config?: AppConfig,
  ) {
    const allowPrivate = config?.PUSH_ALLOW_PRIVATE_NETWORKS ?? false;
    // The webhook destination rules with the push settings: https and public addresses, or anything.
    this.targets = new WebhookTargets({
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: allowPrivate,
      WEBHOOK_REQUIRE_HTTPS: !allowPrivate,
    } as AppConfig);
    this.maxPerPlayer = config?.PUSH_MAX_SUBSCRIPTIONS_PER_PLAYER ?? 10;
    this.maxAttempts = config?.PUSH_MAX_ATTEMPTS ?? 5;
    this.backoffMs = config?.PUSH_BACKOFF_BASE_MS ?? 1000;
    this.timeoutMs = config?.PUSH_TIMEOUT_MS ?? 10_000;
    this.subject = config?.VAPID_SUBJECT ?? 'mailto:operator@fairdice.invalid';
  }

  onModuleInit(): void {
    this.jobs.register(PUSH_QUEUE, (job, signal) => this.deliver(job, signal));
  }

  /** The VAPID public key (PushManager.subscribe's applicationServerKey), or null when push is off. */
  publicKey(): string | null {
    return this.keys.vapid?.publicKey ?? null;
  }

  async create(playerId: string, input: PushSubscriptionInput): Promise<PushSubscriptionView> {
    if (!validPushKeys(input.keys?.p256dh, input.keys?.auth))
      throw new DomainException(
        'INVALID_PUSH_KEYS',
        'keys.p256dh must be a base64url P-256 public key (65 bytes, uncompressed) and keys.auth a base64url 16-byte secret',
      );
    const check = await this.targets.check(input.endpoint);
    if (!check.ok)
      throw new DomainException(
        'PUSH_ENDPOINT_NOT_ALLOWED',
        check.reason === 'https-required' ? 'Push endpoints must use https://' : check.detail,
        { reason: check.reason },
      );
    // One statement: the same endpoint replaces its keys; a new one only while under the limit.
    const { rows } = await this.pool.query<{ id: string; endpoint: string; created_at: Date }>(
      `WITH existing AS (SELECT id FROM push_subscriptions WHERE player_id = $2 AND endpoint = $3),
       upd AS (UPDATE push_subscriptions SET p256dh = $4, auth = $5 WHERE id IN (SELECT id FROM existing)
               RETURNING id, endpoint, created_at),
       ins AS (INSERT INTO push_subscriptions (id, player_id, endpoint, p256dh, auth)
               SELECT $1, $2, $3, $4, $5
                WHERE NOT EXISTS (SELECT 1 FROM existing)
                  AND (SELECT count(*) FROM push_subscriptions WHERE player_id = $2) < $6
               RETURNING id, endpoint, created_at)
       SELECT * FROM upd UNION ALL SELECT * FROM ins`,
      [randomUUID(), playerId, input.endpoint, input.keys.p256dh, input.keys.auth, this.maxPerPlayer],
    );
    if (rows.length === 0)
      throw new DomainException(
        'PUSH_SUBSCRIPTION_LIMIT_REACHED',
        `At most ${this.maxPerPlayer} push subscriptions per player; delete one first`,
      );
    return { id: rows[0].id, endpoint: rows[0].endpoint, createdAt: rows[0].created_at };
  }

  async list(playerId: string): Promise<PushSubscriptionView[]> {
    const { rows } = await this.pool.query<{ id: string; endpoint: string; created_at: Date }>(
      'SELECT id, endpoint, created_at FROM push_subscriptions WHERE player_id = $1 ORDER BY created_at, id',
      [playerId],
    );
    return rows.map((r) => ({ id: r.id, endpoint: r.endpoint, createdAt: r.created_at }));
  }

  async remove(playerId: string, id: string): Promise<void> {
    const found = UUID.test(id)
      ? (await this.pool.query('DELETE FROM push_subscriptions WHERE id = $1 AND player_id = $2', [id, playerId]))
          .rowCount
      : 0;
    if (!found) throw new DomainException('PUSH_SUBSCRIPTION_NOT_FOUND', 'No such push subscription of yours');
  }

  private async deliver(job: ClaimedJob, signal: AbortSignal): Promise<JobOutcome> {
    const p = job.payload as unknown as PushPayload;
    const vapid = this.keys.vapid;
    if (!vapid) return; // push is off (hand-built keys without a VAPID pair)
    const { rows } = await this.pool.query<{ endpoint: string; p256dh: string; auth: string }>(
      'SELECT endpoint, p256dh, auth FROM push_subscriptions WHERE id = $1 AND player_id = $2',
      [p.subscriptionId, p.playerId],
    );
    const sub = rows[0];
    if (!sub) return; // deleted meanwhile
    const event = await this.events.one(p.playerId, Number(p.seq));
    if (!event) return; // pruned
    const payload = JSON.stringify({ ...event, notification: notificationOf(event) });
    const request = webpush.generateRequestDetails(
      { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
      payload,
      {
        vapidDetails: { subject: this.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
        TTL: PUSH_TTL_SECONDS,
        contentEncoding: 'aes128gcm',
        urgency: event.type === 'yourTurn' || event.type === 'deadlineSoon' ? 'high' : 'normal',
      },
    );
    const check = await this.targets.check(sub.endpoint);
    const retry = (error: string): JobOutcome =>
      job.attempts >= this.maxAttempts
        ? this.logger.warn(`push ${job.key} dropped after ${job.attempts} attempts: ${error}`)
        : { retryInMs: this.backoffMs * 2 ** (job.attempts - 1), error };
    if (!check.ok) return retry('refused-address');
    let status: number;
    try {
      status = await postToTarget(
        check.url,
        check.address,
        request.headers,
        request.body,
        AbortSignal.any([signal, AbortSignal.timeout(this.timeoutMs)]),
      );
    } catch (err) {
      return retry((err as Error).name === 'TimeoutError' ? 'timeout' : 'unreachable');
    }
    if (status >= 200 && status < 300) return;
    if (status === 404 || status === 410) {
      await this.pool.query('DELETE FROM push_subscriptions WHERE id = $1', [p.subscriptionId]);
      this.logger.log(`push subscription ${p.subscriptionId} is gone (${status}): deleted`);
      return;
    }
    if (status === 429 || status >= 500) return retry(`http-status ${status}`);
    this.logger.warn(`push ${job.key} refused with ${status}: dropped`);
  }
}
