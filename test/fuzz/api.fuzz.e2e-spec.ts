/**
 * Fuzz suite (issue 11): every REST operation of openapi/openapi.json and every GraphQL mutation
 * of the running schema, read at run time, so a new operation is fuzzed without editing this
 * file: a game move added to the move tables (src/games/moves) is fuzzed on both transports, which
 * the first test checks. Each case carries exactly one defect on top of an otherwise plausible request:
 *
 * - REST: malformed JSON; wrong content types; deep nesting (33 and 10,000 levels); a non-object
 *   body; an unknown field; per body property: wrong types, a non-integer, 1e308, 2^53 + 1,
 *   1e400 (non-finite), a 60 KB and a 1 MB string, null for a required one; per query parameter
 *   with a type or an enum: values outside it; per path parameter: malformed, huge, encoded and
 *   unknown ids; a missing, a malformed and (for operations on a resource) a foreign token.
 * - GraphQL mutations (variables): per argument and input field: wrong types, non-integers,
 *   huge and unsafe numbers, a 1 MB string, null for a required one, an unknown input field,
 *   deep JSON; an unknown argument; bad ids; for operations on a game, a missing and a foreign
 *   token. Plus transport cases: malformed documents, a subscription over POST, persisted-query
 *   hashes, batching, a mutation over GET.
 *
 * - The WebSocket command channel (/v1/ws): frames that are not JSON, binary, deep, of no known
 *   type; per move of the tables: each frame member missing or of a wrong type, an unknown
 *   command, bad args (per property of the move's REST body: the values above), bad expected
 *   versions and idempotency keys, unknown and foreign games; a frame over the size limit (the
 *   socket closes with 1009, the service serves on).
 *
 * Asserted for every case: a 4xx answer with a stable code (problem+json `code`, or GraphQL
 * `errors[].extensions.code`), never a 5xx, never a success; and, per operation, the row counts
 * of the data tables unchanged (test/helpers/row-counts.ts: every table except the migration
 * history and the rate-limit counters, which legitimately count refused requests). The job
 * worker is off so that background jobs do not move async_jobs meanwhile.
 *
 * The base request is aimed at the owner's own started PRIVATE solo game, so that a request
 * from a stranger or without a token is refused too (an open private game would accept a join).
 * Counts per operation and the total are printed at the end (the closing note quotes them).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import {
  getNamedType,
  getNullableType,
  type GraphQLArgument,
  type GraphQLInputField,
  type GraphQLInputType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
} from 'graphql';
import { ERROR_MAP } from '../../src/common/errors';
import { GAME_MOVES } from '../../src/games/moves/game-moves';
import { mutationsOf } from '../../src/games/moves/graphql-mutations';
import { createTestApp, registerPlayer, type TestApp } from '../helpers/app';
import { poolOf } from '../helpers/games';
import { rowCounts } from '../helpers/row-counts';
import { describeOnce } from '../helpers/suites';
import { ChannelClient, type Frame } from '../helpers/ws-channel';
import { MAX_FRAME_BYTES } from '../../src/games/channel/frames';

jest.setTimeout(120_000);

type Schema = Record<string, any>;
interface Operation {
  method: string;
  path: string;
  op: Schema;
}
interface RestCase {
  name: string;
  token: 'owner' | 'foreign' | 'none' | 'junk';
  path: string;
  query?: string;
  contentType?: string;
  body?: string;
}

const openapi: Schema = JSON.parse(readFileSync(join(__dirname, '..', '..', 'openapi', 'openapi.json'), 'utf8'));
const operations: Operation[] = Object.entries(openapi.paths as Schema).flatMap(([path, item]) =>
  Object.entries(item as Schema)
    .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
    .map(([method, op]) => ({ method, path, op: op as Schema })),
);

const ONE_MB = 'x'.repeat(1024 * 1024);
const SIXTY_KB = 'y'.repeat(60 * 1024);
const deep = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
/** JSON texts of numbers JSON.stringify cannot write (kept as raw text in the body). */
const RAW = { unsafe: '9007199254740993', nonFinite: '1e400', huge: '1e308' };

const resolveRef = (schema: Schema | undefined): Schema | undefined =>
  schema?.$ref ? openapi.components.schemas[String(schema.$ref).split('/').pop()!] : schema;

/** A plausible value for a schema (example, enum, default, or by type). */
function sample(schema: Schema | undefined): unknown {
  const s = resolveRef(schema) ?? {};
  if (s.example !== undefined) return s.example;
  if (s.enum) return s.enum[0];
  if (s.default !== undefined) return s.default;
  switch (s.type) {
    case 'number':
    case 'integer':
      return s.minimum ?? 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return s.properties ? baseBody(s) : {};
    default:
      return 'x';
  }
}

/** The required properties of a body schema, with plausible values. */
function baseBody(schema: Schema | undefined): Record<string, unknown> {
  const s = resolveRef(schema);
  const out: Record<string, unknown> = {};
  for (const name of s?.required ?? []) out[name] = sample(s?.properties?.[name]);
  return out;
}

/** Raw JSON texts that no property of this schema accepts (one defect each). */
function badValues(schema: Schema, required: boolean): Array<[string, string]> {
  const s = resolveRef(schema) ?? {};
  const cases: Array<[string, string]> = [];
  const type = s.type ?? (s.properties ? 'object' : undefined);
  if (type !== 'string')
    cases.push(
      ['a string', '"1"'],
      ['a 60 KB string', JSON.stringify(SIXTY_KB)],
      ['a 1 MB string', JSON.stringify(ONE_MB)],
    );
  if (type === 'string') {
    cases.push(['a number', '1'], ['a 1 MB string', JSON.stringify(ONE_MB)]);
    if (s.maxLength !== undefined || s.enum) cases.push(['a 60 KB string', JSON.stringify(SIXTY_KB)]);
  }
  if (type === 'number' || type === 'integer')
    cases.push(
      ['a non-integer', '1.5'],
      ['1e308', RAW.huge],
      ['2^53 + 1', RAW.unsafe],
      ['a non-finite number', RAW.nonFinite],
      ['a boolean', 'true'],
    );
  if (type === 'array') {
    const item = resolveRef(s.items) ?? {};
    cases.push(['an object', '{}'], ['an array of arrays', '[[1]]']);
    if (item.type === 'number')
      cases.push(['[1.5]', '[1.5]'], ['[1e308]', `[${RAW.huge}]`], ['[2^53 + 1]', `[${RAW.unsafe}]`]);
    if (item.type === 'string') cases.push(['[1]', '[1]']);
  }
  if (type === 'object') cases.push(['an array', '[]'], ['a number', '1'], ['deep nesting', deep(40)]);
  else cases.push(['an object', '{"a":1}'], ['deep nesting', deep(40)]);
  if (required) cases.push(['null', 'null']);
  return cases;
}

/** A body text: the base with `prop` set to the raw JSON text `raw`. */
function withRaw(base: Record<string, unknown>, prop: string, raw: string): string {
  const rest = { ...base };
  delete rest[prop];
  const head = JSON.stringify(rest);
  return head === '{}' ? `{"${prop}":${raw}}` : `${head.slice(0, -1)},"${prop}":${raw}}`;
}

function restCases(o: Operation, ids: { game: string }): RestCase[] {
  const params: Schema[] = o.op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const security: Array<Record<string, unknown>> = Array.isArray(o.op.security) ? o.op.security : [];
  // [{}, {bearer: []}]: anonymous calls work, a token when sent must be valid.
  const anonymous = security.some((requirement) => Object.keys(requirement).length === 0);
  const secured = security.length > 0 && !anonymous;
  const hasBody = ['post', 'put', 'patch'].includes(o.method);
  const bodySchema = resolveRef(o.op.requestBody?.content?.['application/json']?.schema);
  const base = bodySchema ? baseBody(bodySchema) : {};
  const baseText = JSON.stringify(base);

  const valueOf = (p: Schema): string =>
    /^id$|Id$/.test(p.name) ? (o.path.startsWith('/v1/games') ? ids.game : randomUUID()) : String(sample(p.schema));
  const pathWith = (name?: string, value?: string) =>
    o.path.replace(/\{([^}]+)\}/g, (_m, n: string) =>
      n === name ? value! : encodeURIComponent(valueOf(pathParams.find((p) => p.name === n) ?? { name: n })),
    );
  const plain = (name: string, extra: Partial<RestCase> = {}): RestCase => ({
    name,
    token: 'owner',
    path: pathWith(),
    ...(hasBody ? { contentType: 'application/json', body: baseText } : {}),
    ...extra,
  });

  const cases: RestCase[] = [];
  // --- tokens
  if (secured) {
    cases.push(plain('no token', { token: 'none' }), plain('a malformed token', { token: 'junk' }));
    if (pathParams.length > 0) cases.push(plain("another player's token", { token: 'foreign' }));
  } else if (security.length > 0) {
    cases.push(plain('a malformed token', { token: 'junk' }));
  }
  // --- path parameters
  for (const p of pathParams) {
    for (const [what, value] of [
      ['malformed', 'not-a-uuid'],
      ['a negative number', '-1'],
      ['a non-integer', '1.5'],
      ['2^53 + 1', RAW.unsafe],
      ['1e308', RAW.huge],
      ['1,000 characters', 'z'.repeat(1000)],
      ['markup', encodeURIComponent('<script>alert(1)</script>')],
      ['a NUL byte', '%00'],
      ['a traversal', '..%2F..%2Fetc%2Fpasswd'],
      ['an unknown UUID', randomUUID()],
    ])
      cases.push(plain(`path ${p.name}: ${what}`, { path: pathWith(p.name, value) }));
  }
  // --- query parameters with a type or an enum
  for (const p of queryParams) {
    const s = p.schema ?? {};
    const values: Array<[string, string]> = [];
    if (s.enum) values.push(['outside the enum', 'not-an-option'], ['1,000 characters', 'z'.repeat(1000)]);
    if (s.type === 'number' || s.type === 'integer')
      values.push(
        ['a non-integer', '1.5'],
        ['1e308', RAW.huge],
        ['2^53 + 1', RAW.unsafe],
        ['Infinity', 'Infinity'],
        ['NaN', 'NaN'],
        ['a word', 'abc'],
        ['below the minimum', String((s.minimum ?? 0) - 1)],
      );
    for (const [what, value] of values)
      cases.push(plain(`query ${p.name}: ${what}`, { query: `${p.name}=${encodeURIComponent(value)}` }));
    if (values.length) cases.push(plain(`query ${p.name}: repeated`, { query: `${p.name}=1&${p.name}=2` }));
  }
  if (!hasBody) return cases;
  // --- the body as a whole
  for (const [what, body] of [
    ['malformed JSON', '{"a":'],
    ['malformed JSON (single quotes)', "{'a':1}"],
    ['truncated JSON', baseText.slice(0, -1)],
    ['nesting 33 levels', deep(33)],
    ['nesting 10,000 levels', deep(10_000)],
    ['an array', '[]'],
    ['null', 'null'],
    ['a string', '"x"'],
    ['a number', RAW.huge],
    ['an unknown field', withRaw(base, 'zzUnknownField', '1')],
    ['a 1 MB body', JSON.stringify({ ...base, zzPadding: ONE_MB })],
  ])
    cases.push(plain(`body: ${what}`, { body }));
  for (const [what, type, body] of [
    ['text/plain', 'text/plain', baseText],
    ['form-urlencoded', 'application/x-www-form-urlencoded', 'a=1'],
    ['XML', 'application/xml', '<a/>'],
    ['multipart', 'multipart/form-data; boundary=x', '--x\r\n\r\n--x--'],
    ['octet-stream', 'application/octet-stream', baseText],
  ])
    cases.push(plain(`content type: ${what}`, { contentType: type, body }));
  // --- each body property
  for (const [prop, schema] of Object.entries((bodySchema?.properties ?? {}) as Schema)) {
    const required = (bodySchema?.required ?? []).includes(prop);
    for (const [what, raw] of badValues(schema, required))
      cases.push(plain(`body ${prop}: ${what}`, { body: withRaw(base, prop, raw) }));
  }
  return cases;
}

const KNOWN_CODES = new Set(Object.keys(ERROR_MAP));

describeOnce('fuzz: every REST operation and GraphQL mutation refuses malformed input with a code', () => {
  let t: TestApp;
  let tokens: Record<RestCase['token'], string | null>;
  let game: string;
  const counts: Array<[string, number]> = [];

  beforeAll(async () => {
    t = await createTestApp({ listen: true, env: { JOBS_ENABLED: 'false' } });
    const owner = await registerPlayer(t, 'Owner');
    const stranger = await registerPlayer(t, 'Stranger');
    tokens = { owner: owner.token, foreign: stranger.token, none: null, junk: 'fd_not-a-real-token' };
    const created = await t
      .http()
      .post('/v1/games')
      .set(owner.auth)
      .send({ ruleSet: 'farkle', seats: 1, visibility: 'private' })
      .expect(201);
    game = created.body.id;
    await t.http().post(`/v1/games/${game}/start`).set(owner.auth).send({}).expect(200);
  });

  afterAll(async () => {
    const total = counts.reduce((n, [, c]) => n + c, 0);
    // The closing note quotes these lines.
    console.log(
      `[fuzz] ${counts.length} operations, ${total} cases\n` + counts.map(([name, n]) => `  ${n}\t${name}`).join('\n'),
    );
    await t?.close();
  });

  function checkProblem(
    label: string,
    res: { status: number; headers: Record<string, string>; body: any; text: string },
  ) {
    const ok =
      res.status >= 400 &&
      res.status < 500 &&
      /^application\/problem\+json/.test(res.headers['content-type'] ?? '') &&
      KNOWN_CODES.has(res.body?.code);
    return ok ? null : `${label} → ${res.status} ${res.text.slice(0, 200)}`;
  }

  it('fuzzes every game move of the tables (src/games/moves): its route and its mutations', () => {
    const fuzzedRoutes = operations.map((o) => o.op.operationId as string);
    const fuzzedMutations = Object.keys(t.app.get(GraphQLSchemaHost).schema.getMutationType()?.getFields() ?? {});
    for (const move of GAME_MOVES) {
      expect(fuzzedRoutes).toContain(`Games_${move.name}`);
      for (const mutation of mutationsOf(move)) expect(fuzzedMutations).toContain(mutation.name);
    }
  });

  describe('REST (openapi/openapi.json)', () => {
    it.each(operations.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))('%s', async (label, o) => {
      const cases = restCases(o, { game });
      const before = await rowCounts(poolOf(t));
      const failures: string[] = [];
      for (const c of cases) {
        const url = c.path + (c.query ? `?${c.query}` : '');
        const req = (t.http() as any)[o.method](url).timeout({ response: 10_000 });
        const token = tokens[c.token];
        if (token) req.set('authorization', `Bearer ${token}`);
        if (c.contentType) req.set('content-type', c.contentType);
        let res;
        try {
          res = await (c.body !== undefined ? req.send(c.body) : req);
        } catch (err) {
          failures.push(`${c.name} → no answer (${(err as Error).message})`);
          continue;
        }
        const failure = checkProblem(c.name, res);
        if (failure) failures.push(failure);
      }
      counts.push([label, cases.length]);
      expect(failures).toEqual([]);
      expect(await rowCounts(poolOf(t))).toEqual(before);
    });
  });

  describe('GraphQL mutations (the running schema)', () => {
    interface GqlCase {
      name: string;
      token: RestCase['token'];
      /** The request body as text (raw numbers allowed). */
      body: string;
    }

    const gqlTypeName = (type: GraphQLInputType): string => String(type);

    function plausible(type: GraphQLInputType): unknown {
      if (isNonNullType(type)) return plausible(type.ofType);
      if (isListType(type)) return [];
      if (isInputObjectType(type)) {
        const out: Record<string, unknown> = {};
        for (const f of Object.values(type.getFields())) if (isNonNullType(f.type)) out[f.name] = plausible(f.type);
        return out;
      }
      if (isEnumType(type)) return type.getValues()[0].value;
      switch (type.name) {
        case 'ID':
          return game;
        case 'Int':
        case 'Float':
          return 1;
        case 'Boolean':
          return true;
        case 'JSON':
          return {};
        case 'String':
          return 'x';
        default:
          return 'x';
      }
    }

    /** Raw JSON texts no value of `type` accepts. */
    function badFor(type: GraphQLInputType, required: boolean): Array<[string, string]> {
      const named = getNamedType(type);
      const inner = getNullableType(type);
      const cases: Array<[string, string]> = [['a 1 MB string', JSON.stringify(ONE_MB)]];
      if (required) cases.push(['null', 'null']);
      if (isListType(inner)) {
        cases.push(['an object', '{"a":1}'], ['a list of lists', '[[1]]']);
        if (named.name === 'Int')
          cases.push(['[1.5]', '[1.5]'], ['[1e308]', `[${RAW.huge}]`], ['[2^53 + 1]', `[${RAW.unsafe}]`]);
        return cases;
      }
      if (isInputObjectType(named)) return [...cases, ['a string', '"x"'], ['a list', '[1]'], ['a number', '1']];
      if (isEnumType(named)) return [...cases, ['outside the enum', '"NOT_A_VALUE"'], ['a number', '1']];
      if (isScalarType(named)) {
        if (named.name === 'Int' || named.name === 'Float')
          cases.push(
            ['a string', '"1"'],
            ['a non-integer', '1.5'],
            ['2^31', '2147483648'],
            ['1e308', RAW.huge],
            ['2^53 + 1', RAW.unsafe],
            ['a non-finite number', RAW.nonFinite],
            ['an object', '{"a":1}'],
          );
        else if (named.name === 'JSON')
          cases.push(
            ['deep nesting', deep(40)],
            ['a non-finite number', `{"a":${RAW.nonFinite}}`],
            ['2^53 + 1', `{"a":${RAW.unsafe}}`],
          );
        else if (named.name === 'ID')
          cases.push(['an object', '{"a":1}'], ['a list', '["x"]'], ['a boolean', 'true'], ['1.5', '1.5']);
        else cases.push(['an object', '{"a":1}'], ['a list', '["x"]'], ['a number', '1']);
      }
      return cases;
    }

    const bodyText = (query: string, variables: Record<string, unknown>, raw?: [string[], string]): string => {
      const vars = JSON.stringify(variables);
      if (!raw) return JSON.stringify({ query, variables });
      // Put the raw text at variables.<path> (a top-level argument, or one field of an input object).
      const [path, text] = raw;
      let varsText: string;
      if (path.length === 1) varsText = withRaw(variables, path[0], text);
      else {
        const inner = withRaw((variables[path[0]] ?? {}) as Record<string, unknown>, path[1], text);
        varsText = withRaw(variables, path[0], inner);
      }
      void vars;
      return `{"query":${JSON.stringify(query)},"variables":${varsText}}`;
    };

    function mutationCases(field: { name: string; args: readonly GraphQLArgument[]; type: unknown }): GqlCase[] {
      const returnsObject = isObjectType(getNamedType(field.type as any));
      const selection = returnsObject ? ' { __typename }' : '';
      const decl = field.args.map((a) => `$${a.name}: ${gqlTypeName(a.type)}`).join(', ');
      const call = field.args.map((a) => `${a.name}: $${a.name}`).join(', ');
      const doc = (extraArg = '') =>
        `mutation${decl ? `(${decl})` : ''} { ${field.name}${call || extraArg ? `(${[call, extraArg].filter(Boolean).join(', ')})` : ''}${selection} }`;
      const variables: Record<string, unknown> = {};
      for (const a of field.args)
        if (isNonNullType(a.type) || getNamedType(a.type).name === 'ID') variables[a.name] = plausible(a.type);
      const cases: GqlCase[] = [];
      const hasId = field.args.some((a) => getNamedType(a.type).name === 'ID');
      if (hasId) {
        cases.push({ name: 'no token', token: 'none', body: bodyText(doc(), variables) });
        cases.push({ name: "another player's token", token: 'foreign', body: bodyText(doc(), variables) });
        cases.push({ name: 'a malformed token', token: 'junk', body: bodyText(doc(), variables) });
      }
      cases.push({ name: 'an unknown argument', token: 'owner', body: bodyText(doc('zzUnknown: 1'), variables) });
      for (const a of field.args) {
        for (const [what, raw] of badFor(a.type, isNonNullType(a.type)))
          cases.push({ name: `${a.name}: ${what}`, token: 'owner', body: bodyText(doc(), variables, [[a.name], raw]) });
        if (getNamedType(a.type).name === 'ID')
          for (const [what, id] of [
            ['malformed', 'not-a-uuid'],
            ['empty', ''],
            ['1,000 characters', 'z'.repeat(1000)],
            ['an unknown UUID', randomUUID()],
          ])
            cases.push({
              name: `${a.name}: ${what}`,
              token: 'owner',
              body: bodyText(doc(), { ...variables, [a.name]: id }),
            });
        const named = getNamedType(a.type);
        if (isInputObjectType(named)) {
          const base = (variables[a.name] ?? plausible(a.type)) as Record<string, unknown>;
          const vars = { ...variables, [a.name]: base };
          cases.push({
            name: `${a.name}: an unknown field`,
            token: 'owner',
            body: bodyText(doc(), vars, [[a.name, 'zzUnknownField'], '1']),
          });
          for (const f of Object.values<GraphQLInputField>(named.getFields()))
            for (const [what, raw] of badFor(f.type, isNonNullType(f.type)))
              cases.push({
                name: `${a.name}.${f.name}: ${what}`,
                token: 'owner',
                body: bodyText(doc(), vars, [[a.name, f.name], raw]),
              });
        }
      }
      return cases;
    }

    function checkGraphql(
      label: string,
      res: { status: number; headers: Record<string, string>; body: any; text: string },
    ) {
      if (res.status >= 500) return `${label} → ${res.status} ${res.text.slice(0, 200)}`;
      if (/^application\/problem\+json/.test(res.headers['content-type'] ?? ''))
        return res.status >= 400 && KNOWN_CODES.has(res.body?.code)
          ? null
          : `${label} → ${res.status} ${res.text.slice(0, 200)}`;
      const errors = res.body?.errors;
      const data = res.body?.data;
      const anySuccess = data && Object.values(data).some((v) => v !== null);
      const coded =
        Array.isArray(errors) &&
        errors.length > 0 &&
        errors.every((e: any) => KNOWN_CODES.has(e?.extensions?.code) && e.extensions.code !== 'INTERNAL');
      return coded && !anySuccess ? null : `${label} → ${res.status} ${res.text.slice(0, 200)}`;
    }

    async function send(c: GqlCase): Promise<string | null> {
      const req = t.http().post('/graphql').set('content-type', 'application/json').timeout({ response: 10_000 });
      const token = tokens[c.token];
      if (token) req.set('authorization', `Bearer ${token}`);
      try {
        return checkGraphql(c.name, await req.send(c.body));
      } catch (err) {
        return `${c.name} → no answer (${(err as Error).message})`;
      }
    }

    it('every mutation', async () => {
      const schema = t.app.get(GraphQLSchemaHost).schema;
      const mutations = Object.values(schema.getMutationType()?.getFields() ?? {});
      expect(mutations.length).toBeGreaterThan(0);
      const failures: string[] = [];
      for (const m of mutations) {
        const cases = mutationCases(m);
        const before = await rowCounts(poolOf(t));
        for (const c of cases) {
          const failure = await send(c);
          if (failure) failures.push(`${m.name}: ${failure}`);
        }
        const after = await rowCounts(poolOf(t));
        if (JSON.stringify(after) !== JSON.stringify(before))
          failures.push(`${m.name}: row counts changed ${JSON.stringify(before)} → ${JSON.stringify(after)}`);
        counts.push([`mutation ${m.name}`, cases.length]);
      }
      expect(failures).toEqual([]);
    });

    it('transport: malformed documents, subscriptions over POST, persisted queries, batching, mutations over GET', async () => {
      const before = await rowCounts(poolOf(t));
      const cases: GqlCase[] = [
        ['a malformed document', '{"query":"mutation {"}'],
        ['no query', '{}'],
        ['a query that is a number', '{"query":1}'],
        ['variables that are a list', '{"query":"{ serviceInfo { name } }","variables":[1]}'],
        ['an unknown operation name', '{"query":"query A { serviceInfo { name } }","operationName":"B"}'],
        ['two anonymous operations', '{"query":"{ serviceInfo { name } } { serviceInfo { name } }"}'],
        [
          'a subscription over POST',
          `{"query":"subscription { gameEvents(gameId: \\"${randomUUID()}\\") { version } }"}`,
        ],
        [
          'a persisted-query hash that does not match',
          '{"query":"{ serviceInfo { name } }","extensions":{"persistedQuery":{"version":1,"sha256Hash":"bad"}}}',
        ],
        [
          'an unknown persisted query',
          `{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"${'a'.repeat(64)}"}}}`,
        ],
        [
          'a persisted-query version 2',
          '{"query":"{ serviceInfo { name } }","extensions":{"persistedQuery":{"version":2}}}',
        ],
        ['a batch', '[{"query":"{ serviceInfo { name } }"},{"query":"{ serviceInfo { name } }"}]'],
        ['nesting 10,000 levels', deep(10_000)],
      ].map(([name, body]) => ({ name, token: 'owner' as const, body }));
      const failures = (await Promise.all(cases.map(send))).filter((f): f is string => f !== null);
      const overGet = await t
        .http()
        .get('/graphql')
        .query({ query: 'mutation { createGame(input: { ruleSet: penta, seats: 1 }) { id } }' })
        .set('authorization', `Bearer ${tokens.owner}`)
        .set('apollo-require-preflight', 'true');
      const getFailure = checkGraphql('a mutation over GET', overGet);
      if (getFailure) failures.push(getFailure);
      counts.push(['GraphQL transport', cases.length + 1]);
      expect(failures).toEqual([]);
      expect(await rowCounts(poolOf(t))).toEqual(before);
    });
  });
  describe('WebSocket command channel (/v1/ws)', () => {
    /** The move's REST body schema in the contract (the channel's args are validated as it). */
    const bodyOf = (name: string): Schema | undefined => {
      const o = operations.find((op) => op.op.operationId === `Games_${name}`);
      return resolveRef(o?.op.requestBody?.content?.['application/json']?.schema);
    };

    function frameCases(): Array<[string, string]> {
      const cases: Array<[string, string]> = [
        ['an empty frame', ''],
        ['not JSON', '{"type":"move",'],
        ['null', 'null'],
        ['an array', '[]'],
        ['a string', '"move"'],
        ['a number', '1'],
        ['nesting 33 levels', deep(33)],
        ['nesting 10,000 levels', deep(10_000)],
        ['no type', '{"id":"a"}'],
        ['an unknown type', '{"type":"teleport","id":"a"}'],
        ['a second auth', `{"type":"auth","token":"${tokens.owner}"}`],
        ['unsubscribe from a game not followed', `{"type":"unsubscribe","id":"a","gameId":"${game}"}`],
        ['subscribe: after is negative', `{"type":"subscribe","id":"a","gameId":"${game}","after":-1}`],
        ['subscribe: an unknown game', `{"type":"subscribe","id":"a","gameId":"${randomUUID()}"}`],
        ['a frame over the size limit', JSON.stringify({ type: 'ping', id: 'big', pad: SIXTY_KB + SIXTY_KB })],
      ];
      for (const move of GAME_MOVES) {
        const body = bodyOf(move.name);
        const args = body ? baseBody(body) : {};
        const base = { type: 'move', id: 'm', gameId: game, command: move.name, args };
        const m = (name: string, frame: object) => cases.push([`${move.name}: ${name}`, JSON.stringify(frame)]);
        const raw = (name: string, member: string, value: string) =>
          cases.push([`${move.name}: ${name}`, withRaw(base, member, value)]);
        for (const member of ['id', 'gameId', 'command']) {
          const rest: Record<string, unknown> = { ...base };
          delete rest[member];
          m(`no ${member}`, rest);
          raw(`${member} a number`, member, '1');
          raw(`${member} an object`, member, '{}');
          raw(`${member} 60 KB`, member, JSON.stringify(SIXTY_KB));
        }
        m('an unknown member', { ...base, extra: 1 });
        m('an unknown command', { ...base, command: `${move.name}X` });
        m('a malformed game id', { ...base, gameId: 'not-a-uuid' });
        m('an unknown game', { ...base, gameId: randomUUID() });
        raw('args an array', 'args', '[]');
        raw('args a string', 'args', '"x"');
        raw('args null', 'args', 'null');
        m('args with an unknown field', { ...base, args: { ...args, extra: 1 } });
        for (const [prop, schema] of Object.entries((body?.properties ?? {}) as Record<string, Schema>)) {
          const required = (body?.required ?? []).includes(prop);
          for (const [what, value] of badValues(schema, required))
            raw(`args.${prop} ${what}`, 'args', withRaw(args, prop, value));
        }
        for (const [what, value] of [
          ['-1', '-1'],
          ['1.5', '1.5'],
          ['a string', '"3"'],
          ['2^53 + 1', RAW.unsafe],
          ['non-finite', RAW.nonFinite],
          ['stale', '0'],
        ])
          raw(`expectedVersion ${what}`, 'expectedVersion', value);
        for (const [what, value] of [
          ['a number', '1'],
          ['empty', '""'],
          ['2 KB', JSON.stringify('k'.repeat(2048))],
          ['with a newline', '"a\\nb"'],
        ])
          raw(`idempotencyKey ${what}`, 'idempotencyKey', value);
      }
      return cases;
    }

    it('every frame type and every move: a coded error for each malformed frame, nothing stored, never a crash', async () => {
      const before = await rowCounts(poolOf(t));
      const failures: string[] = [];
      const port = (t.app.getHttpServer().address() as AddressInfo).port;
      let ws = await ChannelClient.connect(port, tokens.owner!);
      const cases = frameCases();
      for (const [name, text] of cases) {
        if (Buffer.byteLength(text) > MAX_FRAME_BYTES) {
          ws.send(text);
          const { code } = await ws.closed;
          if (code !== 1009) failures.push(`${name} → closed with ${code}, not 1009`);
          ws = await ChannelClient.connect(port, tokens.owner!);
          continue;
        }
        ws.send(text);
        const answer: Frame = await Promise.race([
          ws.frame(
            (f) => f.type === 'error' || f.type === 'result' || f.type === 'subscribed' || f.type === 'unsubscribed',
          ),
          ws.closed.then((c) => ({ type: 'closed', ...c })),
        ]);
        const ok =
          answer.type === 'error' &&
          KNOWN_CODES.has(answer.problem?.code) &&
          answer.problem.status >= 400 &&
          answer.problem.status < 500;
        if (!ok) failures.push(`${name} → ${JSON.stringify(answer).slice(0, 200)}`);
        if (answer.type === 'closed') ws = await ChannelClient.connect(port, tokens.owner!);
      }
      // A foreign player's moves on the owner's private game: refused as if it did not exist.
      const stranger = await ChannelClient.connect(port, tokens.foreign!);
      for (const move of GAME_MOVES) {
        const body = bodyOf(move.name);
        const answer = await stranger.move({
          id: 'f',
          gameId: game,
          command: move.name,
          args: body ? baseBody(body) : {},
        });
        if (answer.type !== 'error' || !KNOWN_CODES.has(answer.problem?.code))
          failures.push(`${move.name} by a stranger → ${JSON.stringify(answer).slice(0, 200)}`);
      }
      // The binary frame and the unauthenticated connection.
      ws.ws.send(Buffer.from('{"type":"ping"}'), { binary: true });
      const binary = await ws.frame((f) => f.type === 'error');
      if (binary.problem.code !== 'MALFORMED_REQUEST') failures.push(`a binary frame → ${binary.problem.code}`);
      counts.push(['WebSocket channel frames', cases.length + GAME_MOVES.length + 1]);
      await Promise.all([ws.close(), stranger.close()]);
      expect(failures).toEqual([]);
      expect(await rowCounts(poolOf(t))).toEqual(before);
    });
  });
});
