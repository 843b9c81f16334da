/** Helpers of the tournament e2e tests: playing a game through REST with a scripted strategy. */
import http from 'node:http';
import type { registerPlayer, TestApp } from '../helpers/app';
import type { Move } from '../helpers/games';

export type P = Awaited<ReturnType<typeof registerPlayer>>;

export async function play(t: TestApp, p: P, gameId: string, strategy: (view: any) => Move): Promise<any> {
  let view = (await t.http().get(`/v1/games/${gameId}`).set(p.auth).expect(200)).body;
  while (view.status === 'playing') {
    const m = strategy(view);
    const res = await t.http().post(`/v1/games/${gameId}/${m.action}`).set(p.auth).send(m.body);
    if (res.status !== 200) throw new Error(`${m.action}: HTTP ${res.status} ${res.text}`);
    view = res.body;
  }
  return view;
}

/** Strategy B: one roll per turn, then the best box (differs from chooseMove's holds). */
export const firstRollOnly = (view: any): Move => {
  const fd = view.fiveDice;
  if (fd.rollInTurn === 0) return { action: 'roll', body: {} };
  const allowed = fd.scoreOptions.boxes.filter((b: any) => b.allowed);
  const best = allowed.reduce((a: any, b: any) => (b.points > a.points ? b : a), allowed[0]);
  return { action: 'score', body: { box: best.box } };
};

/**
 * Reads until `done` holds, failing after `timeoutMs` with what it waited for and the last value
 * read (an unbounded loop turned a missed signal into a silent CI hang).
 */
export async function waitFor<T>(
  read: () => Promise<T>,
  done: (v: T) => boolean,
  what = 'a condition',
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > deadline) {
      const last = JSON.stringify(v)?.slice(0, 500);
      throw new Error(`waitFor: no ${what} within ${timeoutMs} ms; last value read: ${last}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Collects the `data:` messages of an SSE stream until `close()` (live standings). */
export function collectSse(port: number, path: string): { messages: any[]; close(): void } {
  const messages: any[] = [];
  const req = http.get({ host: '127.0.0.1', port, path }, (res) => {
    let buffer = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk;
      let i: number;
      while ((i = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        const data = block.split('\n').find((l) => l.startsWith('data: '));
        if (data) messages.push(JSON.parse(data.slice(6)));
      }
    });
  });
  req.on('error', () => undefined);
  return { messages, close: () => req.destroy() };
}
