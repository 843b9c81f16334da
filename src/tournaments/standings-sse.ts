import type { FastifyReply, FastifyRequest } from 'fastify';
import { writeSse } from '../common/http/sse';
import { isTokenRevoked, TOKEN_REVOKED_MESSAGE, type TokenRevoked } from '../players/revocable-stream';

/** Writes live standings as Server-Sent Events (`event: standings`, `data: <json>`) until the client goes away. */
export function writeStandingsStream(
  stream: AsyncIterableIterator<{ version: number } | TokenRevoked> & { close(): void },
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  return writeSse(stream, req, reply, (s) =>
    isTokenRevoked(s)
      ? // The token that opened it was revoked (docs/accounts.md "Scoped tokens"): the last message.
        { text: `event: revoked\ndata: ${JSON.stringify(TOKEN_REVOKED_MESSAGE)}\n\n`, last: true }
      : { text: `id: ${s.version}\nevent: standings\ndata: ${JSON.stringify(s)}\n\n`, last: false },
  );
}
