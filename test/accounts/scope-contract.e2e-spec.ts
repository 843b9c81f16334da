/**
 * Every operation that takes a token declares the scope it needs (docs/accounts.md "Scoped
 * tokens"): walks the generated OpenAPI document, the GraphQL schema and the handlers behind the
 * AuthGuard, and fails on any that declares none (a forgotten one would need a full token: the
 * guard denies by default). Also keeps the scope table of docs/accounts.md true to the code.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GUARDS_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import { buildOpenApiDocument } from '../../src/app.factory';
import { AuthGuard } from '../../src/players/auth.guard';
import { SCOPE_METADATA, scopeSentence } from '../../src/players/require-scope';
import { TOKEN_SCOPES } from '../../src/players/scopes';
import { createTestApp, type TestApp } from '../helpers/app';

type Json = Record<string, any>;
const KNOWN = [...Object.keys(TOKEN_SCOPES), '*'];
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

describe('every operation that takes a token declares its scope', () => {
  let t: TestApp;
  let doc: Json;
  beforeAll(async () => {
    t = await createTestApp({ env: { JOBS_ENABLED: 'false' } });
    doc = buildOpenApiDocument(t.app);
  });
  afterAll(() => t.close());

  const operations = () =>
    Object.entries(doc.paths as Json).flatMap(([path, item]) =>
      Object.entries(item as Json)
        .filter(([method]) => METHODS.includes(method))
        .map(([method, op]) => ({ where: `${method.toUpperCase()} ${path}`, op: op as Json })),
    );

  it('OpenAPI: each operation with bearer security names exactly one known scope and may answer INSUFFICIENT_SCOPE', () => {
    const authenticated = operations().filter(({ op }) => (op.security ?? []).some((s: Json) => 'bearer' in s));
    expect(authenticated.length).toBeGreaterThan(60);
    for (const { where, op } of authenticated) {
      const bearer = op.security.find((s: Json) => 'bearer' in s).bearer as string[];
      expect([where, bearer.length]).toEqual([where, 1]);
      expect([where, KNOWN.includes(bearer[0])]).toEqual([where, true]);
      const forbidden = op.responses['403']?.content?.['application/problem+json']?.schema?.allOf?.[1];
      expect([where, forbidden?.properties?.code?.enum]).toEqual([
        where,
        expect.arrayContaining(['INSUFFICIENT_SCOPE']),
      ]);
      // Optional-auth reads: anonymous, or a token with the scope.
      if (op.security.length === 2) expect([where, op.security[0]]).toEqual([where, {}]);
    }
    const security = (where: string) => operations().find((o) => o.where === where)!.op.security;
    expect(security('POST /v1/games/{id}/roll')).toEqual([{ bearer: ['game:play'] }]);
    expect(security('POST /v1/games/{id}/start')).toEqual([{ bearer: ['game:create'] }]);
    expect(security('GET /v1/games/{id}')).toEqual([{}, { bearer: ['game:read'] }]);
    expect(security('POST /v1/players/me/token')).toEqual([{ bearer: ['*'] }]);
  });

  /** Every handler of the app's controllers and resolvers, with its class. */
  function handlers(): Array<{ cls: any; key: string; fn: any }> {
    const out: Array<{ cls: any; key: string; fn: any }> = [];
    const seen = new Set<any>();
    for (const module of t.app.get(ModulesContainer).values()) {
      for (const wrapper of [...module.controllers.values(), ...module.providers.values()]) {
        const cls = wrapper.metatype as any;
        if (typeof cls !== 'function' || !cls.prototype || seen.has(cls)) continue;
        seen.add(cls);
        for (const key of Object.getOwnPropertyNames(cls.prototype)) {
          if (key === 'constructor') continue;
          const fn = Object.getOwnPropertyDescriptor(cls.prototype, key)?.value;
          if (typeof fn === 'function') out.push({ cls, key, fn });
        }
      }
    }
    return out;
  }
  const guarded = (cls: any, fn: any) =>
    [
      ...(Reflect.getMetadata(GUARDS_METADATA, fn) ?? []),
      ...(Reflect.getMetadata(GUARDS_METADATA, cls) ?? []),
    ].includes(AuthGuard);
  const isPublic = (cls: any, fn: any) =>
    Reflect.getMetadata('fairdice:public', fn) === true || Reflect.getMetadata('fairdice:public', cls) === true;

  it('REST: every route behind the AuthGuard declares a scope (or is @Public)', () => {
    const routes = handlers().filter(({ fn }) => Reflect.getMetadata(PATH_METADATA, fn) !== undefined);
    const behindGuard = routes.filter(({ cls, fn }) => guarded(cls, fn) && !isPublic(cls, fn));
    expect(behindGuard.length).toBeGreaterThan(60);
    const undeclared = behindGuard.filter(({ fn }) => !KNOWN.includes(Reflect.getMetadata(SCOPE_METADATA, fn)));
    expect(undeclared.map(({ cls, key }) => `${cls.name}.${key}`)).toEqual([]);
  });

  it('GraphQL: every root field behind the AuthGuard declares a scope, named in its description', () => {
    const { schema } = t.app.get(GraphQLSchemaHost);
    const roots: Record<string, any> = {
      Query: schema.getQueryType(),
      Mutation: schema.getMutationType(),
      Subscription: schema.getSubscriptionType(),
    };
    const fields = handlers().filter(({ fn }) => Reflect.getMetadata('graphql:resolver_type', fn) in roots);
    const behindGuard = fields.filter(({ cls, fn }) => guarded(cls, fn) && !isPublic(cls, fn));
    expect(behindGuard.length).toBeGreaterThan(60);
    const problems: string[] = [];
    for (const { cls, key, fn } of behindGuard) {
      const type = Reflect.getMetadata('graphql:resolver_type', fn) as string;
      const name = (Reflect.getMetadata('graphql:resolver_name', fn) as string | undefined) ?? key;
      const scope = Reflect.getMetadata(SCOPE_METADATA, fn);
      if (!KNOWN.includes(scope)) {
        problems.push(`${cls.name}.${key}: no scope`);
        continue;
      }
      const optional = Reflect.getMetadata('fairdice:optional-auth', fn) === true;
      const description = roots[type].getFields()[name]?.description ?? '';
      if (!description.includes(scopeSentence(scope, optional))) problems.push(`${type}.${name}: "${description}"`);
    }
    expect(problems).toEqual([]);
    expect(roots.Mutation.getFields().roll.description).toContain('Requires scope `game:play`.');
  });

  it('docs/accounts.md lists every scope of src/players/scopes.ts', () => {
    const text = readFileSync(join(__dirname, '..', '..', 'docs', 'accounts.md'), 'utf8');
    const section = text.slice(text.search(/^## .*Scoped tokens/m));
    for (const scope of Object.keys(TOKEN_SCOPES))
      expect([scope, section.includes(`| \`${scope}\` |`)]).toEqual([scope, true]);
  });

  it('docs/accounts.md names the scope of every REST operation that takes a token, as OpenAPI declares it', () => {
    const text = readFileSync(join(__dirname, '..', '..', 'docs', 'accounts.md'), 'utf8');
    const section = text.slice(text.search(/^## .*Scoped tokens/m));
    const missing: string[] = [];
    for (const { where, op } of operations()) {
      const bearer = (op.security ?? []).find((s: Json) => 'bearer' in s)?.bearer as string[] | undefined;
      if (!bearer) continue;
      // A line of the operations table: | `GET /v1/games/{id}` | `game:read` |
      if (!section.includes(`| \`${where}\` | \`${bearer[0]}\` |`)) missing.push(`${where} → ${bearer[0]}`);
    }
    expect(missing).toEqual([]);
  });
});
