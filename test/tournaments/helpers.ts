/** Helpers of the tournament e2e tests: playing a game through REST with a scripted strategy. */
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

export async function waitFor<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}
