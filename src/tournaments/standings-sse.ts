import type { FastifyReply, FastifyRequest } from 'fastify';
import { writeSse } from '../common/http/sse';
import type { StandingsStream } from './standings-stream';

/** Writes live standings as Server-Sent Events (`event: standings`, `data: <json>`) until the client goes away. */
export function writeStandingsStream(stream: StandingsStream, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  return writeSse(stream, req, reply, (s) => ({
    text: `id: ${s.version}\nevent: standings\ndata: ${JSON.stringify(s)}\n\n`,
    last: false,
  }));
}
