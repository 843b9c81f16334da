import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { solveFiveDice, expectedScoreFromStart } from '@fairdice/core/rules/advice';
import { simple } from '@fairdice/core/rules/five-dice/options';
import { farkle } from '@fairdice/core/rules/farkle/options';
import { createTestApp, gql, registerPlayer, type TestApp } from '../helpers/app';
import { countCreatedBy } from '../helpers/games';
import { AdviceTablesService } from '../../src/advice/advice-tables.service';

// Cheap rules for fast tables: `simple` without the upper bonus solves in a fraction of a second.
const CHEAP = { upperBonusPoints: 0 };
const CHEAP_OPTIONS = { ...simple, ...CHEAP };

const FIVE_DICE_ADVICE = `expectedAtTurnStart dice rollsLeft best { action hold box expected winChance }
  holds { hold kept expected winChance } boxes { box points bonus expected winChance }
  toBeat winChanceStatus winChanceAtTurnStart upperBonusChance bestWin { action hold box expected winChance }`;
const FARKLE_ADVICE = `objective banked turnPoints dice leader opponent onBoardChance value best { action dice then value }
  setAsides { dice faces points diceLeft then bank roll value } bank roll`;

describe('advice: game option, game advice, stateless advisers, post-game analysis', () => {
  let t: TestApp;
  let dir: string;
  let tables: AdviceTablesService;
  let ada: Awaited<ReturnType<typeof registerPlayer>>;
  let bob: Awaited<ReturnType<typeof registerPlayer>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fairdice-advice-e2e-'));
    t = await createTestApp({ env: { ADVICE_CACHE_DIR: dir, ADVICE_CUSTOM_BUILDS_PER_HOUR: '3' } });
    tables = t.app.get(AdviceTablesService);
    ada = await registerPlayer(t, 'Ada');
    bob = await registerPlayer(t, 'Bob');
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const create = async (input: Record<string, unknown>, auth = ada.auth) =>
    (await t.http().post('/v1/games').set(auth).send(input).expect(201)).body;
  const startSolo = async (extra: Record<string, unknown> = {}) => {
    const game = await create({ ruleSet: 'simple', options: CHEAP, seats: 1, ...extra });
    await t.http().post(`/v1/games/${game.id}/start`).set(ada.auth).send({}).expect(200);
    return game.id as string;
  };
  const advice = (id: string, auth = ada.auth) => t.http().get(`/v1/games/${id}/advice`).set(auth);

  describe('the game option advice', () => {
    it('defaults to allowed, is stored in the create event and shown in the game view (REST and GraphQL)', async () => {
      const game = await create({ ruleSet: 'simple', seats: 2 });
      expect(game.advice).toBe('allowed');
      const forbidden = await create({ ruleSet: 'simple', seats: 2, advice: 'forbidden' });
      expect(forbidden.advice).toBe('forbidden');
      const events = await t.http().get(`/v1/games/${forbidden.id}/events`).expect(200);
      expect(events.body.items[0]).toMatchObject({ type: 'gameCreated', data: { advice: 'forbidden' } });

      const res = await gql(
        t,
        `mutation { createGame(input: { ruleSet: farkle, seats: 2, advice: forbidden }) { id advice } }`,
        {},
        ada.token,
      );
      expect(res.data.createGame.advice).toBe('forbidden');
      const read = await gql(t, `query($id: ID!) { game(id: $id) { advice } }`, { id: forbidden.id }, ada.token);
      expect(read.data.game.advice).toBe('forbidden');
    });

    it('refuses a value it does not know, storing nothing', async () => {
      const before = await countCreatedBy(t, ada.id);
      const res = await t
        .http()
        .post('/v1/games')
        .set(ada.auth)
        .send({ ruleSet: 'simple', seats: 1, advice: 'sometimes' });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      const g = await gql(
        t,
        `mutation { createGame(input: { ruleSet: simple, seats: 1, advice: sometimes }) { id } }`,
        {},
        ada.token,
      );
      expect(g.errors?.[0].extensions?.code).toBe('VALIDATION_FAILED');
      expect(await countCreatedBy(t, ada.id)).toEqual(before);
    });

    it('a game that forbids advice answers ADVICE_FORBIDDEN over both transports', async () => {
      const id = await startSolo({ advice: 'forbidden' });
      await t.http().post(`/v1/games/${id}/roll`).set(ada.auth).send({}).expect(200);
      const res = await advice(id).expect(403);
      expect(res.body.code).toBe('ADVICE_FORBIDDEN');
      const g = await gql(t, `query($id: ID!) { gameAdvice(gameId: $id) { seat } }`, { id }, ada.token);
      expect(g.errors?.[0].extensions?.code).toBe('ADVICE_FORBIDDEN');
    });
  });

  describe('advice for the player to move', () => {
    it('answers 503 TABLE_BUILDING with Retry-After while the table is computed, then the advice', async () => {
      const id = await startSolo({ options: { upperBonusPoints: 0, upperBonusThreshold: 50 } });
      await t.http().post(`/v1/games/${id}/roll`).set(ada.auth).send({}).expect(200);
      const building = await advice(id).expect(503);
      expect(building.body.code).toBe('TABLE_BUILDING');
      expect(Number(building.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // GraphQL: a table nobody asked for yet (other options) is TABLE_BUILDING with retryAfter.
      const g = await gql(
        t,
        `{ fiveDiceAdvice(input: { ruleSet: simple, options: { upperBonusPoints: 0, upperBonusThreshold: 40 }, rollsLeft: 3 }) { rollsLeft } }`,
        {},
        ada.token, // a new table for custom options is built for a signed-in player only
      );
      expect(g.errors?.[0].extensions).toMatchObject({ code: 'TABLE_BUILDING', status: 503 });
      expect(g.errors?.[0].extensions?.retryAfter).toBeGreaterThanOrEqual(1);
      await tables.whenReady({ ...simple, upperBonusPoints: 0, upperBonusThreshold: 50 });
      const ready = await advice(id).expect(200);
      expect(ready.body).toMatchObject({ gameId: id, family: 'five-dice', seat: 0, farkle: null });
      expect(ready.body.fiveDice.rollsLeft).toBe(2);
    });

    it('a solo game played by the advice loses nothing in the post-game analysis (REST), and GraphQL agrees', async () => {
      await tables.whenReady(CHEAP_OPTIONS);
      const id = await startSolo();
      const atStart = (await advice(id).expect(200)).body.fiveDice;
      expect(atStart).toMatchObject({ dice: null, rollsLeft: 3, holds: [], boxes: [], best: { action: 'roll' } });
      expect(atStart.expectedAtTurnStart).toBeCloseTo(expectedScoreFromStart(solveFiveDice(CHEAP_OPTIONS)), 9);

      const early = await t.http().get(`/v1/games/${id}/analysis`).expect(409);
      expect(early.body.code).toBe('GAME_NOT_FINISHED');

      let view = (await t.http().get(`/v1/games/${id}`).expect(200)).body;
      let compared = false;
      while (view.status === 'playing') {
        const a = (await advice(id).expect(200)).body;
        expect(a.version).toBe(view.version);
        const fd = a.fiveDice;
        // Best first (ties within 1e-9 go by the documented order).
        for (let i = 1; i < fd.holds.length; i++)
          expect(fd.holds[i].expected).toBeLessThanOrEqual(fd.holds[0].expected + 1e-9);
        for (let i = 1; i < fd.boxes.length; i++)
          expect(fd.boxes[i].expected).toBeLessThanOrEqual(fd.boxes[0].expected + 1e-9);
        if (!compared && fd.dice) {
          // The same advice over GraphQL.
          const g = await gql(
            t,
            `query($id: ID!) { gameAdvice(gameId: $id) { version family seat fiveDice { ${FIVE_DICE_ADVICE} } } }`,
            { id },
            ada.token,
          );
          expect(g.data.gameAdvice).toMatchObject({ version: a.version, family: 'five_dice', seat: 0 });
          expect({ ...g.data.gameAdvice.fiveDice, boxes: null }).toEqual({ ...fd, boxes: null });
          expect(g.data.gameAdvice.fiveDice.boxes.map((b: any) => b.expected)).toEqual(
            fd.boxes.map((b: any) => b.expected),
          );
          compared = true;
        }
        const move = fd.best;
        const res =
          move.action === 'roll'
            ? await t.http().post(`/v1/games/${id}/roll`).set(ada.auth).send({})
            : move.action === 'hold'
              ? await t.http().post(`/v1/games/${id}/roll`).set(ada.auth).send({ hold: move.hold })
              : await t.http().post(`/v1/games/${id}/score`).set(ada.auth).send({ box: move.box });
        expect(res.status).toBe(200);
        view = res.body;
      }
      expect(compared).toBe(true);
      expect((await advice(id)).body.code).toBe('GAME_FINISHED');

      const analysis = (await t.http().get(`/v1/games/${id}/analysis`).expect(200)).body;
      const boxes = analysis.decisions.filter((d: any) => d.kind === 'box');
      expect(boxes).toHaveLength(13);
      expect(analysis.decisions.every((d: any) => d.loss === 0 && d.label === 'best')).toBe(true);
      expect(analysis.seats).toEqual([
        expect.objectContaining({
          seat: 0,
          playerId: ada.id,
          optimal: analysis.decisions.length,
          totalLoss: 0,
          accuracy: 100,
        }),
      ]);
      expect(analysis.seats[0].score).toBe(view.standings[0].total);

      // Anyone may read a public game's analysis; GraphQL gives the same.
      await t.http().get(`/v1/games/${id}/analysis`).expect(200);
      const g = await gql(
        t,
        `query($id: ID!) { gameAnalysis(gameId: $id) { gameId optimalExpectedScore
          seats { seat playerId decisions optimal inaccuracies mistakes blunders totalLoss accuracy score }
          decisions { version seat turn kind dice rollsLeft kept box bestKept bestBox expected bestExpected loss label reason } } }`,
        { id },
      );
      expect(g.data.gameAnalysis.seats).toEqual(analysis.seats);
      expect(g.data.gameAnalysis.decisions.length).toBe(analysis.decisions.length);
      expect(g.data.gameAnalysis.optimalExpectedScore).toBe(analysis.optimalExpectedScore);
    });

    it('labels a bad move by its expected-value loss', async () => {
      await tables.whenReady(CHEAP_OPTIONS);
      const id = await startSolo();
      // Score every turn's first roll in the first open box, whatever the dice: mostly poor moves.
      let view = (await t.http().post(`/v1/games/${id}/roll`).set(ada.auth).send({}).expect(200)).body;
      while (view.status === 'playing') {
        if (view.fiveDice.rollInTurn === 0) {
          view = (await t.http().post(`/v1/games/${id}/roll`).set(ada.auth).send({}).expect(200)).body;
          continue;
        }
        const box = view.fiveDice.scoreOptions.boxes.find((b: any) => b.allowed).box;
        view = (await t.http().post(`/v1/games/${id}/score`).set(ada.auth).send({ box }).expect(200)).body;
      }
      const analysis = (await t.http().get(`/v1/games/${id}/analysis`).expect(200)).body;
      expect(analysis.decisions).toHaveLength(26); // 13 × (stop rolling after one roll, box)
      const seat = analysis.seats[0];
      expect(seat.totalLoss).toBeGreaterThan(0);
      expect(seat.totalLoss).toBeCloseTo(
        analysis.decisions.reduce((s: number, d: any) => s + d.loss, 0),
        9,
      );
      expect(seat.accuracy).toBeCloseTo(
        (100 * (analysis.optimalExpectedScore - seat.totalLoss)) / analysis.optimalExpectedScore,
        9,
      );
      for (const d of analysis.decisions) {
        expect(d.loss).toBeCloseTo(d.bestExpected - d.expected, 9);
        const label =
          d.loss <= 1e-9
            ? 'best'
            : d.loss < 0.5
              ? 'good'
              : d.loss < 2
                ? 'inaccuracy'
                : d.loss < 6
                  ? 'mistake'
                  : 'blunder';
        expect(d.label).toBe(label);
      }
      expect(seat.blunders + seat.mistakes).toBeGreaterThan(0);
    });

    it('only the player to move may ask, in a started game', async () => {
      await tables.whenReady(CHEAP_OPTIONS);
      const game = await create({ ruleSet: 'simple', options: CHEAP, seats: 2 });
      expect((await advice(game.id).expect(409)).body.code).toBe('GAME_NOT_STARTED');
      await t.http().post(`/v1/games/${game.id}/join`).set(bob.auth).send({}).expect(200);
      const view = (await t.http().post(`/v1/games/${game.id}/start`).set(ada.auth).send({}).expect(200)).body;
      const mover = view.currentPlayerId === ada.id ? ada : bob;
      const waiting = mover === ada ? bob : ada;
      expect((await advice(game.id, waiting.auth).expect(409)).body.code).toBe('NOT_YOUR_TURN');
      await advice(game.id, mover.auth).expect(200);
      const carol = await registerPlayer(t, 'Carol');
      expect((await advice(game.id, carol.auth).expect(403)).body.code).toBe('NOT_SEATED');
      expect((await t.http().get(`/v1/games/${game.id}/advice`).expect(401)).body.code).toBe('UNAUTHENTICATED');
      const g = await gql(t, `query($id: ID!) { gameAdvice(gameId: $id) { seat } }`, { id: game.id }, waiting.token);
      expect(g.errors?.[0].extensions?.code).toBe('NOT_YOUR_TURN');
    });

    it('hot seats: the creator asks for every seat', async () => {
      await tables.whenReady(CHEAP_OPTIONS);
      const game = await create({ ruleSet: 'simple', options: CHEAP, seats: 2, hotSeats: 1 });
      await t.http().post(`/v1/games/${game.id}/start`).set(ada.auth).send({}).expect(200);
      const first = (await advice(game.id).expect(200)).body;
      const v = (await t.http().post(`/v1/games/${game.id}/roll`).set(ada.auth).send({}).expect(200)).body;
      await t
        .http()
        .post(`/v1/games/${game.id}/score`)
        .set(ada.auth)
        .send({ box: v.fiveDice.scoreOptions.boxes.find((b: any) => b.allowed).box })
        .expect(200);
      const second = (await advice(game.id).expect(200)).body;
      expect(new Set([first.seat, second.seat])).toEqual(new Set([0, 1]));
    });

    it('Farkle: set-aside and bank-or-roll advice for the player to move', async () => {
      await tables.whenReady(farkle, 'farkle');
      const game = await create({ ruleSet: 'farkle', seats: 1 });
      await t.http().post(`/v1/games/${game.id}/start`).set(ada.auth).send({}).expect(200);
      const start = (await advice(game.id).expect(200)).body;
      expect(start.farkle).toMatchObject({
        objective: 'fewestTurns',
        banked: 0,
        turnPoints: 0,
        best: { action: 'roll' },
      });
      expect(start.farkle.value).toBeCloseTo(18.8739, 4);
      let view = (await t.http().post(`/v1/games/${game.id}/roll`).set(ada.auth).send({}).expect(200)).body;
      while (view.farkle.selections.length === 0) {
        view = (await t.http().post(`/v1/games/${game.id}/roll`).set(ada.auth).send({}).expect(200)).body;
      }
      const a = (await advice(game.id).expect(200)).body.farkle;
      expect(a.dice).toEqual(view.dice);
      expect(a.setAsides.length).toBe(view.farkle.selections.length);
      expect(a.best).toMatchObject({ action: 'setAside', dice: a.setAsides[0].dice, then: a.setAsides[0].then });
      const after = (
        await t.http().post(`/v1/games/${game.id}/set-aside`).set(ada.auth).send({ dice: a.best.dice }).expect(200)
      ).body;
      const bankOrRoll = (await advice(game.id).expect(200)).body.farkle;
      expect(bankOrRoll.turnPoints).toBe(after.farkle.turnPoints);
      expect(bankOrRoll.setAsides).toEqual([]);
      expect(['bank', 'roll']).toContain(bankOrRoll.best.action);
      // Post-game analysis covers five-dice and two-seat Farkle games only.
      expect((await t.http().get(`/v1/games/${game.id}/analysis`).expect(422)).body.code).toBe('ADVICE_UNSUPPORTED');
    });
  });

  describe('the stateless five-dice advisor', () => {
    const body = {
      ruleSet: 'simple',
      options: CHEAP,
      filled: [
        { box: 'ones', points: 3 },
        { box: 'chance', points: 22 },
      ],
      dice: [6, 6, 2, 6, 3],
      rollsLeft: 2,
    };

    it('gives holds and boxes best first, the same over REST and GraphQL', async () => {
      await tables.whenReady(CHEAP_OPTIONS);
      const rest = (await t.http().post('/v1/advice/five-dice').send(body).expect(200)).body;
      expect(rest.best).toMatchObject({ action: 'hold', hold: [0, 1, 3] });
      expect(rest.holds[0].kept).toEqual([6, 6, 6]);
      expect(rest.boxes.map((b: any) => b.box)).not.toContain('chance');
      const g = await gql(
        t,
        `query($input: FiveDiceAdviceInput!) { fiveDiceAdvice(input: $input) { ${FIVE_DICE_ADVICE} } }`,
        {
          input: { ...body, ruleSet: 'simple' },
        },
      );
      expect(g.data.fiveDiceAdvice).toEqual(rest);
      const last = (
        await t
          .http()
          .post('/v1/advice/five-dice')
          .send({ ...body, rollsLeft: 0 })
          .expect(200)
      ).body;
      expect(last.holds).toEqual([]);
      expect(last.best).toMatchObject({ action: 'score', box: last.boxes[0].box });
    });

    it.each([
      ['an upper value not a multiple of the face', { filled: [{ box: 'twos', points: 3 }] }, 400, 'INVALID_SHEET'],
      ['an impossible lower value', { filled: [{ box: 'fullHouse', points: 20 }] }, 400, 'INVALID_SHEET'],
      [
        'a box listed twice',
        {
          filled: [
            { box: 'ones', points: 1 },
            { box: 'ones', points: 2 },
          ],
        },
        400,
        'INVALID_SHEET',
      ],
      ['an extra bonus without 50 in five of a kind', { ruleSet: 'bonus', extraBonus: 100 }, 400, 'INVALID_SHEET'],
      [
        'an extra bonus under rules without one',
        {
          filled: [
            { box: 'fiveOfAKind', points: 50 },
            { box: 'ones', points: 5 },
          ],
          extraBonus: 100,
        },
        400,
        'INVALID_SHEET',
      ],
      ['an unknown box', { filled: [{ box: 'sevens', points: 7 }] }, 400, 'VALIDATION_FAILED'],
      ['a die out of range', { dice: [0, 1, 2, 3, 4] }, 400, 'VALIDATION_FAILED'],
      ['a seven', { dice: [1, 2, 3, 4, 7] }, 400, 'VALIDATION_FAILED'],
      ['four dice', { dice: [1, 2, 3, 4] }, 400, 'VALIDATION_FAILED'],
      ['rolls left out of range', { rollsLeft: 4 }, 400, 'VALIDATION_FAILED'],
      ['negative rolls left', { rollsLeft: -1 }, 400, 'VALIDATION_FAILED'],
      ['dice with rollsLeft 3', { rollsLeft: 3 }, 400, 'VALIDATION_FAILED'],
      ['no dice with rolls made', { dice: undefined }, 400, 'VALIDATION_FAILED'],
      // null is not "omitted": it used to answer 200 for another position (rollsLeft 3).
      ['dice null with rolls made', { dice: null }, 400, 'VALIDATION_FAILED'],
      ['dice null with rollsLeft 3', { dice: null, rollsLeft: 3 }, 400, 'VALIDATION_FAILED'],
      ['an unknown rule set', { ruleSet: 'yatzy' }, 400, 'VALIDATION_FAILED'],
      ['a Farkle rule set', { ruleSet: 'farkle' }, 400, 'VALIDATION_FAILED'],
      ['an unknown option', { options: { jokers: 'none' } }, 400, 'INVALID_OPTIONS'],
      ['a bad option value', { options: { joker: 'sometimes' } }, 400, 'INVALID_OPTIONS'],
    ])('refuses %s', async (_why, change, status, code) => {
      const res = await t
        .http()
        .post('/v1/advice/five-dice')
        .send({ ...body, ...change });
      expect(res.status).toBe(status);
      expect(res.body.code).toBe(code);
    });

    it('refuses a full sheet and an impossible sheet over GraphQL with the same code', async () => {
      const boxes = [
        'ones',
        'twos',
        'threes',
        'fours',
        'fives',
        'sixes',
        'threeOfAKind',
        'fourOfAKind',
        'fullHouse',
        'smallStraight',
        'largeStraight',
        'fiveOfAKind',
        'chance',
      ];
      const full = (
        await t
          .http()
          .post('/v1/advice/five-dice')
          .send({ ...body, filled: boxes.map((box) => ({ box, points: 0 })) })
      ).body;
      expect(full.code).toBe('INVALID_SHEET');
      const g = await gql(t, `query($input: FiveDiceAdviceInput!) { fiveDiceAdvice(input: $input) { rollsLeft } }`, {
        input: { ...body, filled: [{ box: 'sixes', points: 7 }] },
      });
      expect(g.errors?.[0].extensions?.code).toBe('INVALID_SHEET');
      const dice = await gql(t, `query($input: FiveDiceAdviceInput!) { fiveDiceAdvice(input: $input) { rollsLeft } }`, {
        input: { ...body, dice: [1, 2, 3, 4, 9] },
      });
      expect(dice.errors?.[0].extensions?.code).toBe('VALIDATION_FAILED');
      const nullDice = await gql(
        t,
        `{ fiveDiceAdvice(input: { ruleSet: simple, dice: null, rollsLeft: 2 }) { rollsLeft } }`,
      );
      expect(nullDice.errors?.[0].extensions?.code).toBe('VALIDATION_FAILED');
    });
  });

  describe('the stateless advisers: new tables for custom options (issue 24, item 6)', () => {
    const opening = (upperBonusThreshold: number) => ({
      ruleSet: 'simple',
      options: { upperBonusPoints: 0, upperBonusThreshold },
      rollsLeft: 3,
    });
    const files = () => readdirSync(dir).filter((f) => f.endsWith('.fdot'));

    it('refuses an anonymous caller a table that is not built yet: 401 UNAUTHENTICATED, nothing queued or written', async () => {
      const before = { status: tables.status(), files: files() };
      const rest = await t.http().post('/v1/advice/five-dice').send(opening(33));
      expect({ status: rest.status, code: rest.body.code }).toEqual({ status: 401, code: 'UNAUTHENTICATED' });
      const farkleRest = await t
        .http()
        .post('/v1/advice/farkle')
        .send({ options: { target: 8500 }, banked: 0, turnPoints: 0, dice: [1, 5, 2, 2, 2, 6] });
      expect(farkleRest.body.code).toBe('UNAUTHENTICATED');
      const g = await gql(
        t,
        `{ fiveDiceAdvice(input: { ruleSet: simple, options: { upperBonusPoints: 0, upperBonusThreshold: 33 }, rollsLeft: 3 }) { rollsLeft } }`,
      );
      expect(g.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
      expect(tables.status()).toMatchObject({ queued: before.status.queued, building: before.status.building });
      expect(files()).toEqual(before.files);
      // A preset needs no token.
      await tables.whenReady(simple);
      await t.http().post('/v1/advice/five-dice').send({ ruleSet: 'simple', rollsLeft: 3 }).expect(200);
    }, 60_000);

    it("builds a signed-in player's tables within ADVICE_CUSTOM_BUILDS_PER_HOUR, then 429 ADVICE_BUILD_LIMITED with Retry-After", async () => {
      for (const threshold of [34, 35, 36]) {
        const res = await t.http().post('/v1/advice/five-dice').set(bob.auth).send(opening(threshold));
        expect(res.body.code).toBe('TABLE_BUILDING');
        // One at a time: a player may have two builds in flight (CUSTOM_BUILDS_IN_FLIGHT).
        await tables.whenReady({ ...simple, upperBonusPoints: 0, upperBonusThreshold: threshold });
      }
      const limited = await t.http().post('/v1/advice/five-dice').set(bob.auth).send(opening(37));
      expect(limited.status).toBe(429);
      expect(limited.body.code).toBe('ADVICE_BUILD_LIMITED');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3000);
      const g = await gql(
        t,
        `{ fiveDiceAdvice(input: { ruleSet: simple, options: { upperBonusPoints: 0, upperBonusThreshold: 37 }, rollsLeft: 3 }) { rollsLeft } }`,
        {},
        bob.token,
      );
      expect(g.errors?.[0].extensions).toMatchObject({ code: 'ADVICE_BUILD_LIMITED', status: 429 });
      // The tables paid for are served (to anyone, once built); the refused one is not on disk.
      await t.http().post('/v1/advice/five-dice').send(opening(34)).expect(200);
      expect(existsSync(tables.cacheFile({ ...simple, upperBonusPoints: 0, upperBonusThreshold: 37 }))).toBe(false);
    });
  });

  describe('the stateless Farkle advisor, before its table exists', () => {
    it('refuses an invalid body with 400, not 503 TABLE_BUILDING, and queues nothing', async () => {
      // Options no test builds: their table does not exist, so only validation can answer.
      const before = tables.status();
      for (const body of [
        { options: { target: 9500 }, banked: 0, turnPoints: 0, dice: null },
        { options: { target: 9500 }, banked: 0, turnPoints: 100, dice: null, diceLeft: 3 },
        { options: { target: 9500 }, banked: 0, turnPoints: 100, diceLeft: null },
      ]) {
        const res = await t.http().post('/v1/advice/farkle').set(ada.auth).send(body);
        expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
      }
      expect(tables.status()).toMatchObject({ queued: before.queued, building: before.building });
    });
  });

  describe('the stateless Farkle advisor', () => {
    beforeAll(() => tables.whenReady(farkle, 'farkle'));

    it('advises the set-aside, bank or roll, and the last-round adjustment (REST = GraphQL)', async () => {
      const roll = { banked: 0, turnPoints: 0, dice: [1, 5, 2, 2, 2, 6] };
      const rest = (await t.http().post('/v1/advice/farkle').send(roll).expect(200)).body;
      expect(rest.objective).toBe('fewestTurns');
      expect(rest.setAsides.length).toBeGreaterThan(1);
      expect(rest.best.dice).toEqual(rest.setAsides[0].dice);
      for (const s of rest.setAsides) expect(s.value).toBeGreaterThanOrEqual(rest.setAsides[0].value);
      const g = await gql(t, `query($input: FarkleAdviceInput!) { farkleAdvice(input: $input) { ${FARKLE_ADVICE} } }`, {
        input: roll,
      });
      expect(g.data.farkleAdvice).toEqual(rest);

      const bank = (
        await t.http().post('/v1/advice/farkle').send({ banked: 5000, turnPoints: 1000, diceLeft: 1 }).expect(200)
      ).body;
      expect(bank).toMatchObject({ best: { action: 'bank' } });
      expect(bank.bank).toBeLessThan(bank.roll);

      const last = (
        await t
          .http()
          .post('/v1/advice/farkle')
          .send({ banked: 8000, turnPoints: 0, dice: [1, 5, 2, 3, 4, 6], lastRound: { leader: 9000 } })
          .expect(200)
      ).body;
      expect(last.objective).toBe('beatLeader');
      expect(last.leader).toBe(9000);
      for (const s of last.setAsides) expect(s.value).toBeLessThanOrEqual(last.setAsides[0].value);
      // Above the leader, banking wins at once.
      const winning = (
        await t
          .http()
          .post('/v1/advice/farkle')
          .send({ banked: 8000, turnPoints: 1050, diceLeft: 2, lastRound: { leader: 9000 } })
          .expect(200)
      ).body;
      expect(winning).toMatchObject({ objective: 'beatLeader', value: 1, best: { action: 'bank' } });
    });

    it.each([
      ['banked not a multiple of 50', { banked: 75 }, 400, 'INVALID_POSITION'],
      ['banked at the target', { banked: 10000 }, 400, 'INVALID_POSITION'],
      ['banked below the entry threshold', { banked: 500 }, 400, 'INVALID_POSITION'],
      ['turn points not a multiple of 50', { turnPoints: 120 }, 400, 'INVALID_POSITION'],
      ['a die out of range', { dice: [1, 5, 7] }, 400, 'VALIDATION_FAILED'],
      ['seven dice', { dice: [1, 1, 1, 1, 1, 1, 1] }, 400, 'VALIDATION_FAILED'],
      ['dice null', { dice: null }, 400, 'VALIDATION_FAILED'],
      ['dice and diceLeft', { diceLeft: 3 }, 400, 'VALIDATION_FAILED'],
      ['diceLeft out of range', { dice: undefined, turnPoints: 100, diceLeft: 7 }, 400, 'VALIDATION_FAILED'],
      ['bank or roll without turn points', { dice: undefined, diceLeft: 3 }, 400, 'INVALID_POSITION'],
      ['an unknown option', { options: { goal: 5000 } }, 400, 'INVALID_OPTIONS'],
      ['rules the advisor does not model', { options: { exactTarget: true } }, 422, 'ADVICE_UNSUPPORTED'],
    ])('refuses %s', async (_why, change, status, code) => {
      const res = await t
        .http()
        .post('/v1/advice/farkle')
        .send({ banked: 0, turnPoints: 0, dice: [1, 5, 2, 2, 2, 6], ...change });
      expect(res.status).toBe(status);
      expect(res.body.code).toBe(code);
    });
  });
});
