/**
 * Complete games of every preset, through REST and through GraphQL, solo and with three seats:
 * final totals and ranking equal a replay of the stored events; the cached state equals a full
 * replay after every step; the server seed appears nowhere before the end and is revealed after.
 */
import { createHash } from 'node:crypto';
import { verifyChain } from '../../src/fairness/hash-chain';
import { createTestApp, registerPlayer, TestApp } from '../helpers/app';
import { Client, gqlClient, playToEnd, poolOf, replayFromDb, restClient } from '../helpers/games';
import { familyById } from '../../src/rules/registry';

jest.setTimeout(60_000);

const FARKLE_SHORT = { target: 2000, entryThreshold: 0 };

describe('games: complete games over REST and GraphQL', () => {
  let t: TestApp;
  let players: Array<{ id: string; token: string }>;
  const tokenOf = (id: string) => players.find((p) => p.id === id)!.token;

  beforeAll(async () => {
    t = await createTestApp();
    players = [];
    for (const name of ['Ada', 'Grace', 'Linus']) players.push(await registerPlayer(t, name));
  });
  afterAll(() => t.close());

  const cases: Array<[string, 'rest' | 'graphql', string, number]> = [];
  for (const api of ['rest', 'graphql'] as const) {
    for (const ruleSet of ['penta', 'simple', 'bonus', 'farkle']) {
      cases.push([`${ruleSet} solo over ${api}`, api, ruleSet, 1]);
      cases.push([`${ruleSet} with 3 players over ${api}`, api, ruleSet, 3]);
    }
  }

  it.each(cases)('%s', async (_name, api, ruleSet, seats) => {
    const client: Client = api === 'rest' ? restClient(t) : gqlClient(t);
    const [a, b, c] = players;
    let view = await client.create(a.token, { ruleSet, seats, ...(ruleSet === 'farkle' ? { options: FARKLE_SHORT } : {}) });
    expect(view).toMatchObject({ status: 'open', version: 2, seatCount: seats, serverSeed: null });
    expect(view.seats[0]).toMatchObject({ seat: 0, playerId: a.id, displayName: 'Ada', hotSeat: false });
    if (seats === 3) {
      await client.join(b.token, view.id, {});
      view = await client.join(c.token, view.id, { seat: 2, clientSeed: 'linus-seed-42' });
      expect(view.seats.map((s: any) => s.playerId)).toEqual([a.id, b.id, c.id]);
      expect(view.seats[2].clientSeed).toBe('linus-seed-42');
    }
    view = await client.start(a.token, view.id);
    expect(view.status).toBe('playing');
    const end = await playToEnd(t, client, view, tokenOf, { checkReplayEveryStep: api === 'rest' && seats === 3 });

    expect(end.status).toBe('finished');
    // Final totals and ranking equal a replay of the stored events.
    const replayed = await replayFromDb(t, end.id);
    expect(replayed.version).toBe(end.version);
    expect(replayed.standings).toEqual(end.standings.map(({ seat, total, rank, quit }: any) => ({ seat, total, rank, quit })));
    const family = familyById(replayed.family);
    const totals = family.standings(replayed.play).map((s: any) => [s.seat, s.total]);
    if (end.family === 'five-dice') {
      expect(end.fiveDice.sheets.map((s: any) => [s.seat, s.total]).sort()).toEqual(totals.sort());
      for (const sheet of end.fiveDice.sheets) expect(sheet.boxes.every((x: any) => x.points !== null)).toBe(true);
    } else {
      expect(end.farkle.players.map((p: any) => [p.seat, p.total]).sort()).toEqual(totals.sort());
      expect(Math.max(...end.farkle.players.map((p: any) => p.total))).toBeGreaterThanOrEqual(2000);
    }
    expect(end.standings.map((s: any) => s.rank)[0]).toBe(1);
    expect(end.standings.every((s: any, i: number, all: any[]) => i === 0 || all[i - 1].total >= s.total)).toBe(true);

    // The server seed: hidden in every response before the end, revealed in the state after it.
    const { rows } = await poolOf(t).query('SELECT server_seed FROM games WHERE id = $1', [end.id]);
    const seed: string = rows[0].server_seed;
    expect(end.serverSeed).toBe(seed);
    expect(createHash('sha256').update(Buffer.from(seed, 'hex')).digest('hex')).toBe(end.commitment);
    const beforeEnd = client.texts.slice(0, -1);
    expect(beforeEnd.length).toBeGreaterThan(5);
    for (const text of beforeEnd) expect(text).not.toContain(seed);
    const after = await client.get(null, end.id);
    expect(after.serverSeed).toBe(seed);

    // The stored events form a valid hash chain from the commitment to the published head.
    const events = await poolOf(t).query('SELECT version, type, seat, payload, prev_hash, hash FROM game_events WHERE game_id = $1 ORDER BY version', [end.id]);
    const envelopes = events.rows.map((e) => ({ gameId: end.id, version: e.version, type: e.type, seat: e.seat, data: e.payload.data, rollNumber: e.payload.rollNumber, prevHash: e.prev_hash, hash: e.hash }));
    expect(verifyChain(end.commitment, envelopes, { expectedHead: end.chainHead })).toMatchObject({ ok: true });
    expect(JSON.stringify(events.rows)).not.toContain(seed);
  });

  it('hot seats are played with the creator\'s token', async () => {
    const client = restClient(t);
    const [a] = players;
    let view = await client.create(a.token, { ruleSet: 'simple', seats: 3, hotSeats: 2 });
    expect(view.seats.map((s: any) => [s.playerId, s.hotSeat])).toEqual([[a.id, false], [a.id, true], [a.id, true]]);
    view = await client.start(a.token, view.id);
    const end = await playToEnd(t, client, view, () => a.token);
    expect(end.status).toBe('finished');
    expect(end.standings).toHaveLength(3);
  });
});
