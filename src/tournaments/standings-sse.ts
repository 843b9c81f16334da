import type { FastifyReply, FastifyRequest } from 'fastify';
import { SSE_HEARTBEAT_MS } from '../games/sse';
import type { StandingsStream } from './standings-stream';

/** Writes live standings as Server-Sent Events (`event: standings`, `data: <json>`) until the client goes away. */
export async function writeStandingsStream(
  stream: StandingsStream,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-request-id': String(req.id),
  });
  raw.write(': connected\n\n');
  const heartbeat = setInterval(() => raw.write(': heartbeat\n\n'), SSE_HEARTBEAT_MS);
  const stop = () => {
    clearInterval(heartbeat);
    stream.close();
  };
  req.raw.on('close', stop);
  raw.on('close', stop);
  try {
    for await (const s of stream) raw.write(`id: ${s.version}\nevent: standings\ndata: ${JSON.stringify(s)}\n\n`);
  } finally {
    stop();
    if (!raw.writableEnded) raw.end();
  }
}
