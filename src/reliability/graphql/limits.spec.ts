import { buildSchema, getIntrospectionQuery, parse, specifiedRules, validate } from 'graphql';
import { aliasLimitRule, costLimitRule, depthLimitRule, graphqlLimitRules, QUERY_TOO_COMPLEX } from './limits';

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
