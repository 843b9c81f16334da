import { GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import { DomainException, normalizeError } from '../common/errors';
import {
  assertScope,
  describeScopes,
  FULL_TOKEN,
  hasScope,
  insufficientScope,
  RequireScope,
  scopeSentence,
} from './require-scope';
import { TOKEN_SCOPES, type TokenScope } from './scopes';

describe('the scope check (src/players/require-scope.ts)', () => {
  const every = Object.keys(TOKEN_SCOPES) as TokenScope[];

  it('a full token (["*"], or no scopes recorded: tokens from before scopes) is granted every scope and "*"', () => {
    for (const scope of [...every, FULL_TOKEN] as const) {
      expect(hasScope(['*'], scope)).toBe(true);
      expect(hasScope(undefined, scope)).toBe(true);
    }
  });

  it('a scoped token is granted exactly its scopes, never "*"', () => {
    const held = ['game:read', 'game:play'];
    expect(every.filter((s) => hasScope(held, s))).toEqual(['game:read', 'game:play']);
    expect(hasScope(held, FULL_TOKEN)).toBe(false);
    // Every scope but the star still is not a full token.
    expect(hasScope(every, FULL_TOKEN)).toBe(false);
    expect(hasScope([], 'game:read')).toBe(false);
  });

  it('a missing scope is 403 INSUFFICIENT_SCOPE naming it as requiredScope', () => {
    expect(() => assertScope(['game:read'], 'game:play')).toThrow(DomainException);
    const { problem } = normalizeError(insufficientScope('game:play'));
    expect(problem).toMatchObject({ status: 403, code: 'INSUFFICIENT_SCOPE', requiredScope: 'game:play' });
    expect(problem.detail).toContain('game:play');
    expect(normalizeError(insufficientScope(FULL_TOKEN)).problem).toMatchObject({ requiredScope: '*' });
    expect(normalizeError(insufficientScope(FULL_TOKEN)).problem.detail).toMatch(/full token/);
    expect(() => assertScope(['game:play'], 'game:play')).not.toThrow();
  });

  it('describeScopes ends the description of each declared root field with its scope', () => {
    class Resolver {
      roll(this: void) {
        return 'rolled';
      }
      peek(this: void) {
        return 'seen';
      }
    }
    const d = Object.getOwnPropertyDescriptor(Resolver.prototype, 'roll')!;
    RequireScope('game:play')(Resolver.prototype, 'roll', d);
    Reflect.defineMetadata('graphql:resolver_type', 'Mutation', Resolver.prototype.roll);
    const p = Object.getOwnPropertyDescriptor(Resolver.prototype, 'peek')!;
    RequireScope('game:read')(Resolver.prototype, 'peek', p);
    Reflect.defineMetadata('graphql:resolver_type', 'Query', Resolver.prototype.peek);
    Reflect.defineMetadata('graphql:resolver_name', 'peekAtGame', Resolver.prototype.peek);
    const schema = new GraphQLSchema({
      query: new GraphQLObjectType({ name: 'Query', fields: { peekAtGame: { type: GraphQLString } } }),
      mutation: new GraphQLObjectType({
        name: 'Mutation',
        fields: { roll: { type: GraphQLString, description: 'Roll the dice.' } },
      }),
    });
    describeScopes(schema, (h) => h === Resolver.prototype.peek);
    // Twice changes nothing (the schema is built once per app, several apps per process in tests).
    describeScopes(schema, (h) => h === Resolver.prototype.peek);
    expect(schema.getMutationType()!.getFields().roll.description).toBe('Roll the dice. Requires scope `game:play`.');
    expect(schema.getQueryType()!.getFields().peekAtGame.description).toBe(scopeSentence('game:read', true));
    expect(scopeSentence('game:read', true)).toBe('Anonymous, or with a token: requires scope `game:read`.');
    expect(scopeSentence(FULL_TOKEN, false)).toBe('Requires a full token (scope `*`).');
  });
});
