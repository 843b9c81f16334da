/**
 * GraphQL answers are never cacheable (Cache-Control: no-store): queries, mutations and errors,
 * as Apollo's default cache-control plugin made them before it was replaced by a once-per-answer
 * header (src/reliability/graphql/transport.ts).
 */
import { createTestApp, registerPlayer, type TestApp } from '../helpers/app';

jest.setTimeout(60_000);

describe('GraphQL Cache-Control', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const post = (query: string, variables: Record<string, unknown> = {}, token?: string) => {
    const r = t.http().post('/graphql').set('content-type', 'application/json');
    if (token) r.set('authorization', `Bearer ${token}`);
    return r.send({ query, variables });
  };

  it('a query, a mutation and an error all answer no-store', async () => {
    const ada = await registerPlayer(t, 'Ada');
    const query = await post('{ ruleSets { name } }').expect(200);
    expect(query.body.data.ruleSets.length).toBeGreaterThan(0);
    const mutation = await post(
      'mutation($input: CreateGameInput!) { createGame(input: $input) { id version } }',
      { input: { ruleSet: 'simple', seats: 1 } },
      ada.token,
    ).expect(200);
    expect(mutation.body.data.createGame.version).toBe(2);
    const error = await post('{ game(id: "00000000-0000-4000-8000-000000000000") { id } }', {}, ada.token);
    expect(error.body.errors[0].extensions.code).toBe('GAME_NOT_FOUND');
    for (const r of [query, mutation, error]) expect(r.headers['cache-control']).toBe('no-store');
  });
});
