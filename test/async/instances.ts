/**
 * Service instances as separate processes (`node dist/src/main.js`) for the multi-instance and
 * scale-out suites: start on a free port, talk REST, subscribe over SSE.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { waitFor } from './helpers';

export const root = join(__dirname, '..', '..');
export const main = join(root, 'dist', 'src', 'main.js');

export interface Instance {
  name: string;
  port: number;
  base: string;
  child: ChildProcess;
  output: string[];
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export async function startInstance(name: string, env: Record<string, string> = {}): Promise<Instance> {
  const port = await freePort();
  const output: string[] = [];
  const child = spawn(process.execPath, [main], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: process.env.DATABASE_URL,
      DATABASE_POOL_MAX: '4',
      LOG_LEVEL: 'info',
      JOBS_POLL_INTERVAL_MS: '200',
      MIGRATE_ON_START: 'true',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr]) {
    let partial = '';
    stream.on('data', (c) => {
      const lines = (partial + String(c)).split('\n');
      partial = lines.pop() ?? '';
      output.push(...lines.filter(Boolean));
    });
  }
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const base = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`${name} exited: ${output.slice(-5).join('\n')}`);
      const res = await fetch(`${base}/health`).catch(() => null);
      return res?.ok;
    },
    30_000,
    `instance ${name} to listen`,
    100,
  );
  return {
    name,
    port,
    base,
    child,
    output,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

export async function api(i: Instance, method: string, path: string, token?: string, body?: unknown): Promise<any> {
  const res = await fetch(`${i.base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path} on ${i.name}: HTTP ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/**
 * An SSE subscription; `events` fills as messages arrive (with their arrival time). `connected`
 * resolves at the server's `: connected` comment, written once the stream is subscribed to the
 * game's live events (src/games/game-stream.ts subscribes before it reads the backlog).
 */
export function subscribe(i: Instance, gameId: string, after: number) {
  const events: Array<{ version: number; type: string; at: number; data: any }> = [];
  let onConnected: () => void = () => undefined;
  const connected = new Promise<void>((resolve) => (onConnected = resolve));
  const req = http.get(`${i.base}/v1/games/${gameId}/stream?after=${after}`, { agent: false }, (res) => {
    let buf = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buf += chunk;
      let idx;
      while ((idx = buf.indexOf('\n\n')) >= 0) {
        const msg = buf.slice(0, idx);
        buf = buf.slice(idx + 2);
        if (msg.startsWith(': connected')) onConnected();
        const id = /^id: (\d+)$/m.exec(msg);
        const type = /^event: (.+)$/m.exec(msg);
        const data = /^data: (.+)$/m.exec(msg);
        if (id && type && data)
          events.push({ version: Number(id[1]), type: type[1], at: Date.now(), data: JSON.parse(data[1]) });
      }
    });
  });
  req.on('error', () => undefined);
  return { events, connected, close: () => req.destroy() };
}
