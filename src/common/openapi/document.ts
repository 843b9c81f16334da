/**
 * Completes the OpenAPI document Nest builds from the decorators: what the decorators cannot say
 * or would say once per operation (decision 0019, docs/api.md *The OpenAPI document*).
 *
 * - components: the problem schema, the game schemas (events, commands, options, audit), the
 *   shared header parameters and response headers;
 * - per operation: the `x-fairdice-*` markers of decorators.ts become problem responses (by the
 *   codes' statuses), header parameters and security; every /v1 response declares the RateLimit-*
 *   headers, every response X-Request-Id, a game's and a tournament's responses ETag, a command's Idempotent-Replayed,
 *   a deprecated operation's Deprecation/Sunset;
 * - schemas: every number is an integer (the API has no fractional numbers), objects are closed
 *   (additionalProperties: false), a `default` on an optional field moves into the description
 *   (generators such as openapi-typescript would otherwise make the field required), and schemas
 *   that describe the same thing twice are merged into one;
 * - servers, tags, contact, the bearer scheme (opaque tokens), the 3.1 `webhooks`.
 */
import type { OpenAPIObject } from '@nestjs/swagger';
import { COMMAND_EVENTS_MEDIA_TYPE } from '../http/command-events';
import { ERROR_MAP, type ErrorCode } from '../errors/error-codes';
import { GAME_SCHEMAS } from './game-schemas';
import type { JsonSchema } from './json-schema';
import { PROBLEM_SCHEMAS } from './problem-schema';
import {
  DEPRECATION_MARKER,
  OPTIONAL_AUTH_MARKER,
  SCOPE_MARKER,
  PROBLEMS_MARKER,
  REQUEST_HEADERS_MARKER,
  type RequestHeaderName,
} from './decorators';

// An OpenAPI document walked and completed in place: any member may be read or set, and the
// result is checked against the spec by test/api/openapi-document.e2e-spec.ts.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON tree edited in place (above)
type Json = Record<string, any>;

/** Schemas Nest generates twice under two names (REST views shared with GraphQL types): canonical kept. */
export const MERGED_SCHEMAS: Record<string, string> = {
  BoxOptionModel: 'BoxOptionView',
  ScoreOptionsModel: 'ScoreOptionsView',
  FarkleSelectionModel: 'SelectionView',
};

const HEADER_PARAMETERS: Record<RequestHeaderName, Json> = {
  'Idempotency-Key': {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Makes a retry safe: the same key with the same request within 24 h returns the stored outcome (marked Idempotent-Replayed: true) instead of acting twice. 1-255 visible ASCII characters; the same key with a different request is 422 IDEMPOTENCY_KEY_REUSED, while the first is still running 409 IDEMPOTENCY_IN_PROGRESS.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]{1,255}$' },
  },
  'If-Match': {
    name: 'If-Match',
    in: 'header',
    required: false,
    description:
      'Act only if the game (or tournament) is still at one of these versions (its ETag, e.g. "12"; * = any): else 412 PRECONDITION_FAILED with the current ETag. Weak tags W/"12" count as "12".',
    schema: { type: 'string', pattern: '^\\s*(\\*|(W/)?"\\d{1,9}"(\\s*,\\s*(W/)?"\\d{1,9}")*)\\s*$' },
  },
  'If-None-Match': {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description: 'The ETag(s) you hold: 304 Not Modified (no body) while the game is still at one of them.',
    schema: { type: 'string', pattern: '^\\s*(\\*|(W/)?"\\d{1,9}"(\\s*,\\s*(W/)?"\\d{1,9}")*)\\s*$' },
  },
  'Cache-Control': {
    name: 'Cache-Control',
    in: 'header',
    required: false,
    description:
      'RFC 9111. `no-cache` (or `max-age=0`): read the game from the database, not from the instance\'s cache of current games, which another instance\'s move may outdate for the moment its notification takes (docs/api.md, *Consistency of reads*). Other directives are ignored.',
    schema: { type: 'string', maxLength: 1024 },
  },
  Prefer: {
    name: 'Prefer',
    in: 'header',
    required: false,
    description:
      'RFC 7240. `return=minimal`: answer with just the events this command appended and the new version (CommandEventsView, media type application/vnd.fairdice.command-events+json), for clients that keep their own state; the response then carries Preference-Applied: return=minimal. `return=representation` (the default): the whole game (GameView). Other or malformed preferences are ignored. A replayed outcome (Idempotency-Key) honours it too.',
    schema: { type: 'string', maxLength: 1024 },
  },
  'Last-Event-ID': {
    name: 'Last-Event-ID',
    in: 'header',
    required: false,
    description:
      'Resume after this event version (EventSource sends it on reconnection); takes precedence over ?after=.',
    schema: { type: 'string', pattern: '^\\d{1,9}$' },
  },
};

const integerHeader = (description: string): Json => ({ description, schema: { type: 'integer', minimum: 0 } });

/** Response headers, declared once in components.headers. */
const RESPONSE_HEADERS: Record<string, Json> = {
  'X-Request-Id': {
    description: 'The id of this request (yours when you sent a short safe X-Request-Id, else a new UUID).',
    schema: { type: 'string' },
  },
  'RateLimit-Limit': integerHeader('Requests allowed per minute in your bucket (when rate limiting is on).'),
  'RateLimit-Remaining': integerHeader('Requests left in the current window.'),
  'RateLimit-Reset': integerHeader('Seconds until the window ends.'),
  'Retry-After': integerHeader('Seconds to wait before retrying.'),
  ETag: {
    description:
      'The game (or tournament) version as a strong entity tag, e.g. "12": send it in If-Match (or, for a game, If-None-Match).',
    schema: { type: 'string', pattern: '^"\\d+"$' },
  },
  'Idempotent-Replayed': {
    description: 'true: this is the stored outcome of an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
  'Preference-Applied': {
    description: 'RFC 7240: return=minimal when the body is the compact CommandEventsView asked for with Prefer.',
    schema: { type: 'string', enum: ['return=minimal'] },
  },
  Vary: {
    description: 'Prefer: the body of a command depends on the Prefer request header.',
    schema: { type: 'string' },
  },
  Deprecation: {
    description:
      'RFC 9745: this operation or a parameter you used is deprecated since this date (@<Unix seconds>). See docs/api.md *Versioning*.',
    schema: { type: 'string', pattern: '^@\\d+$' },
  },
  Sunset: {
    description: 'RFC 8594: the date after which it may stop working (an HTTP-date).',
    schema: { type: 'string' },
  },
  Link: {
    description: 'With Deprecation: <docs/api.md#versioning>; rel="deprecation".',
    schema: { type: 'string' },
  },
  'Content-Disposition': {
    description: 'With ?download=1: attachment; filename="fairdice-<id>.json".',
    schema: { type: 'string' },
  },
  'X-Data-Staleness-Ms': {
    description:
      'Only when the deployment routes public reads to a standby (DATABASE_READ_URL) and the standby answered: an upper bound, in milliseconds, of how far its data may lag the primary (at most DATABASE_READ_MAX_LAG_MS). Absent: read from the primary. See docs/operations.md "Read routing".',
    schema: { type: 'integer', minimum: 0 },
  },
};

/** Codes answered with Retry-After. */
const RETRY_AFTER_CODES: ErrorCode[] = [
  'RATE_LIMITED',
  'DATABASE_UNAVAILABLE',
  'NOT_READY',
  'IDEMPOTENCY_IN_PROGRESS',
  'TABLE_BUILDING',
  'ADVICE_BUSY',
  'ADVICE_BUILD_LIMITED',
  'TOO_MANY_STREAMS',
];

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

const TAGS = [
  { name: 'players', description: 'Registration, profile and token rotation.' },
  { name: 'games', description: 'Creating, joining and playing games; their events, stream and audit.' },
  { name: 'scoring', description: 'Rule sets and score calculators (no game needed).' },
  { name: 'advice', description: 'Optimal advice for a game or a position, and post-game analysis (docs/advice.md).' },
  { name: 'leaderboards', description: 'Best solo scores and tournament results per rule set (public, paged by cursor).' },
  { name: 'inbox', description: 'My games awaiting my move.' },
  { name: 'webhooks', description: 'Signed notifications about my games (Standard Webhooks).' },
  { name: 'transparency', description: 'The signed transparency log of commitments and final chain heads.' },
  { name: 'health', description: 'Liveness and readiness (outside /v1).' },
];

export interface CompleteOptions {
  /** The 3.1 `webhooks` section: name -> path item (POST with its payload). */
  webhooks: Record<string, Json>;
  /** Schemas the webhooks reference. */
  webhookSchemas: Record<string, JsonSchema>;
}

export function completeOpenApiDocument(doc: OpenAPIObject, options: CompleteOptions): OpenAPIObject {
  const out = doc as unknown as Json;
  out.info.contact = { name: 'fairdice maintainers', url: 'https://github.com/fairdice/fairdice/issues' };
  out.info.license = { name: 'UNLICENSED', identifier: 'UNLICENSED' };
  out.servers = [
    { url: 'http://localhost:3000', description: 'A local instance (npm start; PORT defaults to 3000).' },
    { url: '{origin}', description: 'Your deployment', variables: { origin: { default: 'https://fairdice.example' } } },
  ];
  out.tags = TAGS;
  out.components ??= {};
  const scheme = out.components.securitySchemes?.bearer;
  if (scheme) {
    delete scheme.bearerFormat; // tokens are opaque strings, not JWTs
    scheme.description =
      'An opaque token returned once by POST /v1/players (rotate with POST /v1/players/me/token): Authorization: Bearer <token>.';
  }

  const schemas: Json = out.components.schemas;
  mergeDuplicates(out, schemas);
  for (const schema of Object.values(schemas)) normalizeSchema(schema);
  for (const [name, schema] of Object.entries({
    ...PROBLEM_SCHEMAS,
    ...GAME_SCHEMAS,
    EmptyObject: {
      type: 'object',
      description: 'No fields: the body of a command without parameters is absent or {}.',
      properties: {},
      additionalProperties: false,
    },
    ...options.webhookSchemas,
  })) {
    if (schemas[name]) throw new Error(`schema ${name} is declared twice (by a DTO and by hand)`);
    schemas[name] = schema;
  }
  out.components.parameters = Object.fromEntries(
    Object.entries(HEADER_PARAMETERS).map(([name, p]) => [name.replace(/-/g, ''), p]),
  );
  out.components.headers = Object.fromEntries(Object.entries(RESPONSE_HEADERS).map(([n, h]) => [n.replace(/-/g, ''), h]));

  for (const [path, item] of Object.entries(out.paths as Json)) {
    for (const [method, operation] of Object.entries(item as Json)) completeOperation(path, method, operation);
  }
  out.webhooks = options.webhooks;
  // Keys sorted by the generator? No: keep Nest's order, which follows the controllers.
  return doc;
}

function completeOperation(path: string, method: string, op: Json): void {
  const versioned = path.startsWith('/v1/');
  const markers = Object.keys(op).filter((k) => k.startsWith('x-fairdice-'));
  const codes = new Set<ErrorCode>();
  const headers = new Set<RequestHeaderName>();
  for (const key of markers) {
    if (key.startsWith(PROBLEMS_MARKER)) for (const c of op[key] as ErrorCode[]) codes.add(c);
    if (key.startsWith(REQUEST_HEADERS_MARKER)) for (const h of op[key] as RequestHeaderName[]) headers.add(h);
  }
  const scope = op[SCOPE_MARKER] as string | undefined;
  if (op[OPTIONAL_AUTH_MARKER]) {
    op.security = [{}, { bearer: scope ? [scope] : [] }];
    codes.add('UNAUTHENTICATED'); // a token, when sent, must be valid
  } else if (scope) op.security = [{ bearer: [scope] }];
  if (scope) codes.add('INSUFFICIENT_SCOPE');
  if (op.security?.some((s: Json) => 'bearer' in s)) codes.add('UNAUTHENTICATED');
  if (versioned) codes.add('RATE_LIMITED');
  // Two Authorization headers are refused on every route (src/reliability/http/request-headers.ts).
  if (versioned || op.security?.some((s: Json) => 'bearer' in s)) codes.add('MALFORMED_REQUEST');
  const deprecation = op[DEPRECATION_MARKER] as { since: string; sunset?: string; params?: string[] } | undefined;
  for (const key of markers) delete op[key];

  op.parameters ??= [];
  for (const h of headers) op.parameters.push({ $ref: `#/components/parameters/${h.replace(/-/g, '')}` });
  for (const p of op.parameters as Json[]) {
    if (p.schema) normalizeSchema(p.schema, true);
    if (deprecation?.params?.includes(p.name)) p.deprecated = true;
  }
  if (op.parameters.length === 0) delete op.parameters;
  if (op.requestBody?.content) {
    for (const media of Object.values(op.requestBody.content as Json)) if (media.schema) normalizeSchema(media.schema);
  }

  // Problem responses, one per status, listing the codes.
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_MAP[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    const existing = op.responses[status];
    const extra = existing?.description ? ` ${existing.description}` : '';
    const responseHeaders: Json = {};
    if (list.some((c) => RETRY_AFTER_CODES.includes(c))) responseHeaders['Retry-After'] = headerRef('RetryAfter');
    if (list.includes('PRECONDITION_FAILED')) responseHeaders.ETag = headerRef('ETag');
    op.responses[status] = {
      description: `${list.map((c) => `\`${c}\``).join(', ')}.${extra}`,
      ...(Object.keys(responseHeaders).length ? { headers: responseHeaders } : {}),
      content: {
        'application/problem+json': {
          // The Problem, with `code` narrowed to the codes of this status here.
          schema: {
            allOf: [
              { $ref: '#/components/schemas/Problem' },
              { properties: { code: { type: 'string', enum: list } }, required: ['code'] },
            ],
          },
        },
      },
    };
  }

  const isCommand = headers.has('Idempotency-Key');
  for (const [status, response] of Object.entries(op.responses as Json)) {
    const h: Json = { ...(response.headers ?? {}) };
    h['X-Request-Id'] = headerRef('XRequestId');
    if (versioned) {
      h['RateLimit-Limit'] = headerRef('RateLimitLimit');
      h['RateLimit-Remaining'] = headerRef('RateLimitRemaining');
      h['RateLimit-Reset'] = headerRef('RateLimitReset');
    }
    const ok = status.startsWith('2') || status === '304';
    if (ok && (returnsGame(response) || returnsTournament(response) || status === '304')) h.ETag = headerRef('ETag');
    if (ok && headers.has('Prefer') && returnsGame(response)) {
      // Prefer: return=minimal answers the compact form under its own media type, so that a client
      // reading application/json keeps its one GameView type (src/reliability/http/prefer.ts).
      response.content[COMMAND_EVENTS_MEDIA_TYPE] = { schema: { $ref: '#/components/schemas/CommandEventsView' } };
      response.description = `${response.description ? `${response.description} ` : ''}The game (GameView, application/json), or with Prefer: return=minimal the events this command appended and the new version (CommandEventsView, ${COMMAND_EVENTS_MEDIA_TYPE}).`;
      h['Preference-Applied'] = headerRef('PreferenceApplied');
      h.Vary = headerRef('Vary');
    }
    if (isCommand) h['Idempotent-Replayed'] = headerRef('IdempotentReplayed');
    if (deprecation) {
      h.Deprecation = headerRef('Deprecation');
      h.Link = headerRef('Link');
      if (deprecation.sunset) h.Sunset = headerRef('Sunset');
    }
    response.headers = h;
    if (!response.description) response.description = ok ? 'OK' : 'Error';
    for (const media of Object.values((response.content ?? {}) as Json)) if (media.schema) normalizeSchema(media.schema);
  }
  if (deprecation && !deprecation.params?.length) op.deprecated = true;
}

const returnsSchema = (response: Json, name: string) =>
  JSON.stringify(response.content?.['application/json']?.schema ?? {}) === `{"$ref":"#/components/schemas/${name}"}`;
const returnsGame = (response: Json) => returnsSchema(response, 'GameView');
/** A tournament's answers carry its version as ETag too (If-Match on its commands). */
const returnsTournament = (response: Json) => returnsSchema(response, 'TournamentView');

/**
 * Integers (numbers unless format double), closed objects, defaults of optional fields in the description. Applied to the
 * schemas Nest generated (the hand-written ones are written that way).
 */
function normalizeSchema(schema: Json, isParameter = false): void {
  if (!schema || typeof schema !== 'object') return;
  if (Array.isArray(schema)) {
    for (const s of schema) normalizeSchema(s);
    return;
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length === 1 && schema.allOf[0].$ref) {
    schema.$ref = schema.allOf[0].$ref; // apiRef(): a plain reference (3.1 allows siblings such as description)
    delete schema.allOf;
  }
  // Every number of the API is an integer, except those declared with format double (advice values).
  const fractional = schema.format === 'double';
  if (schema.type === 'number' && !fractional) schema.type = 'integer';
  if (Array.isArray(schema.type) && !fractional)
    schema.type = schema.type.map((t: string) => (t === 'number' ? 'integer' : t));
  if ((schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object'))) && schema.properties) {
    schema.additionalProperties ??= false;
    const required = new Set<string>(schema.required ?? []);
    for (const [name, prop] of Object.entries(schema.properties as Json)) {
      if (!required.has(name) && prop && typeof prop === 'object' && 'default' in prop) moveDefault(prop);
    }
  }
  if (isParameter && 'default' in schema) moveDefault(schema);
  for (const key of ['properties', 'items', 'anyOf', 'oneOf', 'allOf', 'additionalProperties']) {
    const child = schema[key];
    if (key === 'properties' && child) for (const s of Object.values(child)) normalizeSchema(s as Json);
    else if (child && typeof child === 'object') normalizeSchema(child);
  }
}

function moveDefault(schema: Json): void {
  const note = `Default: \`${JSON.stringify(schema.default)}\`.`;
  schema.description = schema.description ? `${schema.description} ${note}` : note;
  delete schema.default;
}

function mergeDuplicates(doc: Json, schemas: Json): void {
  const rewrite = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(rewrite);
    const obj = node as Json;
    if (typeof obj.$ref === 'string') {
      const name = obj.$ref.replace('#/components/schemas/', '');
      if (MERGED_SCHEMAS[name]) obj.$ref = `#/components/schemas/${MERGED_SCHEMAS[name]}`;
    }
    Object.values(obj).forEach(rewrite);
  };
  rewrite(doc.paths);
  rewrite(schemas);
  for (const [duplicate, canonical] of Object.entries(MERGED_SCHEMAS)) {
    if (!schemas[duplicate]) continue;
    const a = stripDescriptions(schemas[duplicate]);
    const b = stripDescriptions(schemas[canonical]);
    if (JSON.stringify(a) !== JSON.stringify(b))
      throw new Error(`${duplicate} and ${canonical} differ: they are merged in the OpenAPI document`);
    // One definition; the old name stays as a deprecated alias, so generated code that names it compiles.
    schemas[duplicate] = {
      $ref: `#/components/schemas/${canonical}`,
      description: `Deprecated alias of ${canonical} (the same schema).`,
      deprecated: true,
    };
  }
}

const stripDescriptions = (node: unknown): unknown => {
  if (!node || typeof node !== 'object') return node;
  if (Array.isArray(node)) return node.map(stripDescriptions);
  return Object.fromEntries(
    Object.entries(node as Json)
      .filter(([k]) => k !== 'description' && k !== 'example')
      .map(([k, v]) => [k, stripDescriptions(v)]),
  );
};
