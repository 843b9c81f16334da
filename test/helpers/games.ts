/**
 * Helpers for the games e2e tests: REST and GraphQL command runners sharing one strategy that
 * reads the GameView and picks a legal move.
 */
import { EventStore } from '../../src/event-store/event-store.service';
import { toGameEvent } from '../../src/event-store/event-store.types';
import { PG_POOL } from '../../src/database/pg-pool';
import { replayGame, startedPlay, type GameState } from '@fairdice/core/rules/game';
import { createHash } from 'node:crypto';
import { verifyChain } from '@fairdice/core/fairness/hash-chain';
import { familyById } from '@fairdice/core/rules/registry';
import { createTestApp, registerPlayer, storedServerSeed, type TestApp } from './app';
import type { Pool } from 'pg';

export type Action = 'roll' | 'score' | 'set-aside' | 'bank' | 'quit';
export interface Move {
  action: Action;
  body: Record<string, unknown>;
}

/** The family of a view: REST says five-dice, GraphQL's GameFamily enum five_dice (docs/api.md). */
export const isFiveDice = (view: { family: string }) => view.family === 'five-dice' || view.family === 'five_dice';

/** A legal move for the current player, from the view alone. */
export function chooseMove(view: any): Move {
  if (isFiveDice(view)) {
    const fd = view.fiveDice;
    if (fd.rollInTurn === 0) return { action: 'roll', body: {} };
    const allowed = fd.scoreOptions.boxes.filter((b: any) => b.allowed);
    const best = allowed.reduce((a: any, b: any) => (b.points > a.points ? b : a), allowed[0]);
    // Re-roll once (holding the most common face) when the first roll scores poorly.
    if (fd.rollInTurn === 1 && best.points < 12) {
      const counts = new Map<number, number>();
      view.dice.forEach((d: number) => counts.set(d, (counts.get(d) ?? 0) + 1));
      const face = [...counts.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0][0];
      const hold = view.dice.map((d: number, i: number) => (d === face ? i : -1)).filter((i: number) => i >= 0);
      if (hold.length < 5) return { action: 'roll', body: { hold } };
    }
    return { action: 'score', body: { box: best.box } };
  }
  const f = view.farkle;
  if (view.dice.length === 0) return { action: 'roll', body: {} };
  if (f.setAside.length === 0) return { action: 'set-aside', body: { dice: f.bestSelection.dice } };
  const leftAfter = f.diceLeft;
  if (f.turnPoints >= 350 || (leftAfter <= 2 && leftAfter !== 6)) return { action: 'bank', body: {} };
  return { action: 'roll', body: {} };
}

export interface Client {
  create(token: string, input: Record<string, unknown>): Promise<any>;
  join(token: string, id: string, input?: Record<string, unknown>): Promise<any>;
  start(token: string, id: string, input?: Record<string, unknown>): Promise<any>;
  /** PUT /v1/games/{id}/seeds, GraphQL setSeed. */
  setSeed(token: string, id: string, input: Record<string, unknown>): Promise<any>;
  get(token: string | null, id: string): Promise<any>;
  move(token: string, id: string, move: Move): Promise<any>;
  /** Raw response texts, for asserting what was (not) sent. */
  texts: string[];
}

/** Every GameView field a client plays with, boxes of every sheet included (within the default GraphQL cost limit). */
const VIEW_FIELDS = `id ruleSet family ruleOptions { ...Options } status visibility version seatCount creatorId
  seats { seat playerId displayName hotSeat clientSeed } currentSeat currentPlayerId dice held rollsLeft
  fiveDice { rollInTurn sheets { seat boxes { box points } upper upperBonus lower extraBonus total quit }
    scoreOptions { boxes { box points bonus allowed } mustSacrifice jokerActive fiveOfAKind } }
  farkle { target entryThreshold players { seat total onBoard quit farkleStreak } turnPoints diceLeft setAside setAsideFaces
    selections { dice faces points } bestSelection { dice faces points } lastRoundSeats }
  standings { seat playerId displayName total rank quit } turnTimeLimitSeconds organizerSeed commitment chainHead serverSeed
  createdAt updatedAt startedAt finishedAt`;
export const GAME_VIEW_FIELDS = VIEW_FIELDS;
/** The fragment VIEW_FIELDS uses: append it to every document selecting them. */
export const OPTIONS_FRAGMENT = `fragment Options on GameOptions {
  ... on FiveDiceOptions { joker extraFiveOfAKindBonus upperBonusThreshold upperBonusPoints }
  ... on FarkleOptions { entryThreshold target exactTarget threeFarklePenalty straights { low high full } } }`;

export function restClient(t: TestApp): Client {
  const texts: string[] = [];
  const ok = (res: any, status = 200) => {
    texts.push(res.text);
    if (res.status !== status) throw new Error(`HTTP ${res.status}: ${res.text}`);
    return res.body;
  };
  const auth = (token: string) => ({ authorization: `Bearer ${token}` });
  return {
    texts,
    create: async (token, input) => ok(await t.http().post('/v1/games').set(auth(token)).send(input), 201),
    join: async (token, id, input = {}) => ok(await t.http().post(`/v1/games/${id}/join`).set(auth(token)).send(input)),
    start: async (token, id, input = {}) =>
      ok(await t.http().post(`/v1/games/${id}/start`).set(auth(token)).send(input)),
    setSeed: async (token, id, input) => ok(await t.http().put(`/v1/games/${id}/seeds`).set(auth(token)).send(input)),
    get: async (token, id) =>
      ok(await (token ? t.http().get(`/v1/games/${id}`).set(auth(token)) : t.http().get(`/v1/games/${id}`))),
    move: async (token, id, move) =>
      ok(await t.http().post(`/v1/games/${id}/${move.action}`).set(auth(token)).send(move.body)),
  };
}

export function gqlClient(t: TestApp): Client {
  const texts: string[] = [];
  const run = async (query: string, variables: Record<string, unknown>, token?: string) => {
    const req = t.http().post('/graphql').set('content-type', 'application/json');
    if (token) req.set('authorization', `Bearer ${token}`);
    const res = await req.send({
      query: query.includes('...Options') ? `${query} ${OPTIONS_FRAGMENT}` : query,
      variables,
    });
    texts.push(res.text);
    if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
    return Object.values(res.body.data)[0] as any;
  };
  const mutations: Record<Action, (id: string, body: any) => [string, Record<string, unknown>]> = {
    roll: (id, b) => [
      `mutation($id: ID!, $hold: [Int!]) { roll(gameId: $id, hold: $hold) { ${VIEW_FIELDS} } }`,
      { id, hold: b.hold ?? null },
    ],
    score: (id, b) => [
      `mutation($id: ID!, $box: BoxId!) { score(gameId: $id, box: $box) { ${VIEW_FIELDS} } }`,
      { id, box: b.box },
    ],
    'set-aside': (id, b) => [
      `mutation($id: ID!, $dice: [Int!]!) { setAside(gameId: $id, dice: $dice) { ${VIEW_FIELDS} } }`,
      { id, dice: b.dice },
    ],
    bank: (id) => [`mutation($id: ID!) { bank(gameId: $id) { ${VIEW_FIELDS} } }`, { id }],
    quit: (id) => [`mutation($id: ID!) { quitGame(gameId: $id) { ${VIEW_FIELDS} } }`, { id }],
  };
  return {
    texts,
    create: (token, input) =>
      run(`mutation($input: CreateGameInput!) { createGame(input: $input) { ${VIEW_FIELDS} } }`, { input }, token),
    join: (token, id, input) =>
      run(
        `mutation($id: ID!, $input: JoinGameInput) { joinGame(gameId: $id, input: $input) { ${VIEW_FIELDS} } }`,
        { id, input: input ?? null },
        token,
      ),
    start: (token, id, input) =>
      run(
        `mutation($id: ID!, $input: StartGameInput) { startGame(gameId: $id, input: $input) { ${VIEW_FIELDS} } }`,
        { id, input: input ?? null },
        token,
      ),
    setSeed: (token, id, input) =>
      run(
        `mutation($id: ID!, $input: SetSeedInput!) { setSeed(gameId: $id, input: $input) { ${VIEW_FIELDS} } }`,
        { id, input },
        token,
      ),
    get: (token, id) => run(`query($id: ID!) { game(id: $id) { ${VIEW_FIELDS} } }`, { id }, token ?? undefined),
    move: (token, id, move) => {
      const [q, v] = mutations[move.action](id, move.body);
      return run(q, v, token);
    },
  };
}

export function poolOf(t: TestApp): Pool {
  return t.app.get(PG_POOL);
}

export async function countEvents(t: TestApp, gameId?: string): Promise<number> {
  const { rows } = gameId
    ? await poolOf(t).query('SELECT count(*)::int AS n FROM game_events WHERE game_id = $1', [gameId])
    : await poolOf(t).query('SELECT count(*)::int AS n FROM game_events');
  return rows[0].n;
}

/**
 * The games one player created and their events: what a refused create must leave unchanged. Scoped
 * to the player because other test files write to the same database at the same time.
 */
export async function countCreatedBy(t: TestApp, playerId: string): Promise<{ games: number; events: number }> {
  const { rows } = await poolOf(t).query(
    `SELECT count(DISTINCT g.id)::int AS games, count(e.*)::int AS events
       FROM games g LEFT JOIN game_events e ON e.game_id = g.id
      WHERE g.creator_id = $1`,
    [playerId],
  );
  return { games: rows[0].games, events: rows[0].events };
}

/** The state replayed from every stored event of the game (the truth). */
export async function replayFromDb(t: TestApp, gameId: string): Promise<GameState> {
  const events = await t.app.get(EventStore).readEventsUpTo(gameId, 2_147_483_647);
  return replayGame(gameId, events.map(toGameEvent));
}

/** The cached/incremental state of the store. */
export async function cachedState(t: TestApp, gameId: string): Promise<GameState> {
  const g = await t.app.get(EventStore).load(gameId);
  return g!.state;
}

/**
 * Plays a started game to the end with `chooseMove`, each move by the token of the seat whose
 * turn it is (hot seats: the creator's). Optionally checks cache == replay after every step.
 */
export async function playToEnd(
  t: TestApp,
  client: Client,
  view: any,
  tokenOf: (playerId: string) => string,
  opts: { checkReplayEveryStep?: boolean; maxMoves?: number } = {},
): Promise<any> {
  let v = view;
  for (let i = 0; v.status === 'playing'; i++) {
    if (i > (opts.maxMoves ?? 3000)) throw new Error('game did not end');
    v = await client.move(tokenOf(v.currentPlayerId), v.id, chooseMove(v));
    if (opts.checkReplayEveryStep) {
      expect(await cachedState(t, v.id)).toEqual(await replayFromDb(t, v.id));
    }
  }
  return v;
}

// ------------------------------------------------------------------ complete games (games-rest / games-graphql)

const FARKLE_SHORT = { target: 2000, entryThreshold: 0 };

/** Defines the complete-game tests for one API (games-rest / games-graphql spec files). */
export function describeCompleteGames(api: 'rest' | 'graphql'): void {
  describe(`games: complete games over ${api}`, () => {
    let t: TestApp;
    let players: Array<{ id: string; token: string }>;
    const tokenOf = (id: string) => players.find((p) => p.id === id)!.token;

    beforeAll(async () => {
      t = await createTestApp();
      players = [];
      for (const name of ['Ada', 'Grace', 'Linus']) players.push(await registerPlayer(t, name));
    });
    afterAll(() => t.close());

    const cases: Array<[string, string, number]> = [];
    for (const ruleSet of ['penta', 'simple', 'bonus', 'farkle']) {
      cases.push([`${ruleSet} solo`, ruleSet, 1]);
      cases.push([`${ruleSet} with 3 players`, ruleSet, 3]);
    }

    it.each(cases)('%s', async (_name, ruleSet, seats) => {
      const client: Client = api === 'rest' ? restClient(t) : gqlClient(t);
      const [a, b, c] = players;
      let view = await client.create(a.token, {
        ruleSet,
        seats,
        ...(ruleSet === 'farkle' ? { options: FARKLE_SHORT } : {}),
      });
      expect(view).toMatchObject({ status: 'open', version: 2, seatCount: seats, serverSeed: null });
      expect(view.seats[0]).toMatchObject({ seat: 0, playerId: a.id, displayName: 'Ada', hotSeat: false });
      // After reading the commitment, the creator sets their own seed (solo) or leaves it to be generated.
      if (seats === 1) {
        view = await client.setSeed(a.token, view.id, { clientSeed: `ada-${ruleSet}-${view.commitment.slice(0, 8)}` });
        expect(view.seats[0].clientSeed).toBe(`ada-${ruleSet}-${view.commitment.slice(0, 8)}`);
      }
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
      expect(replayed.standings).toEqual(
        end.standings.map(({ seat, total, rank, quit }: any) => ({ seat, total, rank, quit })),
      );
      const family = familyById(replayed.family);
      const totals = family.standings(startedPlay(replayed)).map((s: any) => [s.seat, s.total]);
      if (isFiveDice(end)) {
        expect(end.fiveDice.sheets.map((s: any) => [s.seat, s.total]).sort()).toEqual(totals.sort());
        for (const sheet of end.fiveDice.sheets) expect(sheet.boxes.every((x: any) => x.points !== null)).toBe(true);
      } else {
        expect(end.farkle.players.map((p: any) => [p.seat, p.total]).sort()).toEqual(totals.sort());
        expect(Math.max(...end.farkle.players.map((p: any) => p.total))).toBeGreaterThanOrEqual(2000);
      }
      expect(end.standings.map((s: any) => s.rank)[0]).toBe(1);
      expect(end.standings.every((s: any, i: number, all: any[]) => i === 0 || all[i - 1].total >= s.total)).toBe(true);

      // The server seed: hidden in every response before the end, revealed in the state after it.
      const seed = await storedServerSeed(t, end.id);
      expect(end.serverSeed).toBe(seed);
      expect(createHash('sha256').update(Buffer.from(seed, 'hex')).digest('hex')).toBe(end.commitment);
      // Every response before the finishing move: at least create, start and one move (a lucky
      // solo Farkle game can end after very few moves, so no larger floor).
      const beforeEnd = client.texts.slice(0, -1);
      expect(beforeEnd.length).toBeGreaterThanOrEqual(3);
      for (const text of beforeEnd) expect(text).not.toContain(seed);
      const after = await client.get(null, end.id);
      expect(after.serverSeed).toBe(seed);

      // The stored events form a valid hash chain from the commitment to the published head.
      const events = await poolOf(t).query(
        'SELECT version, type, seat, payload, prev_hash, hash FROM game_events WHERE game_id = $1 ORDER BY version',
        [end.id],
      );
      const envelopes = events.rows.map((e) => ({
        gameId: end.id,
        version: e.version,
        type: e.type,
        seat: e.seat,
        data: e.payload.data,
        rollNumber: e.payload.rollNumber,
        command: e.payload.command ?? null,
        prevHash: e.prev_hash,
        hash: e.hash,
      }));
      expect(verifyChain(end.commitment, envelopes, { expectedHead: end.chainHead })).toMatchObject({ ok: true });
      expect(JSON.stringify(events.rows)).not.toContain(seed);
    });

    it("hot seats are played with the creator's token", async () => {
      const client = api === 'rest' ? restClient(t) : gqlClient(t);
      const [a] = players;
      let view = await client.create(a.token, { ruleSet: 'simple', seats: 3, hotSeats: 2 });
      expect(view.seats.map((s: any) => [s.playerId, s.hotSeat])).toEqual([
        [a.id, false],
        [a.id, true],
        [a.id, true],
      ]);
      view = await client.start(a.token, view.id);
      const end = await playToEnd(t, client, view, () => a.token);
      expect(end.status).toBe('finished');
      expect(end.standings).toHaveLength(3);
    });
  });
}
