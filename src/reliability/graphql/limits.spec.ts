import { buildSchema, getIntrospectionQuery, parse, specifiedRules, validate, ValidationContext } from 'graphql';
import {
  aliasLimitRule,
  costLimitRule,
  depthLimitRule,
  documentShapeError,
  GRAPHQL_MAX_TOKENS,
  graphqlLimitRules,
  QUERY_TOO_COMPLEX,
} from './limits';

const schema = buildSchema(`
  type Seat { seat: Int! player: Player }
  type Player { id: ID! name: String! friends: [Player!]! }
  type Game { id: ID! seats: [Seat!]! dice: [Int!]! }
  type Page { items: [Game!]! }
  type Query { game(id: ID!): Game  games(limit: Int): Page!  me: Player }
  type Mutation { roll(gameId: ID!): Game! }
`);

const errorsOf = (doc: string, rules = graphqlLimitRules({ maxDepth: 5, maxCost: 200, maxAliases: 3 })) =>
  validate(schema, parse(doc), [...specifiedRules, ...rules]);

describe('GraphQL limit rules', () => {
  it('accept an ordinary query', () => {
    expect(errorsOf('{ game(id: "1") { id seats { seat player { id name } } dice } }')).toEqual([]);
  });

  it('refuse a query deeper than the limit, following fragments', () => {
    const doc =
      'query { me { ...F } } fragment F on Player { friends { friends { friends { friends { friends { id } } } } } }';
    const errors = validate(schema, parse(doc), [depthLimitRule(5)]);
    expect(errors).toHaveLength(1);
    expect(errors[0].extensions.code).toBe(QUERY_TOO_COMPLEX);
    expect(validate(schema, parse('{ me { friends { friends { friends { id } } } } }'), [depthLimitRule(5)])).toEqual(
      [],
    );
  });

  it('let the standard introspection query through (its own ceiling)', () => {
    expect(
      errorsOf(getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true, specifiedByUrl: true })),
    ).toEqual([]);
    const deep = `{ __schema { types { ${'ofType { '.repeat(25)}name${' }'.repeat(25)} } } }`;
    expect(errorsOf(deep).map((e) => e.extensions.code)).toContain(QUERY_TOO_COMPLEX);
  });

  it('refuse too many aliases, counted over the whole document', () => {
    const doc = `mutation { ${Array.from({ length: 4 }, (_, i) => `r${i}: roll(gameId: "g") { id }`).join(' ')} }`;
    const errors = validate(schema, parse(doc), [aliasLimitRule(3)]);
    expect(errors).toHaveLength(1);
    expect(errors[0].extensions).toMatchObject({ code: QUERY_TOO_COMPLEX, limit: 'aliases' });
  });

  it('estimate cost: fragments on distinct object types of an interface count the dearest, not their sum', () => {
    const events = buildSchema(`
      interface Event { version: Int! }
      type Rolled implements Event { version: Int! dice: [Int!]! held: [Int!]! rollInTurn: Int! }
      type Scored implements Event { version: Int! box: String! points: Int! }
      type Query { events(limit: Int): [Event!]! }
    `);
    const cost = (doc: string) => validate(events, parse(doc), [costLimitRule(0)])[0]?.extensions?.cost;
    // 10 items × (1 field + max(3 Rolled fields, 2 Scored fields)), plus the list field itself.
    expect(
      cost('{ events(limit: 10) { version ... on Rolled { dice held rollInTurn } ... on Scored { box points } } }'),
    ).toBe(1 + 10 * (1 + 3));
    // Two fragments on the same type add up; a fragment on the interface itself counts in full.
    expect(
      cost(
        '{ events(limit: 10) { ... on Event { version } ... on Rolled { dice } ... on Rolled { held } ...S } } fragment S on Scored { box }',
      ),
    ).toBe(1 + 10 * (1 + 2));
  });

  it('estimate cost: lists multiply by their literal limit (or 20), mutations cost 10', () => {
    const rule = costLimitRule(100);
    expect(validate(schema, parse('{ games(limit: 5) { items { id dice } } }'), [rule])).toEqual([]); // 1 + 1 + 5*2
    expect(validate(schema, parse('{ games(limit: 200) { items { id } } }'), [rule])[0].extensions).toMatchObject({
      limit: 'cost',
    });
    const costly = validate(
      schema,
      parse('{ games(limit: 100) { items { id seats { player { friends { id } } } } } }'),
      [rule],
    );
    expect(costly[0].extensions).toMatchObject({ code: QUERY_TOO_COMPLEX, limit: 'cost' });
    const mutations = `mutation { ${Array.from({ length: 11 }, (_, i) => `r${i}: roll(gameId: "g") { id }`).join(' ')} }`;
    expect(validate(schema, parse(mutations), [rule])[0].extensions).toMatchObject({ limit: 'cost' });
  });
});

/** 13 levels of fragments, each spreading the next 4 times (4^13 paths; the issue's document). */
function nestedFragmentDocument(levels: number, fanout = 4, leaf = 'me { id }', type = 'Query'): string {
  const parts = [`${type === 'Query' ? 'query' : type.toLowerCase()} { ...F0 }`];
  for (let i = 0; i < levels; i++)
    parts.push(
      `fragment F${i} on ${type} { ${Array(fanout)
        .fill(`...F${i + 1}`)
        .join(' ')} }`,
    );
  parts.push(`fragment F${levels} on ${type} { ${leaf} }`);
  return parts.join('\n');
}

describe('GraphQL limit rules: work linear in the document', () => {
  afterEach(() => jest.restoreAllMocks());

  it('nested fragments are measured once per body, not once per path (fragment lookups grow linearly)', () => {
    const lookups = (levels: number) => {
      const spy = jest.spyOn(ValidationContext.prototype, 'getFragment');
      const errors = validate(schema, parse(nestedFragmentDocument(levels)), [
        depthLimitRule(5),
        costLimitRule(200),
        aliasLimitRule(3),
      ]);
      const calls = spy.mock.calls.length;
      spy.mockRestore();
      return { calls, errors };
    };
    const small = lookups(6);
    const large = lookups(12); // 4^12 = 16.7 million paths
    // Each of the 4 × levels spreads is looked up a bounded number of times (depth, cost, location).
    expect(small.calls).toBeLessThanOrEqual(4 * 6 * 4);
    expect(large.calls).toBeLessThanOrEqual(4 * 12 * 4);
    // And the cost is still estimated over every path: 4^12 × (me 1 + id 1).
    expect(large.errors.map((e) => e.extensions)).toEqual([
      expect.objectContaining({ code: QUERY_TOO_COMPLEX, limit: 'cost', cost: 2 * 4 ** 12 }),
    ]);
  });

  it('a fragment cycle ends (graphql-js reports it)', () => {
    const errors = errorsOf('{ ...A } fragment A on Query { me { id } ...B } fragment B on Query { ...A }');
    expect(errors.map((e) => e.message).join()).toMatch(/Cannot spread fragment/);
  });

  it('the document shape pre-check refuses deep bracket nesting and too many tokens, linearly', () => {
    expect(documentShapeError('{ me { id } }')).toBeNull();
    expect(documentShapeError(getIntrospectionQuery())).toBeNull();
    const deep = `{ ${'me { '.repeat(5000)} id ${'} '.repeat(5000)} }`;
    expect(documentShapeError(deep)?.extensions).toMatchObject({ code: QUERY_TOO_COMPLEX, limit: 'nesting' });
    const list = `{ game(id: ${'['.repeat(3000)}1${']'.repeat(3000)}) { id } }`;
    expect(documentShapeError(list)?.extensions).toMatchObject({ limit: 'nesting' });
    const many = `{ ${'me { id } '.repeat(3000)} }`;
    expect(documentShapeError(many)?.extensions).toMatchObject({ limit: 'tokens', maximum: GRAPHQL_MAX_TOKENS });
    expect(documentShapeError('{ "unterminated')).toBeNull(); // left to the parser's syntax error
  });
});
