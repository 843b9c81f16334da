import type { FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_MAP } from '../common/errors/error-codes';
import { writeSse } from '../common/http/sse';
import { isAccessRevoked, type StreamItem } from './game-stream';
import { toEventView } from './game-view';
import { isTokenRevoked, TOKEN_REVOKED_MESSAGE, type TokenRevoked } from '../players/revocable-stream';

/** The SSE event name of the final message sent when the subscriber may no longer see the game. */
const ACCESS_REVOKED_EVENT = 'access-revoked';

/**
 * Writes a game's events as Server-Sent Events (`id: <version>`, `event: <type>`, `data: <json>`).
 * When access is revoked the last message is `event: access-revoked` with
 * `data: {"code":"GAME_ACCESS_REVOKED",...}` (no id: resuming is pointless), then the response ends.
 * When the token that opened the stream stops authenticating (RevocableStream) the last message
 * is `event: revoked` with `data: {"code":"UNAUTHENTICATED",...}`.
 */
export function writeEventStream(
  events: AsyncIterableIterator<StreamItem | TokenRevoked> & { close(): void },
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  return writeSse(events, req, reply, (e) => {
    if (isTokenRevoked(e))
      return { text: `event: revoked\ndata: ${JSON.stringify(TOKEN_REVOKED_MESSAGE)}\n\n`, last: true };
    if (isAccessRevoked(e)) {
      const data = {
        code: 'GAME_ACCESS_REVOKED',
        status: ERROR_MAP.GAME_ACCESS_REVOKED.status,
        detail: 'You may no longer see this game; the stream ends here',
        gameId: e.gameId,
      };
      return { text: `event: ${ACCESS_REVOKED_EVENT}\ndata: ${JSON.stringify(data)}\n\n`, last: true };
    }
    return { text: `id: ${e.version}\nevent: ${e.type}\ndata: ${JSON.stringify(toEventView(e))}\n\n`, last: false };
  });
}
