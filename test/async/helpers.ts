/** Helpers of the async-play tests: polling waits, event reads, a local webhook receiver. */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Pool } from 'pg';

/** Polls `probe` until it returns a truthy value (returned), or fails after `timeoutMs`. */
export async function waitFor<T>(
  probe: () => Promise<T> | T,
  timeoutMs = 10_000,
  what = 'condition',
  intervalMs = 50,
): Promise<NonNullable<T>> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > until)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`,
      );
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export interface EventRow {
  version: number;
  type: string;
  seat: number | null;
  data: Record<string, any>;
  rollNumber: number | null;
  command: Record<string, any> | null;
  prevHash: string;
  hash: string;
}

export async function eventsOf(pool: Pool, gameId: string, after = 0): Promise<EventRow[]> {
  const { rows } = await pool.query(
    'SELECT version, type, seat, payload, prev_hash, hash FROM game_events WHERE game_id = $1 AND version > $2 ORDER BY version',
    [gameId, after],
  );
  return rows.map((e) => ({
    version: e.version,
    type: e.type,
    seat: e.seat,
    data: e.payload.data,
    rollNumber: e.payload.rollNumber ?? null,
    command: e.payload.command ?? null,
    prevHash: e.prev_hash,
    hash: e.hash,
  }));
}

/** Batches produced by timeout commands: [first version, events] (a batch starts at an event carrying the command). */
export function timeoutBatches(events: EventRow[]): EventRow[][] {
  const batches: EventRow[][] = [];
  let current: EventRow[] | null = null;
  for (const e of events) {
    if (e.command) current = e.command.type === 'timeout' ? [] : null;
    if (current) {
      if (current.length === 0) batches.push(current);
      current.push(e);
    }
  }
  return batches;
}

export interface ReceivedRequest {
  at: number;
  body: string;
  headers: IncomingHttpHeaders;
  status: number;
}

export interface Receiver {
  url: string;
  port: number;
  received: ReceivedRequest[];
  /** Status to answer the next request with (default 204). */
  respond: (req: ReceivedRequest, index: number) => number;
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1 that records every request. */
export async function startReceiver(port = 0): Promise<Receiver> {
  const received: ReceivedRequest[] = [];
  const receiver = { received, respond: () => 204 } as unknown as Receiver;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const r: ReceivedRequest = { at: Date.now(), body, headers: req.headers, status: 0 };
      r.status = receiver.respond(r, received.length);
      received.push(r);
      res.writeHead(r.status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as AddressInfo).port;
  receiver.port = actual;
  receiver.url = `http://127.0.0.1:${actual}/hook`;
  receiver.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return receiver;
}
