/**
 * The TypeScript types openapi-typescript generates from openapi/openapi.json leave no documented
 * field as `unknown`, `any` or `Record<string, never>` (issue 14; scripts/openapi-type-holes.js),
 * and they compile for an integrator's own openapi-fetch client (issue 24 item 11): a command's
 * answer is a GameView once the client picks `application/json`, and the commands whose fields are
 * all optional take no body (docs/api.md "The OpenAPI document", decision 0089).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

// A CommonJS script, shared with `npm run openapi:type-holes`.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the script is plain CommonJS
const holes = require('../../scripts/openapi-type-holes.js') as {
  countTypeHoles: (ts: string) => { total: number; lines: string[] };
  generateTypes: (path: string) => string;
};
const { countTypeHoles, generateTypes } = holes;

const ROOT = join(__dirname, '..', '..');
// Under node_modules, so that the snippets resolve `openapi-fetch` as an integrator's code would.
const WORK = join(ROOT, 'node_modules', '.cache', 'fairdice-openapi-types');

let types: string;
beforeAll(() => {
  types = generateTypes(join(ROOT, 'openapi', 'openapi.json'));
});

/** Type-checks `source` (beside the generated `./openapi`) strictly; the error messages. */
function compile(name: string, source: string): string[] {
  mkdirSync(WORK, { recursive: true });
  writeFileSync(join(WORK, 'openapi.ts'), types);
  const file = join(WORK, `${name}.ts`);
  writeFileSync(file, source);
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
    .map((m) => m.split('\n')[0]);
}

/** A client's calls: create a game, then the body-less commands; every answer's `id` as a string. */
const calls = (client: string) => `
import createClient from 'openapi-fetch';
import type { paths } from './openapi';
const api = ${client}({ baseUrl: 'http://localhost:3000' });
export async function run(): Promise<string[]> {
  const created = await api.POST('/v1/games', { body: { ruleSet: 'simple', seats: 2 } });
  const id: string = created.data!.id;
  const path = { params: { path: { id } } };
  const joined = await api.POST('/v1/games/{id}/join', path);
  const started = await api.POST('/v1/games/{id}/start', path);
  const rolled = await api.POST('/v1/games/{id}/roll', path);
  const entered = await api.POST('/v1/tournaments/{id}/entrants', path);
  return [joined.data!.id, started.data!.id, rolled.data!.id, entered.data!.id];
}
`;

describe('types generated from openapi/openapi.json', () => {
  it('have no unknown, any or Record<string, never> for a documented field', () => {
    expect(types).toContain('FiveDiceRolledEvent');
    expect(countTypeHoles(types).lines).toEqual([]);
  });

  it("compile for createClient<paths, 'application/json'>(): a command's game.id is a string, and join, start, roll and register need no body", () => {
    expect(compile('json-client', calls("createClient<paths, 'application/json'>"))).toEqual([]);
  });

  it('leave a bare createClient<paths>() with GameView | CommandEventsView, which has no id (why docs/api.md says to pick the media type)', () => {
    const errors = compile('bare-client', calls('createClient<paths>'));
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((e) => /Property 'id' does not exist on type/.test(e))).toBe(true);
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
