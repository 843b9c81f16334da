/**
 * Issue 31 (five dice): the endgame win chances and the upper-bonus chance in the advice API
 * (stateless `POST /v1/advice/five-dice` / `fiveDiceAdvice` with `toBeat`, a game's advice once
 * every other seat finished) and in the post-game analysis (docs/advice.md).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEndgame, endgameWinChance, upperBonusChance } from '@fairdice/core/rules/advice';
import { simple } from '@fairdice/core/rules/five-dice/options';
import { createTestApp, gql, registerPlayer, type TestApp } from '../helpers/app';
import { AdviceTablesService } from '../../src/advice/advice-tables.service';
import { labelOfWinLoss } from '../../src/advice/game-analysis';

const CHEAP = { upperBonusPoints: 0 };
const CHEAP_OPTIONS = { ...simple, ...CHEAP };
const ADVICE = `expectedAtTurnStart dice rollsLeft toBeat winChanceStatus winChanceAtTurnStart upperBonusChance
  best { action hold box expected winChance } bestWin { action hold box expected winChance }
  holds { hold kept expected winChance } boxes { box points bonus expected winChance }`;

describe('advice: the five-dice endgame and the upper-bonus chance', () => {
  let t: TestApp;
  let dir: string;
  let tables: AdviceTablesService;
  let ada: Awaited<ReturnType<typeof registerPlayer>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fairdice-endgame-e2e-'));
    t = await createTestApp({ env: { ADVICE_CACHE_DIR: dir } });
    tables = t.app.get(AdviceTablesService);
    ada = await registerPlayer(t, 'Ada');
    await tables.whenReady(CHEAP_OPTIONS);
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const filled = [
    { box: 'ones', points: 3 },
    { box: 'twos', points: 6 },
    { box: 'threes', points: 9 },
    { box: 'fours', points: 12 },
    { box: 'fives', points: 15 },
    { box: 'sixes', points: 18 },
    { box: 'threeOfAKind', points: 20 },
    { box: 'fullHouse', points: 25 },
    { box: 'smallStraight', points: 30 },
    { box: 'fiveOfAKind', points: 0 },
  ]; // open: fourOfAKind, largeStraight, chance; total 138
  const body = { ruleSet: 'simple', options: CHEAP, filled, dice: [2, 3, 4, 5, 5], rollsLeft: 2, toBeat: 190 };
  const post = (input: Record<string, unknown>) => t.http().post('/v1/advice/five-dice').send(input);

  describe('stateless, with toBeat', () => {
    it('gives every hold and box its win chance next to the expected score; REST and GraphQL agree', async () => {
      const rest = (await post(body).expect(200)).body;
      expect(rest).toMatchObject({ toBeat: 190, winChanceStatus: 'solved', upperBonusChance: null });
      const sheet = { boxes: Object.fromEntries(filled.map((f) => [f.box, f.points])), extraBonus: 0 };
      expect(rest.winChanceAtTurnStart).toBeCloseTo(endgameWinChance(createEndgame(CHEAP_OPTIONS), sheet, 190), 12);
      for (const entry of [...rest.holds, ...rest.boxes]) {
        expect(entry.winChance).toBeGreaterThanOrEqual(0);
        expect(entry.winChance).toBeLessThanOrEqual(1);
      }
      // bestWin is the move with the highest win chance; 52 points are needed: the straight draw.
      const top = Math.max(...rest.holds.map((h: any) => h.winChance));
      expect(rest.bestWin.winChance).toBeCloseTo(top, 12);
      expect(rest.bestWin).toMatchObject({ action: 'hold', hold: [0, 1, 2, 3] });
      const g = await gql(t, `query($input: FiveDiceAdviceInput!) { fiveDiceAdvice(input: $input) { ${ADVICE} } }`, {
        input: body,
      });
      expect(g.data.fiveDiceAdvice).toEqual(rest);
    });

    it('before the first roll: the chance at the turn start on the roll move', async () => {
      const res = (await post({ ...body, dice: undefined, rollsLeft: 3 }).expect(200)).body;
      expect(res.best).toEqual(res.bestWin);
      expect(res.best.winChance).toBe(res.winChanceAtTurnStart);
    });

    it('without toBeat: noTarget and no win chances', async () => {
      const res = (await post({ ...body, toBeat: undefined }).expect(200)).body;
      expect(res).toMatchObject({
        toBeat: null,
        winChanceStatus: 'noTarget',
        winChanceAtTurnStart: null,
        bestWin: null,
      });
      expect(res.holds.every((h: any) => h.winChance === null)).toBe(true);
    });

    it('past the open-box maximum: tooManyOpenBoxes, expected-score advice only', async () => {
      const res = (await post({ ...body, filled: filled.slice(0, 8) }).expect(200)).body;
      expect(res).toMatchObject({ toBeat: 190, winChanceStatus: 'tooManyOpenBoxes', winChanceAtTurnStart: null });
      expect(res.boxes.every((b: any) => b.winChance === null)).toBe(true);
      expect(res.best.expected).toBeGreaterThan(0);
    });

    it.each([
      ['negative', -1],
      ['a fraction', 1.5],
      ['a string', '200'],
      ['null (leave it out instead)', null],
      ['too large', 100_001],
    ])('refuses toBeat %s: 400 VALIDATION_FAILED', async (_why, toBeat) => {
      const res = await post({ ...body, toBeat });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
      const g = await gql(t, `query($input: FiveDiceAdviceInput!) { fiveDiceAdvice(input: $input) { rollsLeft } }`, {
        input: { ...body, toBeat },
      });
      expect(g.errors?.[0].extensions?.code).toBe('VALIDATION_FAILED');
    });
  });

  describe('the upper-bonus chance', () => {
    it('is given while undecided, under the table of the rules, and null once decided', async () => {
      const table = await tables.whenReady(simple);
      const early = { ruleSet: 'simple', filled: [{ box: 'sixes', points: 24 }], rollsLeft: 3 };
      const res = (await post(early).expect(200)).body;
      expect(res.upperBonusChance).toBeGreaterThan(0);
      expect(res.upperBonusChance).toBeLessThan(1);
      expect(res.upperBonusChance).toBe(upperBonusChance(table, { boxes: { sixes: 24 } }));
      const rolled = (await post({ ...early, dice: [1, 1, 1, 1, 2], rollsLeft: 2 }).expect(200)).body;
      expect(rolled.upperBonusChance).toBe(upperBonusChance(table, { boxes: { sixes: 24 } }, [1, 1, 1, 1, 2], 2));
      const reached = (await post({ ...body, options: undefined, toBeat: undefined }).expect(200)).body;
      expect(reached.upperBonusChance).toBeNull(); // upper total 63: the bonus is already won
    }, 120_000);
  });

  describe('a game: the last seat to finish', () => {
    it('gets the win chances once every other seat finished, and the analysis judges those decisions by win chance', async () => {
      const game = (
        await t
          .http()
          .post('/v1/games')
          .set(ada.auth)
          .send({ ruleSet: 'simple', options: CHEAP, seats: 2, hotSeats: 1 })
          .expect(201)
      ).body;
      const id = game.id as string;
      let view = (await t.http().post(`/v1/games/${id}/start`).set(ada.auth).send({}).expect(200)).body;
      const advice = async () => (await t.http().get(`/v1/games/${id}/advice`).set(ada.auth).expect(200)).body;
      let endgameMoves = 0;
      while (view.status === 'playing') {
        const a = await advice();
        const sheets = view.fiveDice.sheets;
        const other = sheets.find((s: any) => s.seat !== a.seat);
        const otherDone = other.boxes.every((b: any) => b.points !== null);
        if (!otherDone) {
          expect(a.fiveDice).toMatchObject({ winChanceStatus: 'noTarget', toBeat: null });
          // Outside the endgame: roll once and score the first allowed box.
          view =
            view.fiveDice.rollInTurn === 0
              ? (await t.http().post(`/v1/games/${id}/roll`).set(ada.auth).send({}).expect(200)).body
              : (
                  await t
                    .http()
                    .post(`/v1/games/${id}/score`)
                    .set(ada.auth)
                    .send({ box: view.fiveDice.scoreOptions.boxes.find((b: any) => b.allowed).box })
                    .expect(200)
                ).body;
          continue;
        }
        // The endgame: seat 1's last turn, one box open, the other total to beat.
        expect(a.fiveDice).toMatchObject({ winChanceStatus: 'solved', toBeat: other.total });
        const move = a.fiveDice.bestWin;
        endgameMoves++;
        view =
          move.action === 'roll'
            ? (await t.http().post(`/v1/games/${id}/roll`).set(ada.auth).send({}).expect(200)).body
            : move.action === 'hold'
              ? (await t.http().post(`/v1/games/${id}/roll`).set(ada.auth).send({ hold: move.hold }).expect(200)).body
              : (await t.http().post(`/v1/games/${id}/score`).set(ada.auth).send({ box: move.box }).expect(200)).body;
      }
      expect(endgameMoves).toBeGreaterThanOrEqual(2);

      const analysis = (await t.http().get(`/v1/games/${id}/analysis`).expect(200)).body;
      const lastTurn = analysis.decisions.filter((d: any) => d.seat === 1 && d.turn === 13);
      expect(lastTurn.length).toBeGreaterThanOrEqual(1);
      for (const d of lastTurn) {
        // Played by bestWin: no win-chance loss, so "best" whatever the expected-score loss.
        expect(d.winChanceLoss).toBe(0);
        expect(d.winChance).toBe(d.bestWinChance);
        expect(d.label).toBe(labelOfWinLoss(d.winChanceLoss));
      }
      const before = analysis.decisions.filter((d: any) => !(d.seat === 1 && d.turn === 13));
      expect(before.every((d: any) => d.winChance === null && d.winChanceLoss === null)).toBe(true);
      const g = await gql(
        t,
        `query($id: ID!) { gameAnalysis(gameId: $id) { decisions { seat turn winChance bestWinChance winChanceLoss label } } }`,
        { id },
      );
      expect(g.data.gameAnalysis.decisions.filter((d: any) => d.seat === 1 && d.turn === 13)).toEqual(
        lastTurn.map((d: any) => ({
          seat: d.seat,
          turn: d.turn,
          winChance: d.winChance,
          bestWinChance: d.bestWinChance,
          winChanceLoss: d.winChanceLoss,
          label: d.label,
        })),
      );
    }, 120_000);
  });
});
