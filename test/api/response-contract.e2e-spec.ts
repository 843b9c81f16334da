/**
 * The REST contract check (test/helpers/contract.ts) itself: it catches an undocumented field, a
 * wrong type, an undeclared status, route, content type or header, and it does see the
 * responses of the apps the e2e tests build.
 */
import { checkedResponses, ResponseContract, takeViolations } from '../helpers/contract';
import { createTestApp, registerPlayer, type TestApp } from '../helpers/app';

const contract = ResponseContract.fromFile();
const json = { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'r1' };
const rule = (over: Record<string, unknown> = {}) =>
  JSON.stringify({
    name: 'penta',
    family: 'five-dice',
    title: 'Penta',
    description: 'Five dice',
    options: { joker: 'forced', extraFiveOfAKindBonus: 100, upperBonusThreshold: 63, upperBonusPoints: 35 },
    minSeats: 1,
    maxSeats: 8,
    ...over,
  });
const get = (url: string, status: number, body: string, headers: Record<string, unknown> = json) =>
  contract.check({ method: 'GET', url, status, headers, body });

describe('the REST response contract check', () => {
  it('passes a response that matches the document', () => {
    expect(get('/v1/rule-sets/penta', 200, rule())).toEqual([]);
  });

  it('fails an undocumented field (objects are closed)', () => {
    const found = get('/v1/rule-sets/penta', 200, rule({ secretField: 1 }));
    expect(found.join('\n')).toMatch(/must NOT have additional properties.*secretField/);
  });

  it('fails a wrong type, a value outside an enum and a missing field', () => {
    expect(get('/v1/rule-sets/penta', 200, rule({ minSeats: 1.5 })).join()).toMatch(/minSeats must be integer/);
    expect(get('/v1/rule-sets/penta', 200, rule({ family: 'chess' })).join()).toMatch(/family must be equal to one of/);
    const { title: _title, ...rest } = JSON.parse(rule()) as Record<string, unknown>;
    expect(get('/v1/rule-sets/penta', 200, JSON.stringify(rest)).join()).toMatch(/must have required property 'title'/);
  });

  it('fails options that belong to no family', () => {
    const found = get('/v1/rule-sets/penta', 200, rule({ options: { joker: 'forced' } }));
    expect(found.join()).toMatch(/options/);
  });

  it('fails an undeclared status, an undocumented route and an undeclared content type', () => {
    const problem = JSON.stringify({ type: 'x', title: 't', status: 409, detail: 'd', code: 'VERSION_CONFLICT' });
    expect(get('/v1/rule-sets/penta', 409, problem, { ...json, 'content-type': 'application/problem+json' })).toEqual([
      expect.stringMatching(/status 409 is not declared/),
    ]);
    expect(contract.check({ method: 'POST', url: '/v1/rule-sets', status: 200, headers: json, body: '[]' })).toEqual([
      expect.stringMatching(/no documented operation/),
    ]);
    expect(get('/v1/rule-sets/penta', 200, 'hello', { 'content-type': 'text/plain' })).toEqual([
      expect.stringMatching(/content type "text\/plain" is not declared/),
    ]);
  });

  it('accepts 404 ROUTE_NOT_FOUND for an unknown route, nothing else', () => {
    const notFound = JSON.stringify({
      type: 'https://fairdice.dev/problems/route-not-found',
      title: 'No such route',
      status: 404,
      detail: 'Cannot GET /v1/nothing',
      code: 'ROUTE_NOT_FOUND',
      instance: '/v1/nothing',
    });
    const headers = { ...json, 'content-type': 'application/problem+json; charset=utf-8' };
    expect(get('/v1/nothing', 404, notFound, headers)).toEqual([]);
    expect(get('/v1/nothing', 404, JSON.stringify({ oops: true }), headers)).not.toEqual([]);
  });

  it('fails a problem whose code does not belong to the status', () => {
    const problem = JSON.stringify({
      type: 'https://fairdice.dev/problems/game-not-found',
      title: 'No such game',
      status: 404,
      detail: 'x',
      code: 'WEBHOOK_NOT_FOUND',
    });
    const headers = { ...json, 'content-type': 'application/problem+json' };
    expect(get('/v1/games/6f1c5d1e-0000-4000-8000-000000000000', 404, problem, headers).join()).toMatch(/code/);
  });

  it('fails an API header the response does not declare, or one that does not match its schema', () => {
    expect(get('/v1/rule-sets/penta', 200, rule(), { ...json, etag: '"3"' })).toEqual([
      expect.stringMatching(/sends header etag, which the response does not declare/),
    ]);
    expect(get('/v1/rule-sets/penta', 200, rule(), { ...json, 'ratelimit-remaining': 'many' })).toEqual([
      expect.stringMatching(/header ratelimit-remaining/),
    ]);
  });

  describe('on a real app', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(() => t.close());

    it('checks every response the e2e apps send', async () => {
      const before = checkedResponses();
      const alice = await registerPlayer(t, 'Alice');
      await t.http().get('/v1/players/me').set(alice.auth).expect(200);
      await t.http().get('/v1/games/not-a-uuid').expect(400);
      expect(checkedResponses() - before).toBe(3);
      expect(takeViolations()).toEqual([]);
    });
  });
});
