import { createTestApp, gql, type TestApp } from '../helpers/app';

describe('scoring: rule sets and stateless calculators', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('lists the four rule sets with their options', async () => {
    const res = await t.http().get('/v1/rule-sets').expect(200);
    expect(res.body.map((r: { name: string }) => r.name)).toEqual(['penta', 'simple', 'bonus', 'farkle']);
    const penta = res.body.find((r: { name: string }) => r.name === 'penta');
    expect(penta.options).toMatchObject({ joker: 'forced', extraFiveOfAKindBonus: 100 });
    await t.http().get('/v1/rule-sets/simple').expect(200);
    const missing = await t.http().get('/v1/rule-sets/yahtzee').expect(404);
    expect(missing.body.code).toBe('RULE_SET_NOT_FOUND');
  });

  it('scores every open box for dice and a sheet (joker case under penta)', async () => {
    const res = await t
      .http()
      .post('/v1/scoring/five-dice')
      .send({
        ruleSet: 'penta',
        dice: [4, 4, 4, 4, 4],
        filled: [{ box: 'fiveOfAKind', points: 50 }],
      })
      .expect(200);
    const fours = res.body.boxes.find((b: { box: string }) => b.box === 'fours');
    expect(fours).toEqual({ box: 'fours', points: 20, bonus: 100, allowed: true });
    // forced joker: only the fours box is allowed while it is open
    expect(res.body.boxes.filter((b: { allowed: boolean }) => b.allowed).map((b: { box: string }) => b.box)).toEqual([
      'fours',
    ]);
    expect(res.body.jokerActive).toBe(true);
  });

  it('the same five of a kind under simple is not a full house', async () => {
    const res = await t
      .http()
      .post('/v1/scoring/five-dice')
      .send({ ruleSet: 'simple', dice: [4, 4, 4, 4, 4], filled: [{ box: 'fiveOfAKind', points: 50 }] })
      .expect(200);
    expect(res.body.boxes.find((b: { box: string }) => b.box === 'fullHouse').points).toBe(0);
    expect(res.body.jokerActive).toBe(false);
  });

  it('reports must-sacrifice when no open box scores', async () => {
    const filled = [
      'ones',
      'threes',
      'fours',
      'sixes',
      'threeOfAKind',
      'fourOfAKind',
      'smallStraight',
      'chance',
      'twos',
      'fives',
      'fiveOfAKind',
    ].map((box) => ({ box, points: 0 }));
    const res = await t
      .http()
      .post('/v1/scoring/five-dice')
      .send({ ruleSet: 'simple', dice: [1, 1, 3, 4, 6], filled })
      .expect(200);
    expect(res.body.boxes.map((b: { box: string }) => b.box)).toEqual(['fullHouse', 'largeStraight']);
    expect(res.body.mustSacrifice).toBe(true);
  });

  it('lists Farkle selections and detects a farkle', async () => {
    const res = await t
      .http()
      .post('/v1/scoring/farkle')
      .send({ dice: [2, 1, 4, 1, 6, 5] })
      .expect(200);
    expect(res.body.farkle).toBe(false);
    expect(res.body.best.points).toBe(250);
    const none = await t
      .http()
      .post('/v1/scoring/farkle')
      .send({ dice: [2, 3, 4, 6] })
      .expect(200);
    expect(none.body).toMatchObject({ farkle: true, selections: [], best: null });
  });

  it('GraphQL offers the same calculators', async () => {
    const body = await gql(
      t,
      'query($i: FarkleScoreInput!) { farkleSelections(input: $i) { farkle best { points } } ruleSets { name family } }',
      { i: { dice: [2, 2, 2, 2] } },
    );
    expect(body.data.farkleSelections).toEqual({ farkle: false, best: { points: 400 } });
    expect(body.data.ruleSets).toHaveLength(4);
  });

  it.each([
    [{ ruleSet: 'penta', dice: [1, 2, 3, 4] }, 'VALIDATION_FAILED'],
    [{ ruleSet: 'penta', dice: [1, 2, 3, 4, 7] }, 'VALIDATION_FAILED'],
    [{ ruleSet: 'penta', dice: [1, 2, 3, 4, 5.5] }, 'VALIDATION_FAILED'],
    [{ ruleSet: 'penta', dice: '12345' }, 'VALIDATION_FAILED'],
    [{ ruleSet: 'farkle', dice: [1, 2, 3, 4, 5] }, 'VALIDATION_FAILED'],
    [{ ruleSet: 'penta', dice: [1, 2, 3, 4, 5], extra: 1 }, 'VALIDATION_FAILED'],
    [{ ruleSet: 'penta', dice: [1, 2, 3, 4, 5], filled: [{ box: 'sevens', points: 0 }] }, 'VALIDATION_FAILED'],
    [{ ruleSet: 'penta', dice: [1, 2, 3, 4, 5], filled: [{ box: 'fullHouse', points: 24 }] }, 'INVALID_COMMAND'],
    [{ ruleSet: 'penta', dice: [1, 2, 3, 4, 5], options: { joker: 'sometimes' } }, 'INVALID_OPTIONS'],
  ])('five-dice calculator rejects %p with %s', async (body: object, code: string) => {
    const res = await t.http().post('/v1/scoring/five-dice').send(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(code);
  });

  it.each([
    [{ dice: [] }],
    [{ dice: [1, 2, 3, 4, 5, 6, 1] }],
    [{ dice: [0] }],
    [{ dice: [1], options: { straights: 'yes please' } }],
  ])('farkle calculator rejects %p', async (body: object) => {
    const res = await t.http().post('/v1/scoring/farkle').send(body);
    expect(res.status).toBe(400);
    expect(['VALIDATION_FAILED', 'INVALID_OPTIONS']).toContain(res.body.code);
  });
});
