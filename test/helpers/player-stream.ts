/**
 * A client of GET /v1/players/me/events for the tests: SSE (default) or NDJSON, messages collected
 * as they arrive; `opened` resolves with the status once the response head arrived (the server
 * writes it after the stream subscribed), `waitFor` waits for a condition on the messages (a
 * signal, not a sleep), `ended` when the server closed the response.
 */
import http from 'node:http';

export interface StreamMessage {
  /** The SSE id (null for messages without one, and in NDJSON). */
  id: number | null;
  /** The SSE event name, or the NDJSON line's `type`. */
  event: string;
  data: any;
}

export interface PlayerStreamClient {
  messages: StreamMessage[];
  opened: Promise<{ status: number; contentType: string; body?: string }>;
  ended: Promise<void>;
  waitFor(pred: (m: StreamMessage[]) => boolean, what: string, timeoutMs?: number): Promise<StreamMessage[]>;
  close(): void;
}

export function openPlayerStream(
  base: string,
  token: string | null,
  opts: { after?: string | number; lastEventId?: string | number; ndjson?: boolean; query?: string } = {},
): PlayerStreamClient {
  const messages: StreamMessage[] = [];
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const w of [...waiters]) w();
  };
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (opts.ndjson) headers.accept = 'application/x-ndjson';
  if (opts.lastEventId !== undefined) headers['last-event-id'] = String(opts.lastEventId);
  const qs = [opts.after !== undefined ? `after=${opts.after}` : '', opts.query ?? ''].filter(Boolean).join('&');
  let resolveOpened!: (v: { status: number; contentType: string; body?: string }) => void;
  const opened = new Promise<{ status: number; contentType: string; body?: string }>((r) => (resolveOpened = r));
  let resolveEnded!: () => void;
  const ended = new Promise<void>((r) => (resolveEnded = r));
  const req = http.get(`${base}/v1/players/me/events${qs ? `?${qs}` : ''}`, { headers, agent: false }, (res) => {
    const contentType = String(res.headers['content-type'] ?? '');
    res.setEncoding('utf8');
    let buf = '';
    if (res.statusCode !== 200) {
      res.on('data', (c: string) => (buf += c));
      res.on('end', () => {
        resolveOpened({ status: res.statusCode ?? 0, contentType, body: buf });
        resolveEnded();
      });
      return;
    }
    resolveOpened({ status: 200, contentType });
    res.on('data', (chunk: string) => {
      buf += chunk;
      if (opts.ndjson) {
        let i;
        while ((i = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          if (line.trim() === '') continue;
          const data = JSON.parse(line);
          messages.push({ id: null, event: data.type, data });
        }
      } else {
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const msg = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const id = /^id: (\d+)$/m.exec(msg);
          const event = /^event: (.+)$/m.exec(msg);
          const data = /^data: (.+)$/m.exec(msg);
          if (event && data)
            messages.push({ id: id ? Number(id[1]) : null, event: event[1], data: JSON.parse(data[1]) });
        }
      }
      notify();
    });
    res.on('end', () => {
      resolveEnded();
      notify();
    });
    res.on('close', () => {
      resolveEnded();
      notify();
    });
  });
  req.on('error', () => {
    resolveEnded();
    notify();
  });
  return {
    messages,
    opened,
    ended,
    waitFor(pred, what, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (pred(messages)) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(messages);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(`timed out waiting for ${what}; got ${JSON.stringify(messages.map((m) => [m.id, m.event]))}`),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => req.destroy(),
  };
}
