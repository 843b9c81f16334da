/**
 * The GraphQL WebSocket side of StreamLimits: per-address slots taken at the HTTP upgrade (before
 * graphql-ws allocates anything), per-player slots at connection_init, per-connection
 * subscription slots at subscribe. Every slot is released when its socket or subscription ends.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import proxyAddr from '@fastify/proxy-addr';
import { GraphQLError } from 'graphql';
import type { Context } from 'graphql-ws';
import { bearerToken } from '../../common/http/bearer-token';
import { ERROR_MAP } from '../../common/errors/error-codes';
import { type Slot, type StreamLimits, WS_CLOSE_TOO_MANY_CONNECTIONS } from './stream-limits';

interface ClosableSocket {
  close(code: number, reason: string): void;
  once(event: 'close', listener: () => void): unknown;
}

interface RefusingServer {
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, cb: (ws: ClosableSocket) => void): void;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- ws ships no types here (graphql-ws and Nest use it too)
const { WebSocketServer } = require('ws') as {
  WebSocketServer: new (options: {
    noServer: true;
    handleProtocols: (protocols: Set<string>) => string | false;
  }) => RefusingServer;
};

/** Fastify's trustProxy, as request.ip applies it, for raw upgrade requests. */
export function clientAddressOf(trustProxy: boolean | number | string[]): (req: IncomingMessage) => string {
  if (trustProxy === false) return (req) => req.socket.remoteAddress ?? 'unknown';
  const trust =
    trustProxy === true
      ? () => true
      : typeof trustProxy === 'number'
        ? (_a: string, i: number) => i < trustProxy
        : proxyAddr.compile(trustProxy);
  return (req) => proxyAddr(req, trust);
}

/** The path of the request-target, without the query. */
const pathOf = (url: string | undefined) => (url ?? '').split('?')[0];

/**
 * A WebSocket close frame with code 1001 (going away) and no reason, as a server sends it
 * (unmasked, RFC 6455 section 5.5.1): FIN + opcode 8, payload length 2, the code big-endian.
 */
const CLOSE_GOING_AWAY_FRAME = Buffer.from([0x88, 0x02, 0x03, 0xe9]);

/**
 * Counts every WebSocket upgrade to `path` against its address. Over the cap the handshake is
 * completed by a server of our own (so that a browser sees the close code, not a failed
 * handshake) and the socket closed with 4429 at once; graphql-ws never sees it.
 *
 * Returns what ends the accepted connections at shutdown (app.factory's preClose): each gets a
 * close frame 1001 and its socket ends, so subscriptions stop and clients reconnect elsewhere.
 * An open WebSocket never ends by itself, and the HTTP server's close waits for every socket:
 * without this a shutdown waited SHUTDOWN_TIMEOUT_MS and exited 1.
 */
export function registerWebSocketLimits(
  server: Server,
  limits: StreamLimits,
  addressOf: (req: IncomingMessage) => string,
  path = '/graphql',
): () => void {
  const accepted = new Set<Duplex>();
  // Echo the client's first subprotocol: a browser fails a handshake that drops the one it asked for.
  const refuser = new WebSocketServer({
    noServer: true,
    handleProtocols: (protocols) => protocols.values().next().value ?? false,
  });
  server.prependListener('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (pathOf(req.url) !== path) return;
    const slot = limits.openWebSocket(addressOf(req));
    if (slot) {
      accepted.add(socket);
      socket.once('close', () => {
        accepted.delete(socket);
        slot.release();
      });
      return;
    }
    // Nest's graphql-ws listener takes upgrades whose URL starts with the path: not this one.
    req.url = '/.refused-websocket';
    refuser.handleUpgrade(req, socket, head, (ws) =>
      ws.close(WS_CLOSE_TOO_MANY_CONNECTIONS, 'Too many connections from this address'),
    );
  });
  return () => {
    for (const socket of accepted) socket.end(CLOSE_GOING_AWAY_FRAME);
  };
}

/** The close code of a graphql-ws connection whose token stopped authenticating (graphql-ws's Unauthorized). */
export const WS_CLOSE_TOKEN_REVOKED = 4401;

type Extra = { socket: ClosableSocket; subscriptionSlots?: Map<string, Slot> };

const tokenOf = (params: Record<string, unknown> | undefined): string | null => {
  const p = params ?? {};
  const header = p.authorization ?? p.Authorization ?? (typeof p.token === 'string' ? `Bearer ${p.token}` : undefined);
  return header === undefined ? null : bearerToken(header);
};

/** graphql-ws hooks: the per-player cap at connection_init and the per-connection subscription cap. */
export function graphqlWsLimitHooks(limits: StreamLimits) {
  return {
    connectionInitWaitTimeout: limits.settings.connectionInitTimeoutMs,
    onConnect: async (ctx: Context<Record<string, unknown> | undefined, unknown>) => {
      const extra = ctx.extra as Extra;
      const token = tokenOf(ctx.connectionParams);
      const playerId = token && limits.playerOf ? await limits.playerOf(token) : null;
      // An invalid token is refused later, per subscription (UNAUTHENTICATED), as before.
      if (!token || !playerId) return true;
      const slot = limits.identifyWebSocket(playerId);
      if (!slot) {
        extra.socket.close(WS_CLOSE_TOO_MANY_CONNECTIONS, 'Too many connections for this player');
        return false;
      }
      extra.socket.once('close', () => slot.release());
      // A rotated, revoked or expired token ends the connection and so every subscription on it
      // (4401, graphql-ws's Unauthorized; docs/accounts.md "Scoped tokens").
      const stop = limits.watchToken?.(token, playerId, () =>
        extra.socket.close(WS_CLOSE_TOKEN_REVOKED, 'The token of this connection was revoked'),
      );
      if (stop) extra.socket.once('close', stop);
      return true;
    },
    /** Returns errors when the connection already runs the most subscriptions allowed. */
    takeSubscription: (ctx: Context<Record<string, unknown> | undefined, unknown>, id: string) => {
      const extra = ctx.extra as Extra;
      const slots = (extra.subscriptionSlots ??= new Map());
      const slot = limits.openSubscription(slots.size);
      if (!slot) {
        const max = limits.settings.subscriptionsPerConnection;
        return [
          new GraphQLError(`This connection already runs ${max} subscriptions; complete one first`, {
            extensions: { code: 'TOO_MANY_STREAMS', status: ERROR_MAP.TOO_MANY_STREAMS.status, limit: max },
          }),
        ];
      }
      slots.set(id, slot);
      return null;
    },
    releaseSubscription: (ctx: Context<Record<string, unknown> | undefined, unknown>, id: string) => {
      const slots = (ctx.extra as Extra).subscriptionSlots;
      slots?.get(id)?.release();
      slots?.delete(id);
    },
    onClose: (ctx: Context<Record<string, unknown> | undefined, unknown>) => {
      const slots = (ctx.extra as Extra).subscriptionSlots;
      for (const slot of slots?.values() ?? []) slot.release();
      slots?.clear();
    },
  };
}
