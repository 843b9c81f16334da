/**
 * The frames of the WebSocket command channel (/v1/ws; docs/api.md "WebSocket command channel",
 * decision 0123): what a client may send, checked by one small zod schema per type, and the close
 * codes. The move names come from the move tables (src/games/moves): a new move is on the channel
 * with no change here.
 */
import { z } from 'zod';
import { GAME_MOVES } from '../moves/game-moves';
import type { GameMove } from '../moves/move-definition';

/** The subprotocol the server speaks (and selects in the handshake). */
export const CHANNEL_PROTOCOL = 'fairdice.v1';
/** A subprotocol carrying the token: `fairdice.token.<token>` (never selected, never echoed). */
export const TOKEN_PROTOCOL_PREFIX = 'fairdice.token.';
/** The channel's path on the service's port. */
export const CHANNEL_PATH = '/v1/ws';
/** Largest frame accepted (bytes), as a REST body: a bigger one closes the socket with 1009. */
export const MAX_FRAME_BYTES = 64 * 1024;

/** Close codes (4xxx: the service's own; 1009 and 1011 are the WebSocket standard's). */
export const CLOSE = {
  /** No `auth` frame (and no token subprotocol) within WS_CONNECTION_INIT_TIMEOUT_MS. */
  AUTH_TIMEOUT: 4408,
  /** The first frame was not `auth`, or its token is not valid. */
  UNAUTHENTICATED: 4401,
  /** Over WS_MAX_CONNECTIONS_PER_ADDRESS or WS_MAX_CONNECTIONS_PER_PLAYER. */
  TOO_MANY_CONNECTIONS: 4429,
  /** The client read too slowly: its unsent frames passed WS_MAX_BUFFERED_BYTES. */
  TOO_SLOW: 4413,
  /** The service shuts down (reconnect to another instance, or later). */
  GOING_AWAY: 1001,
} as const;

/** The moves of the channel, by name: every entry of the tables. */
export const CHANNEL_MOVES: ReadonlyMap<string, GameMove> = new Map(GAME_MOVES.map((m) => [m.name, m]));

/** A client's own id of a frame, echoed in the answer: 1–64 printable ASCII characters. */
const frameId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces');

const gameId = z.string().max(100);

const auth = z.strictObject({ type: z.literal('auth'), token: z.string().min(1).max(512) });

const move = z.strictObject({
  type: z.literal('move'),
  id: frameId,
  gameId,
  command: z.string().min(1).max(64),
  /** The move's input, as the REST body (validated by the same DTO class); absent: {}. */
  args: z.record(z.string(), z.unknown()).optional(),
  /** The version the client decided on; another one is VERSION_CONFLICT. Absent or null: no check. */
  expectedVersion: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable().optional(),
  /** As the Idempotency-Key header (checked by the same parser). */
  idempotencyKey: z.string().max(1000).nullable().optional(),
});

const subscribe = z.strictObject({
  type: z.literal('subscribe'),
  id: frameId,
  gameId,
  /** Resume: only events after this version (default 0: the whole history first). */
  after: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
});

const unsubscribe = z.strictObject({ type: z.literal('unsubscribe'), id: frameId, gameId });

const ping = z.strictObject({ type: z.literal('ping'), id: frameId.optional() });

export const CLIENT_FRAME = z.discriminatedUnion('type', [auth, move, subscribe, unsubscribe, ping]);

export type MoveFrame = z.infer<typeof move>;
export type SubscribeFrame = z.infer<typeof subscribe>;
export type ClientFrame = z.infer<typeof CLIENT_FRAME>;

/** The fields a problem lists, as REST's VALIDATION_FAILED `errors`. */
export function zodProblems(error: z.ZodError): Array<{ field: string; problems: string[] }> {
  const byField = new Map<string, string[]>();
  for (const issue of error.issues) {
    const field = issue.path.length ? issue.path.join('.') : '(frame)';
    const list = byField.get(field) ?? [];
    list.push(issue.message);
    byField.set(field, list);
  }
  return [...byField].map(([field, problems]) => ({ field, problems }));
}

/** The `id` of a frame that failed its schema, when it has a usable one (to answer it). */
export function idOf(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return null;
  const id = (value as { id?: unknown }).id;
  return frameId.safeParse(id).success ? (id as string) : null;
}
