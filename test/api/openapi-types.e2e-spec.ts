/**
 * The TypeScript types openapi-typescript generates from openapi/openapi.json leave no documented
 * field as `unknown`, `any` or `Record<string, never>` (issue 14; scripts/openapi-type-holes.js).
 */
import { join } from 'node:path';

// A CommonJS script, shared with `npm run openapi:type-holes`.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the script is plain CommonJS
const holes = require('../../scripts/openapi-type-holes.js') as {
  countTypeHoles: (ts: string) => { total: number; lines: string[] };
  generateTypes: (path: string) => string;
};
const { countTypeHoles, generateTypes } = holes;

describe('types generated from openapi/openapi.json', () => {
  it('have no unknown, any or Record<string, never> for a documented field', () => {
    const types = generateTypes(join(__dirname, '..', '..', 'openapi', 'openapi.json'));
    expect(types).toContain('FiveDiceRolledEvent');
    expect(countTypeHoles(types).lines).toEqual([]);
  });

  it('counts holes (and not the index signature of response headers)', () => {
    const sample = [
      'responses: {',
      '  200: {',
      '    headers: {',
      '      "X-Request-Id"?: string;',
      '      [name: string]: unknown;',
      '    };',
      '    content: {',
      '      "application/json": {',
      '        options?: Record<string, never>;',
      '        data: { [key: string]: unknown };',
      '        /** any comment */',
      '        value: any;',
      '      };',
      '    };',
      '  };',
      '};',
    ].join('\n');
    expect(countTypeHoles(sample)).toMatchObject({ total: 3 });
  });
});
