/**
 * The WebSocket command channel (/v1/ws; docs/api.md "WebSocket command channel", decision 0123):
 * one connection, authenticated once, carries a client's moves and the events of the games it
 * follows. A move frame runs the same path as REST (GamesService.move → GameCommands → the one
 * CommandHandler: same rules, idempotency, error codes), charged to the same rate-limit bucket
 * (player:<id>); its answer is REST's compact answer (`Prefer: return=minimal`) with the frame's
 * id. No Nest pipeline per frame: a zod schema for the frame, the move's own DTO class (REST's
 * ValidationPipe, called directly) for its args, then the service.
 *
 * Bounds (decision 0085, docs/operations.md "Live connections"): the WebSocket caps per address
 * (at the upgrade) and per player (at authentication), subscriptions per connection, the time to
 * authenticate; here also commands in flight per connection (WS_MAX_COMMANDS_IN_FLIGHT) and the
 * unsent bytes of a reader (WS_MAX_BUFFERED_BYTES: past it the connection is dropped, as SSE's).
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { strictValidationPipe } from '../../common/errors';
import { NoFieldsPipe } from '../../common/dto/no-fields.pipe';
import { registerWebSocketLimits } from '../../reliability/streams/websocket-limits';
import type { ChannelContext, CommandChannelDeps, Socket } from './channel-context';
import { Connection } from './connection';
import { CHANNEL_PATH, CHANNEL_PROTOCOL, MAX_FRAME_BYTES, TOKEN_PROTOCOL_PREFIX } from './frames';

interface Wss {
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, cb: (ws: Socket) => void): void;
  close(): void;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- ws ships no types here (graphql-ws and Nest use it too)
const { WebSocketServer } = require('ws') as {
  WebSocketServer: new (options: {
    noServer: true;
    maxPayload: number;
    handleProtocols: (protocols: Set<string>) => string | false;
  }) => Wss;
};
const pathOf = (url: string | undefined) => (url ?? '').split('?')[0];

/** The token of a `fairdice.token.<token>` subprotocol, if the handshake offered one. */
function protocolToken(req: IncomingMessage): string | null {
  const header = req.headers['sec-websocket-protocol'];
  for (const p of String(header ?? '').split(',')) {
    const v = p.trim();
    if (v.startsWith(TOKEN_PROTOCOL_PREFIX)) return v.slice(TOKEN_PROTOCOL_PREFIX.length);
  }
  return null;
}

/**
 * Serves the channel on `server` at CHANNEL_PATH. Returns close(): every connection is closed
 * with 1001 (app shutdown).
 */
export function registerCommandChannel(server: Server, deps: CommandChannelDeps): { close(): void } {
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_FRAME_BYTES,
    // Select the channel's protocol; a token subprotocol is read, never selected (never echoed).
    handleProtocols: (protocols) => (protocols.has(CHANNEL_PROTOCOL) ? CHANNEL_PROTOCOL : false),
  });
  const connections = new Set<Connection>();
  const context: ChannelContext = {
    ...deps,
    validation: strictValidationPipe(),
    noFields: new NoFieldsPipe(),
  };
  // Per-address slots at the upgrade (over the cap: 4429), as for /graphql.
  registerWebSocketLimits(server, deps.limits, deps.addressOf, CHANNEL_PATH);
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (pathOf(req.url) !== CHANNEL_PATH) return;
    wss.handleUpgrade(req, socket, head, (ws) => {
      const connection = new Connection(ws, context, protocolToken(req));
      connections.add(connection);
      ws.on('close', () => connections.delete(connection));
    });
  });
  return {
    close() {
      for (const c of connections) c.shutdown();
      wss.close();
    },
  };
}
