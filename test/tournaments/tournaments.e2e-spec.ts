/**
 * Tournaments through the public API (issue 13, items 1–4; docs/tournaments.md):
 * - a 6-entrant duplicate tournament of penta, 2 rounds, scripted moves, to the end: every game
 *   of a round saw the same face at the same stream position (turn, roll, die position) whatever
 *   the holds, equal play gave equal games, and the standings match a replay of the events;
 * - a 7-entrant Farkle tournament at tables of 2–3, 2 rounds, with correct cumulative standings.
 */
import { createTestApp, registerPlayer, type TestApp } from '../helpers/app';
import { chooseMove, type Move } from '../helpers/games';
import { collectSse, firstRollOnly, play, waitFor } from './helpers';
import type { AddressInfo } from 'node:net';
import { duplicateFaces, roundSeedHex, tableDraw } from '@fairdice/core/fairness/tournament';
import { commitmentOf } from '@fairdice/core/fairness/seeds';
import { verifyChain } from '@fairdice/core/fairness/hash-chain';
import { verifyBundle } from '@fairdice/core/fairness/verifier';
import { computeStandings, replayTournament } from '@fairdice/core/rules/tournament';

jest.setTimeout(180_000);

type P = Awaited<ReturnType<typeof registerPlayer>>;

/** Strategy C: always re-roll holding the dice at positions 0 and 1, then the best box. */
const holdFirstTwo = (view: any): Move => {
  const fd = view.fiveDice;
  if (fd.rollInTurn === 0) return { action: 'roll', body: {} };
  if (fd.rollInTurn < 3) return { action: 'roll', body: { hold: [0, 1] } };
  return firstRollOnly(view);
};

describe('tournaments (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ listen: true, env: { JOBS_POLL_INTERVAL_MS: '50' } });
  });
  afterAll(() => t?.close());

  const get = (p: P | null, id: string) => {
    const r = t.http().get(`/v1/tournaments/${id}`);
    return (p ? r.set(p.auth) : r).expect(200).then((x) => x.body);
  };

  it('runs a 6-entrant duplicate penta tournament of 2 rounds: equal dice at equal positions, standings = replay', async () => {
    const organizer = await registerPlayer(t, 'Organizer');
    const entrants = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => registerPlayer(t, `Entrant ${i}`)));
    const created = await t
      .http()
      .post('/v1/tournaments')
      .set(organizer.auth)
      .send({ name: 'Duplicate open', ruleSet: 'penta', format: 'duplicate', maxEntrants: 8, rounds: 2 })
      .expect(201);
    const id = created.body.id;
    expect(created.body).toMatchObject({ status: 'registering', format: 'duplicate', tournamentSeed: null });
    expect(created.body.commitment).toMatch(/^[0-9a-f]{64}$/);

    for (const [i, e] of entrants.entries())
      await t
        .http()
        .post(`/v1/tournaments/${id}/entrants`)
        .set(e.auth)
        .send({ clientSeed: `entrant-seed-${i + 1}` })
        .expect(200);
    await t
      .http()
      .put(`/v1/tournaments/${id}/organizer-seed`)
      .set(organizer.auth)
      .send({ organizerSeed: 'organizer-seed' })
      .expect(200);
    const started = (await t.http().post(`/v1/tournaments/${id}/start`).set(organizer.auth).expect(200)).body;
    expect(started.status).toBe('running');
    expect(started.roundDetails).toHaveLength(1);
    expect(started.roundDetails[0].games).toHaveLength(6);

    const strategies = [chooseMove, chooseMove, firstRollOnly, firstRollOnly, holdFirstTwo, chooseMove];
    for (const round of [1, 2]) {
      const view = await waitFor(
        () => get(organizer, id),
        (v) => v.roundDetails.length >= round,
      );
      const games = view.roundDetails[round - 1].games as Array<{ gameId: string; entrants: number[] }>;
      const finals = [];
      for (const g of games) {
        const n = g.entrants[0];
        finals.push(await play(t, entrants[n - 1], g.gameId, strategies[n - 1]));
      }
      const after = await waitFor(
        () => get(organizer, id),
        (v) => v.roundDetails[round - 1].finished,
      );
      const roundSeed = after.roundDetails[round - 1].roundSeed;
      expect(roundSeed).toMatch(/^[0-9a-f]{64}$/);

      // Every die at (turn, roll, position) is the same for everyone, and is the shared stream's face.
      const byAddress = new Map<string, number>();
      const diceSeen: string[] = [];
      for (const [i, g] of games.entries()) {
        const p = entrants[g.entrants[0] - 1];
        const game = (await t.http().get(`/v1/games/${g.gameId}`).set(p.auth).expect(200)).body;
        expect(game.serverSeed).toBe(roundSeed); // revealed once the round ended
        const events = (await t.http().get(`/v1/games/${g.gameId}/events?limit=100`).set(p.auth).expect(200)).body
          .items;
        let turn = 0;
        const seq: number[][] = [];
        for (const e of events) {
          if (e.type === 'scored') turn += 1;
          if (e.type !== 'rolled') continue;
          const faces = duplicateFaces(
            { roundSeed: Buffer.from(roundSeed, 'hex'), tournamentId: id, round },
            { game: 0, turn, roll: e.data.rollInTurn - 1 },
          );
          for (let pos = 0; pos < 5; pos++) {
            if (e.data.held.includes(pos)) continue;
            const key = `${turn}/${e.data.rollInTurn - 1}/${pos}`;
            expect(e.data.dice[pos]).toBe(faces[pos]);
            if (byAddress.has(key)) expect(e.data.dice[pos]).toBe(byAddress.get(key));
            else byAddress.set(key, e.data.dice[pos]);
          }
          seq.push(e.data.dice);
        }
        diceSeen[i] = JSON.stringify(seq);
        // Each game's own audit bundle verifies, dice included (re-derived from the revealed round seed).
        const bundle = (await t.http().get(`/v1/games/${g.gameId}/audit`).set(p.auth).expect(200)).body;
        const report = verifyBundle(bundle);
        expect(report.checks.filter((c: any) => c.status === 'fail')).toEqual([]);
        expect(report.ok).toBe(true);
        expect(finals[i].status).toBe('finished');
      }
      // Equal play (the same strategy) saw exactly the same dice.
      expect(diceSeen[0]).toBe(diceSeen[1]);
      expect(diceSeen[0]).toBe(diceSeen[5]);
      expect(diceSeen[2]).toBe(diceSeen[3]);
      expect(diceSeen[0]).not.toBe(diceSeen[2]);
    }

    const done = await waitFor(
      () => get(null, id),
      (v) => v.status === 'finished',
    );
    expect(done.tournamentSeed).toMatch(/^[0-9a-f]{64}$/);
    expect(commitmentOf(Buffer.from(done.tournamentSeed, 'hex'))).toBe(done.commitment);
    // Round seeds follow from the revealed tournament seed and the public seeds.
    const seeds = ['organizer-seed', ...entrants.map((_, i) => `entrant-seed-${i + 1}`)];
    for (const r of done.roundDetails)
      expect(r.roundSeed).toBe(
        roundSeedHex({ tournamentSeedHex: done.tournamentSeed, tournamentId: id, round: r.round, seeds }),
      );

    // The stream is hash-chained from the commitment, and the standings are its replay.
    const events = (await t.http().get(`/v1/tournaments/${id}/events`).expect(200)).body;
    expect(
      verifyChain(
        done.commitment,
        events.map((e: any) => ({
          gameId: id,
          version: e.version,
          type: e.type,
          seat: null,
          data: JSON.parse(e.dataJson),
          rollNumber: null,
          command: JSON.parse(e.commandJson ?? 'null'),
          prevHash: e.prevHash,
          hash: e.hash,
        })),
        { expectedHead: done.chainHead },
      ),
    ).toMatchObject({ ok: true });
    const state = replayTournament(
      id,
      events.map((e: any) => ({ type: e.type, data: JSON.parse(e.dataJson) })),
    );
    const standings = (await t.http().get(`/v1/tournaments/${id}/standings`).expect(200)).body;
    const replayed = computeStandings(state);
    expect(standings.rows.map((r: any) => [r.rank, r.entrant, r.totalScore, r.matchPoints])).toEqual(
      replayed.map((r) => [r.rank, r.entrant, r.totalScore, r.matchPoints]),
    );
    // And the totals are the games' own final totals.
    for (const row of standings.rows) {
      const p = entrants[row.entrant - 1];
      let sum = 0;
      for (const r of done.roundDetails) {
        const g = r.games.find((x: any) => x.entrants[0] === row.entrant);
        sum += (await t.http().get(`/v1/games/${g.gameId}`).set(p.auth).expect(200)).body.standings[0].total;
      }
      expect(row.totalScore).toBe(sum);
    }
    expect(standings.rows.map((r: any) => r.totalScore)).toEqual(
      [...standings.rows.map((r: any) => r.totalScore)].sort((a, b) => b - a),
    );
  });

  it('runs a 7-entrant Farkle tournament at tables of 2–3 with cumulative standings', async () => {
    const organizer = await registerPlayer(t, 'Farkle organizer');
    const entrants = await Promise.all([1, 2, 3, 4, 5, 6, 7].map((i) => registerPlayer(t, `Farkler ${i}`)));
    const id = (
      await t
        .http()
        .post('/v1/tournaments')
        .set(organizer.auth)
        .send({
          name: 'Farkle tables',
          ruleSet: 'farkle',
          options: { target: 500, entryThreshold: 0 },
          format: 'tables',
          maxEntrants: 7,
          rounds: 2,
          tableSizeMin: 2,
          tableSizeMax: 3,
        })
        .expect(201)
    ).body.id;
    for (const e of entrants) await t.http().post(`/v1/tournaments/${id}/entrants`).set(e.auth).send({}).expect(200);
    await t.http().post(`/v1/tournaments/${id}/close`).set(organizer.auth).expect(200);
    // Live standings over SSE, watched from before the organizer starts and while the tables play.
    const port = (t.app.getHttpServer().address() as AddressInfo).port;
    const live = collectSse(port, `/v1/tournaments/${id}/standings/stream`);
    await waitFor(
      () => Promise.resolve(live.messages.length),
      (n) => n >= 1,
    );
    expect(live.messages[0].status).toBe('closed');
    await t.http().post(`/v1/tournaments/${id}/start`).set(organizer.auth).expect(200);
    // The organizer's start reaches the watchers without a game having moved.
    await waitFor(
      () => Promise.resolve(live.messages.map((m) => m.status)),
      (statuses) => statuses.includes('running'),
    );

    const byNumber = new Map<number, P>();
    const view0 = await get(organizer, id);
    for (const e of view0.entrants)
      byNumber.set(
        e.number,
        entrants.find((x) => x.id === e.playerId)!,
      );

    const totals = new Map<number, { score: number; mp: number }>();
    for (const round of [1, 2]) {
      const view = await waitFor(
        () => get(organizer, id),
        (v) => v.roundDetails.length >= round,
      );
      const games = view.roundDetails[round - 1].games;
      expect(games.map((g: any) => g.entrants.length)).toEqual([3, 2, 2]);
      // The draw follows from the round seed (checked once it is revealed, below).
      const results: Array<{ entrants: number[]; totals: number[] }> = [];
      for (const g of games) {
        let game = (await t.http().get(`/v1/games/${g.gameId}`).expect(200)).body; // public tournament: public tables
        while (game.status === 'playing') {
          const seat = game.currentSeat;
          const p = byNumber.get(g.entrants[seat])!;
          const m = chooseMove(game);
          const res = await t.http().post(`/v1/games/${g.gameId}/${m.action}`).set(p.auth).send(m.body);
          if (res.status !== 200) throw new Error(`${m.action}: ${res.text}`);
          game = res.body;
        }
        results.push({
          entrants: g.entrants,
          totals: g.entrants.map((_: number, s: number) => game.standings.find((x: any) => x.seat === s).total),
        });
      }
      const after = await waitFor(
        () => get(organizer, id),
        (v) => v.roundDetails[round - 1].finished,
      );
      const seed = Buffer.from(after.roundDetails[round - 1].roundSeed, 'hex');
      const draw = tableDraw(
        seed,
        after.entrants.map((e: any) => e.playerId),
        2,
        3,
      )!;
      expect(
        draw.map((table) => table.map((pid) => after.entrants.find((e: any) => e.playerId === pid).number)),
      ).toEqual(games.map((g: any) => g.entrants));
      for (const r of results)
        r.entrants.forEach((n, i) => {
          const acc = totals.get(n) ?? { score: 0, mp: 0 };
          acc.score += r.totals[i];
          r.totals.forEach((other, j) => {
            if (j !== i) acc.mp += r.totals[i] > other ? 2 : r.totals[i] === other ? 1 : 0;
          });
          totals.set(n, acc);
        });
    }
    const done = await waitFor(
      () => get(null, id),
      (v) => v.status === 'finished',
    );
    expect(done.tournamentSeed).toMatch(/^[0-9a-f]{64}$/);
    const standings = (await t.http().get(`/v1/tournaments/${id}/standings`).expect(200)).body;
    expect(standings.rows).toHaveLength(7);
    // The stream pushed running totals as the games' moves landed (live), and ended on the final standings.
    const last = await waitFor(
      () => Promise.resolve(live.messages[live.messages.length - 1]),
      (m) => m.status === 'finished',
    );
    live.close();
    expect(live.messages.some((m) => m.live && m.rows.some((r: any) => r.totalScore > 0))).toBe(true);
    expect(last.rows).toEqual(standings.rows);
    for (const row of standings.rows) {
      expect(row.totalScore).toBe(totals.get(row.entrant)!.score);
      expect(row.matchPoints).toBe(totals.get(row.entrant)!.mp);
      expect(row.gamesPlayed).toBe(2);
    }
    // Ordered by match points, then total score, then best game, then entrant number.
    const keys = standings.rows.map((r: any) => [r.matchPoints, r.totalScore, r.bestGame, -r.entrant]);
    for (let i = 1; i < keys.length; i++) {
      const [a, b] = [keys[i - 1], keys[i]];
      const cmp = a.findIndex((x: number, k: number) => x !== b[k]);
      expect(cmp).toBeGreaterThanOrEqual(0);
      expect(a[cmp]).toBeGreaterThan(b[cmp]);
    }
  });
});
