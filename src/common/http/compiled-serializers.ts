/**
 * The hot answers' JSON serializers, compiled once at start from the committed OpenAPI document
 * (openapi/openapi.json, generated from the code: scripts/generate-api-schemas.ts) with
 * fast-json-stringify (decision 0141 "lean REST path"). A game view (every move's full answer
 * and GET /v1/games/:id) is written by code generated for its exact shape instead of
 * JSON.stringify walking it. The document is read once and only the game view's schemas are kept.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import fastJson from 'fast-json-stringify';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { addPreSerialization, type PreSerializationHook } from './route-hooks';

type Schema = Record<string, unknown>;

/** The committed OpenAPI document, found upwards from here (src/… under jest, dist/src/… built). */
function findOpenApiDocument(): string | null {
  let dir = __dirname;
  for (let i = 0; i < 6; i++) {
    const file = join(dir, 'openapi', 'openapi.json');
    if (existsSync(file)) return file;
    dir = dirname(dir);
  }
  return null;
}

/**
 * A schema the serializer compiles to straight code: references inlined, and `anyOf [X, null]`
 * (OpenAPI's nullable reference) turned into X with "null" among its types, so that no branch
 * has to be chosen by validating at run time. Descriptions and examples are dropped.
 */
function serializerSchema(schema: unknown, components: Record<string, Schema>, depth = 0): unknown {
  if (depth > 40) throw new Error('schema nested too deeply (a cycle?)');
  if (Array.isArray(schema)) return schema.map((s) => serializerSchema(s, components, depth + 1));
  if (schema === null || typeof schema !== 'object') return schema;
  const s = schema as Schema;
  if (typeof s.$ref === 'string') {
    const name = s.$ref.replace('#/components/schemas/', '');
    const target = components[name];
    if (!target) throw new Error(`unknown schema ${s.$ref}`);
    return serializerSchema(target, components, depth + 1);
  }
  const anyOf = s.anyOf as unknown[] | undefined;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const nullIndex = anyOf.findIndex((b) => (b as Schema)?.type === 'null');
    if (nullIndex >= 0) {
      const other = serializerSchema(anyOf[1 - nullIndex], components, depth + 1) as Schema;
      const types = Array.isArray(other.type) ? other.type : [other.type];
      if (types.every((t) => typeof t === 'string')) {
        const nullable: Schema = { ...other, type: [...new Set([...types, 'null'])] };
        if (Array.isArray(other.enum)) nullable.enum = [...other.enum, null];
        return nullable;
      }
    }
  }
  const out: Schema = {};
  for (const [key, value] of Object.entries(s)) {
    if (key === 'description' || key === 'example' || key === 'examples' || key === 'discriminator') continue;
    if (key === 'properties') {
      out.properties = Object.fromEntries(
        Object.entries(value as Schema).map(([p, v]) => [p, serializerSchema(v, components, depth + 1)]),
      );
    } else out[key] = serializerSchema(value, components, depth + 1);
  }
  return out;
}

/** The game view's serializer, or null when the OpenAPI document is not there (then JSON.stringify serves). */
export function compileGameViewSerializer(file = findOpenApiDocument()): ((view: unknown) => string) | null {
  if (!file) return null;
  const document = JSON.parse(readFileSync(file, 'utf8')) as { components: { schemas: Record<string, Schema> } };
  const schemas = document.components.schemas;
  if (!schemas.GameView) return null;
  return fastJson(serializerSchema(schemas.GameView, schemas) as Parameters<typeof fastJson>[0]);
}

/** A game view (GameView), told apart from the other answers of the same routes by its fields. */
const isGameView = (payload: unknown): boolean =>
  payload !== null &&
  typeof payload === 'object' &&
  'seats' in payload &&
  'ruleSet' in payload &&
  'family' in payload &&
  'version' in payload;

/**
 * Makes the /v1/games routes write game views with the compiled serializer: a preSerialization
 * hook on those routes only, which looks at the answer's fields and picks the serializer (the
 * same routes also answer compact event lists and pages, which keep JSON.stringify). Must be
 * called before the routes are registered (app.init). `verify`: also check every answer against
 * JSON.stringify and fail loudly on a difference (tests).
 */
export function registerCompiledSerializers(fastify: FastifyInstance, options: { verify: boolean }): boolean {
  const serialize = compileGameViewSerializer();
  if (!serialize) return false;
  const writer = options.verify
    ? (view: unknown) => {
        const text = serialize(view);
        const expected: unknown = JSON.parse(JSON.stringify(view));
        if (!isDeepStrictEqual(JSON.parse(text), expected))
          throw new Error(`compiled game view serializer differs from JSON.stringify: ${text}`);
        return text;
      }
    : serialize;
  const hook: PreSerializationHook = (_request, reply, payload, done) => {
    if (isGameView(payload)) reply.serializer(writer);
    done(null, payload);
  };
  fastify.addHook('onRoute', (route: RouteOptions) => {
    if (route.url.startsWith('/v1/games')) addPreSerialization(route, hook);
  });
  return true;
}
