/**
 * The GraphQL schema leaves no documented field to a scalar without a TypeScript type (`JSON`):
 * a code generator types every field a client can rely on (issue 14; scripts/graphql-type-holes.js).
 * Deprecated fields are out of the count: each names its typed replacement.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// A CommonJS script, shared with `npm run graphql:type-holes`.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the script is plain CommonJS
const { countGraphqlTypeHoles } = require('../../scripts/graphql-type-holes.js') as {
  countGraphqlTypeHoles: (sdl: string) => { total: number; holes: string[] };
};

describe('types generated from src/schema.gql', () => {
  it('have no JSON (unknown) for a documented field, argument or input field', () => {
    const sdl = readFileSync(join(__dirname, '..', '..', 'src', 'schema.gql'), 'utf8');
    expect(sdl).toContain('interface GameCommand');
    expect(countGraphqlTypeHoles(sdl).holes).toEqual([]);
  });

  it('counts JSON fields, arguments and input fields, and skips deprecated fields', () => {
    const sdl = `scalar JSON scalar DateTime
      type Query { a: JSON b(filter: JSON): String c: DateTime d: JSON @deprecated(reason: "use c") e: [JSON!] }
      input I { x: JSON y: Int }`;
    expect(countGraphqlTypeHoles(sdl).holes).toEqual([
      'Query.a: JSON',
      'Query.b(filter): JSON',
      'Query.e: JSON',
      'I.x: JSON',
    ]);
  });
});
