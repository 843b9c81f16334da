/**
 * Two-player Farkle win probabilities over the API (issue 31, items 1 and 3; docs/advice.md
 * "Advice API", "Post-game analysis"): a game's advice with objective winProbability, the
 * stateless advisor's opponent, the chance to get on the board, the post-game analysis of a
 * two-seat Farkle game, and their bad inputs. Small targets: the tables build in a fraction of a
 * second (the default 10,000 table is never built here).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  adviseTwoPlayerBankOrRoll,
  adviseTwoPlayerSetAside,
  onBoardChance,
  solveFarkleTwoPlayer,
  winChanceAtTurnStart,
  type FarkleTwoPlayerSolution,
} from '@fairdice/core/rules/advice';
import type { Die } from '@fairdice/core/rules/core/dice';
import { farkle } from '@fairdice/core/rules/farkle/options';
import { simple } from '@fairdice/core/rules/five-dice/options';
import { createTestApp, gql, registerPlayer, type TestApp } from '../helpers/app';
import { AdviceTablesService } from '../../src/advice/advice-tables.service';

jest.setTimeout(120_000);

/** Small rules: a 2,000 target and a 300 entry threshold (the two-player table solves at once). */
const SMALL = { target: 2000, entryThreshold: 300 };
const SMALL_OPTIONS = { ...farkle, ...SMALL };

const FARKLE_ADVICE = `objective banked turnPoints dice leader opponent value onBoardChance
  best { action dice then value } setAsides { dice faces points diceLeft then bank roll value } bank roll`;

describe('advice: two-player Farkle win probabilities', () => {
  let t: TestApp;
  let dir: string;
  let tables: AdviceTablesService;
  let sol: FarkleTwoPlayerSolution;
  let ada: Awaited<ReturnType<typeof registerPlayer>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fairdice-advice-2p-e2e-'));
    t = await createTestApp({ env: { ADVICE_CACHE_DIR: dir } });
    tables = t.app.get(AdviceTablesService);
    ada = await registerPlayer(t, 'Ada');
    sol = solveFarkleTwoPlayer(SMALL_OPTIONS);
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = (path: string, body: Record<string, unknown> = {}) =>
    t.http().post(path).set(ada.auth).send(body).expect(200);
  /** A started hot-seat Farkle game (Ada plays every seat). */
  const startHotSeat = async (seats: number, options: Record<string, unknown> = SMALL) => {
    const game = (
      await t
        .http()
        .post('/v1/games')
        .set(ada.auth)
        .send({ ruleSet: 'farkle', seats, hotSeats: seats - 1, options })
        .expect(201)
    ).body;
    return (await post(`/v1/games/${game.id}/start`)).body;
  };
  const winAdvice = (id: string) => t.http().get(`/v1/games/${id}/advice?objective=winProbability`).set(ada.auth);

  /** The position of the seat to move, from the game view. */
  const positionOf = (view: any) => {
    const seat = view.currentSeat;
    const totals = new Map(view.farkle.players.map((p: any) => [p.seat, p.total]));
    return { banked: totals.get(seat) as number, opponent: totals.get(1 - seat) as number, turnPoints: 0 };
  };

  /**
   * Plays a two-seat game to the end, each move chosen by `choose` from the win-probability advice;
   * checks every advice against the pure solver on the way. Returns the final view.
   */
  async function playByAdvice(view: any, choose: (advice: any) => { dice: number[]; then: string }): Promise<any> {
    let checked = 0;
    for (let i = 0; view.status === 'playing'; i++) {
      if (i > 2000) throw new Error('the game did not end');
      const a = (await winAdvice(view.id).expect(200)).body.farkle;
      const position = { ...positionOf(view), turnPoints: view.farkle.turnPoints };
      expect(a).toMatchObject({ objective: 'winProbability', banked: position.banked, opponent: position.opponent });
      if (a.dice === null) {
        // The start of a turn (or after a set-aside, which this loop never leaves pending).
        expect(a.best.action).toBe('roll');
        expect(a.value).toBe(winChanceAtTurnStart(sol, position.banked, position.opponent));
        view = (await post(`/v1/games/${view.id}/roll`)).body;
        continue;
      }
      const pure = adviseTwoPlayerSetAside(sol, position, a.dice as Die[]);
      expect(a.setAsides.map((s: any) => [s.dice, s.then, s.bank, s.roll, s.value])).toEqual(
        pure.map((s) => [s.dice, s.best, s.bank, s.roll, s.winChance]),
      );
      checked++;
      const move = choose(a);
      view = (await post(`/v1/games/${view.id}/set-aside`, { dice: move.dice })).body;
      view = (await post(`/v1/games/${view.id}/${move.then}`)).body;
    }
    expect(checked).toBeGreaterThan(0);
    return view;
  }

  describe('advice for the player to move (objective winProbability)', () => {
    it('answers TABLE_BUILDING while the two-player table is built, then every set-aside with its chance to win (REST = GraphQL)', async () => {
      const view = await startHotSeat(2);
      const building = await winAdvice(view.id).expect(503);
      expect(building.body.code).toBe('TABLE_BUILDING');
      expect(Number(building.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      await tables.whenReady(SMALL_OPTIONS, 'farkle-2p');

      const start = (await winAdvice(view.id).expect(200)).body;
      expect(start).toMatchObject({ family: 'farkle', seat: view.currentSeat, fiveDice: null });
      expect(start.farkle).toMatchObject({
        objective: 'winProbability',
        banked: 0,
        opponent: 0,
        turnPoints: 0,
        leader: null,
        best: { action: 'roll' },
        setAsides: [],
      });
      // The first player's chance to win from the start, and the chance to get on the board this turn.
      expect(start.farkle.value).toBe(winChanceAtTurnStart(sol, 0, 0));
      expect(start.farkle.value).toBeGreaterThan(0.5);
      expect(start.farkle.onBoardChance).toBe(onBoardChance(SMALL_OPTIONS, 0, 6));

      // Roll until something scores, then compare with the pure solver and GraphQL.
      let rolled = (await post(`/v1/games/${view.id}/roll`)).body;
      while (rolled.farkle.setAside.length === 0 && rolled.dice.length === 0)
        rolled = (await post(`/v1/games/${view.id}/roll`)).body;
      const rest = (await winAdvice(view.id).expect(200)).body;
      if (rest.farkle.dice !== null) {
        const position = { ...positionOf(rolled), turnPoints: rolled.farkle.turnPoints };
        const pure = adviseTwoPlayerSetAside(sol, position, rest.farkle.dice);
        expect(rest.farkle.setAsides.map((s: any) => s.value)).toEqual(pure.map((s) => s.winChance));
        for (const s of rest.farkle.setAsides) expect(s.value).toBeLessThanOrEqual(rest.farkle.setAsides[0].value);
      }
      const g = await gql(
        t,
        `query($id: ID!) { gameAdvice(gameId: $id, objective: winProbability) { version seat farkle { ${FARKLE_ADVICE} } } }`,
        { id: view.id },
        ada.token,
      );
      expect(g.data.gameAdvice.farkle).toEqual(rest.farkle);

      // After a set-aside: bank or roll, as the pure adviser.
      if (rest.farkle.best?.action === 'setAside') {
        const after = (await post(`/v1/games/${view.id}/set-aside`, { dice: rest.farkle.best.dice })).body;
        const position = { ...positionOf(after), turnPoints: after.farkle.turnPoints };
        const choice = (await winAdvice(view.id).expect(200)).body.farkle;
        const pure = adviseTwoPlayerBankOrRoll(sol, position, after.farkle.diceLeft === 0 ? 6 : after.farkle.diceLeft);
        expect(choice).toMatchObject({ bank: pure.bank, roll: pure.roll, best: { action: pure.best }, setAsides: [] });
      }
    });

    it('a game played by the advice has every decision optimal in the post-game analysis (REST = GraphQL)', async () => {
      await tables.whenReady(SMALL_OPTIONS, 'farkle-2p');
      const end = await playByAdvice(await startHotSeat(2), (a) => a.best);
      expect(end.status).toBe('finished');
      const analysis = (await t.http().get(`/v1/games/${end.id}/analysis`).expect(200)).body;
      expect(analysis.optimalExpectedScore).toBe(winChanceAtTurnStart(sol, 0, 0));
      expect(analysis.decisions.length).toBeGreaterThan(0);
      for (const d of analysis.decisions) {
        expect(d).toMatchObject({ kind: 'setAside', winChanceLoss: 0, loss: 0, label: 'best', box: null });
        expect(d.winChance).toBe(d.bestWinChance);
        expect(d.kept).toEqual(d.bestKept);
        expect(d.then).toBe(d.bestThen);
      }
      expect(analysis.seats).toHaveLength(2);
      for (const seat of analysis.seats) {
        expect(seat).toMatchObject({ totalLoss: 0, accuracy: 100, blunders: 0, optimal: seat.decisions });
        expect(seat.score).toBe(end.farkle.players.find((p: any) => p.seat === seat.seat).total);
      }
      const g = await gql(
        t,
        `query($id: ID!) { gameAnalysis(gameId: $id) { optimalExpectedScore seats { seat decisions optimal totalLoss accuracy score }
          decisions { version seat turn kind dice kept bestKept turnPoints then bestThen expected bestExpected loss winChance bestWinChance winChanceLoss label } } }`,
        { id: end.id },
      );
      expect(g.data.gameAnalysis.decisions).toHaveLength(analysis.decisions.length);
      expect(g.data.gameAnalysis.seats.map((s: any) => s.accuracy)).toEqual([100, 100]);
    });

    it('labels a weak player’s decisions by their win-chance loss', async () => {
      await tables.whenReady(SMALL_OPTIONS, 'farkle-2p');
      // Always the last set-aside listed (the worst), and bank whenever allowed.
      const end = await playByAdvice(await startHotSeat(2), (a) => {
        const worst = a.setAsides.at(-1);
        return { dice: worst.dice, then: worst.bank !== null ? 'bank' : 'roll' };
      });
      const analysis = (await t.http().get(`/v1/games/${end.id}/analysis`).expect(200)).body;
      const label = (loss: number) =>
        loss <= 1e-9 ? 'best' : loss < 0.01 ? 'good' : loss < 0.03 ? 'inaccuracy' : loss < 0.08 ? 'mistake' : 'blunder';
      for (const d of analysis.decisions) {
        expect(d.winChanceLoss).toBeCloseTo(d.bestWinChance - d.winChance, 12);
        expect(d.loss).toBe(d.winChanceLoss);
        expect(d.label).toBe(label(d.winChanceLoss));
      }
      const total = analysis.decisions.reduce((s: number, d: any) => s + d.winChanceLoss, 0);
      expect(total).toBeGreaterThan(0);
      const seats = analysis.seats;
      expect(seats[0].totalLoss + seats[1].totalLoss).toBeCloseTo(total, 9);
      for (const s of seats) expect(s.accuracy).toBeCloseTo(100 * Math.max(0, 1 - s.totalLoss), 9);
    });

    it('the solo objective also reports the chance to get on the board (null once on it)', async () => {
      await tables.whenReady(SMALL_OPTIONS, 'farkle');
      const view = await startHotSeat(2);
      const start = (await t.http().get(`/v1/games/${view.id}/advice`).set(ada.auth).expect(200)).body.farkle;
      expect(start.objective).toBe('fewestTurns');
      expect(start.opponent).toBeNull();
      expect(start.onBoardChance).toBe(onBoardChance(SMALL_OPTIONS, 0, 6));
    });

    it.each([
      ['a three-seat game', 3, SMALL],
      ['a solo game', 1, SMALL],
      ['exactTarget', 2, { ...SMALL, exactTarget: true }],
      ['a target above the solver’s largest', 2, { target: 25_000 }],
    ])('refuses %s with 422 WIN_PROBABILITY_UNSUPPORTED (REST and GraphQL)', async (_what, seats, options) => {
      const before = tables.status();
      const view = await startHotSeat(seats, options);
      const res = await winAdvice(view.id);
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 422, code: 'WIN_PROBABILITY_UNSUPPORTED' });
      const g = await gql(
        t,
        `query($id: ID!) { gameAdvice(gameId: $id, objective: winProbability) { seat } }`,
        { id: view.id },
        ada.token,
      );
      expect(g.errors?.[0].extensions).toMatchObject({ code: 'WIN_PROBABILITY_UNSUPPORTED', status: 422 });
      expect(tables.status()).toMatchObject({ queued: before.queued, building: before.building });
    });

    it('answers a five-dice game with its one view (the endgame fields carry win chances), and a bad objective with 400', async () => {
      const game = (
        await t
          .http()
          .post('/v1/games')
          .set(ada.auth)
          .send({ ruleSet: 'simple', options: { upperBonusPoints: 0 }, seats: 2, hotSeats: 1 })
          .expect(201)
      ).body;
      await post(`/v1/games/${game.id}/start`);
      await tables.whenReady({ ...simple, upperBonusPoints: 0 }); // a table solved in a fraction of a second
      const view = (await winAdvice(game.id).expect(200)).body;
      expect(view.fiveDice).toMatchObject({ winChanceStatus: 'noTarget', winChanceAtTurnStart: null });
      expect(view.farkle).toBeNull();
      const bad = await t.http().get(`/v1/games/${game.id}/advice?objective=winning`).set(ada.auth);
      expect({ status: bad.status, code: bad.body.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
      const g = await gql(
        t,
        `query($id: ID!) { gameAdvice(gameId: $id, objective: winning) { seat } }`,
        {
          id: game.id,
        },
        ada.token,
      );
      expect(g.errors?.[0].message).toMatch(/AdviceObjective/);
    });

    it('analysis: Farkle games that are not two-seat, or with rules the two-player solver does not model, stay 422 ADVICE_UNSUPPORTED', async () => {
      for (const view of [await startHotSeat(3), await startHotSeat(2, { ...SMALL, exactTarget: true })]) {
        const res = await t.http().get(`/v1/games/${view.id}/analysis`);
        expect({ status: res.status, code: res.body.code }).toEqual({ status: 422, code: 'ADVICE_UNSUPPORTED' });
      }
      // A two-seat game it covers, not finished yet.
      const playing = await startHotSeat(2);
      const early = await t.http().get(`/v1/games/${playing.id}/analysis`);
      expect({ status: early.status, code: early.body.code }).toEqual({ status: 409, code: 'GAME_NOT_FINISHED' });
    });
  });

  describe('the stateless Farkle advisor with objective winProbability', () => {
    const body = {
      options: SMALL,
      objective: 'winProbability',
      opponent: { banked: 1200 },
      banked: 500,
      turnPoints: 150,
      dice: [1, 5, 2, 2, 2, 6],
    };
    beforeAll(() => tables.whenReady(SMALL_OPTIONS, 'farkle-2p'));

    it('gives every set-aside with its chance to win, as the pure solver (REST = GraphQL)', async () => {
      const rest = (await post('/v1/advice/farkle', body)).body;
      const position = { banked: 500, opponent: 1200, turnPoints: 150 };
      const pure = adviseTwoPlayerSetAside(sol, position, body.dice as Die[]);
      expect(rest).toMatchObject({ objective: 'winProbability', opponent: 1200, leader: null, onBoardChance: null });
      expect(rest.setAsides.map((s: any) => [s.dice, s.then, s.bank, s.roll, s.value])).toEqual(
        pure.map((s) => [s.dice, s.best, s.bank, s.roll, s.winChance]),
      );
      expect(rest.value).toBe(pure[0].winChance);
      const g = await gql(
        t,
        `query($input: FarkleAdviceInput!) { farkleAdvice(input: $input) { ${FARKLE_ADVICE} } }`,
        { input: body },
        ada.token,
      );
      expect(g.data.farkleAdvice).toEqual(rest);
      // Already built: served without a token too.
      await t.http().post('/v1/advice/farkle').send(body).expect(200);

      // The opponent at or above the target: the player's last turn.
      const last = (
        await post('/v1/advice/farkle', { ...body, opponent: { banked: 2100 }, dice: undefined, diceLeft: 3 })
      ).body;
      const lastPure = adviseTwoPlayerBankOrRoll(sol, { ...position, opponent: 2100 }, 3);
      expect(last).toMatchObject({ bank: lastPure.bank, roll: lastPure.roll, best: { action: lastPure.best } });
      expect(last.bank).toBe(0); // 650 cannot beat 2,100

      // Not on the board yet: the chance to get on it this turn.
      const entering = (
        await post('/v1/advice/farkle', { ...body, banked: 0, turnPoints: 100, dice: undefined, diceLeft: 4 })
      ).body;
      expect(entering.onBoardChance).toBe(onBoardChance(SMALL_OPTIONS, 100, 4));
    });

    it.each([
      ['objective winProbability without opponent', { opponent: undefined }, 400, 'VALIDATION_FAILED'],
      ['opponent without objective winProbability', { objective: undefined }, 400, 'VALIDATION_FAILED'],
      ['opponent with the expected objective', { objective: 'expected' }, 400, 'VALIDATION_FAILED'],
      ['an unknown objective', { objective: 'winning' }, 400, 'VALIDATION_FAILED'],
      ['opponent null', { opponent: null }, 400, 'VALIDATION_FAILED'],
      ['opponent banked not an integer', { opponent: { banked: 'lots' } }, 400, 'VALIDATION_FAILED'],
      ['opponent banked negative', { opponent: { banked: -50 } }, 400, 'VALIDATION_FAILED'],
      ['lastRound with winProbability', { lastRound: { leader: 1500 } }, 400, 'VALIDATION_FAILED'],
      ['opponent banked not a multiple of 50', { opponent: { banked: 1225 } }, 400, 'INVALID_POSITION'],
      ['opponent banked below the entry threshold', { opponent: { banked: 200 } }, 400, 'INVALID_POSITION'],
      ['banked at the target', { banked: 2050 }, 400, 'INVALID_POSITION'],
      ['exactTarget', { options: { ...SMALL, exactTarget: true } }, 422, 'WIN_PROBABILITY_UNSUPPORTED'],
      [
        'a three-farkle penalty',
        { options: { ...SMALL, threeFarklePenalty: 500 } },
        422,
        'WIN_PROBABILITY_UNSUPPORTED',
      ],
      ['a target above the solver’s largest', { options: { target: 25_000 } }, 422, 'WIN_PROBABILITY_UNSUPPORTED'],
    ])('refuses %s (nothing built)', async (_why, change, status, code) => {
      const before = tables.status();
      // Options no table exists for, so that only validation can answer.
      const res = await t
        .http()
        .post('/v1/advice/farkle')
        .set(ada.auth)
        .send({ ...body, options: { ...SMALL, target: 2050 }, ...change });
      expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
      expect(tables.status()).toMatchObject({ queued: before.queued, building: before.building });
    });
  });
});
