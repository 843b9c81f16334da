/**
 * REST contract tests: every response an e2e test's app sends (createTestApp hooks it) is checked
 * against the committed openapi/openapi.json:
 * - the operation (method + path template) is documented, and the status is declared for it
 *   (an unknown route may only get 404 ROUTE_NOT_FOUND);
 * - the content type is declared for that status, and the body validates against its schema
 *   (closed objects included: additionalProperties: false rejects an undocumented field);
 * - every API header the service sent (ETag, RateLimit-*, Retry-After, Idempotent-Replayed,
 *   Deprecation, Sunset, Link, Content-Disposition, X-Request-Id, X-Data-Staleness-Ms) is declared for that response
 *   and matches its schema.
 * Violations are collected and fail the running test (test/helpers/contract-setup.ts, afterEach).
 * Not covered: /graphql (GraphQL has its own schema), /docs, the verifier page, the SSE stream
 * (hijacked responses bypass the hook; test/e2e tests validate its events with validateSchema).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

type Json = Record<string, any>;

export interface ObservedResponse {
  method: string;
  /** The request path with its query string. */
  url: string;
  status: number;
  headers: Record<string, unknown>;
  /** The body as sent; undefined when it is a stream. */
  body: string | undefined;
}

/** Headers the API itself defines: each one sent must be declared on the response. */
const API_HEADERS = [
  'etag',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'retry-after',
  'idempotent-replayed',
  'deprecation',
  'sunset',
  'link',
  'content-disposition',
  'x-request-id',
  'x-data-staleness-ms',
];

const DOCUMENTED_PREFIXES = ['/v1/', '/health'];

export class ResponseContract {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly routes: Array<{ template: string; pattern: RegExp; params: number }>;

  constructor(readonly document: Json) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true, verbose: true });
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: 'openapi', components: document.components }, 'openapi');
    this.routes = Object.keys(document.paths)
      .map((template) => ({
        template,
        pattern: new RegExp('^' + template.replace(/\{[^}]+\}/g, '[^/]+') + '/?$'),
        params: (template.match(/\{/g) ?? []).length,
      }))
      .sort((a, b) => a.params - b.params);
  }

  static fromFile(path = join(__dirname, '..', '..', 'openapi', 'openapi.json')): ResponseContract {
    return new ResponseContract(JSON.parse(readFileSync(path, 'utf8')));
  }

  /** A validator for any schema of the document (e.g. '#/components/schemas/GameEvent'). */
  validator(schema: Json): ValidateFunction {
    const key = JSON.stringify(schema);
    let fn = this.compiled.get(key);
    if (!fn) {
      fn = this.ajv.compile(rebase(schema) as Json);
      this.compiled.set(key, fn);
    }
    return fn;
  }

  /** The violations of one response (empty: it conforms). */
  check(r: ObservedResponse): string[] {
    const path = r.url.split('?')[0];
    const method = r.method.toLowerCase();
    if (method === 'options' || !DOCUMENTED_PREFIXES.some((p) => path === p.replace(/\/$/, '') || path.startsWith(p)))
      return [];
    const where = `${r.method} ${path} -> ${r.status}`;
    const route = this.routes.find((x) => x.pattern.test(path));
    const operation: Json | undefined =
      route && this.document.paths[route.template][method === 'head' ? 'get' : method];
    let response: Json | undefined;
    if (!operation) {
      // Fastify answers unknown routes (and methods) 404 ROUTE_NOT_FOUND.
      if (r.status !== 404) return [`${where}: no documented operation ${r.method} ${path}`];
      response = {
        content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
        headers: Object.fromEntries(API_HEADERS.map((h) => [h, {}])),
      };
    } else {
      response = operation.responses[String(r.status)] ?? operation.responses[`${String(r.status)[0]}XX`];
      if (!response)
        return [
          `${where}: status ${r.status} is not declared for ${r.method} ${route!.template} (declared: ${Object.keys(operation.responses).join(', ')})`,
        ];
    }
    const problems: string[] = [];
    problems.push(...this.checkHeaders(where, r, response));
    if (method === 'head') return problems;
    const contentType = headerText(r.headers['content-type']).split(';')[0].trim().toLowerCase();
    const hasBody = r.body !== undefined && r.body.length > 0;
    if (!hasBody) {
      if (response.content && Object.keys(response.content).length > 0 && r.status !== 304)
        problems.push(`${where}: an empty body, but the response declares content`);
      return problems;
    }
    const media = response.content?.[contentType];
    if (!media) {
      problems.push(
        `${where}: content type "${contentType}" is not declared (declared: ${Object.keys(response.content ?? {}).join(', ') || 'none'})`,
      );
      return problems;
    }
    if (!media.schema || !/json$/.test(contentType)) return problems;
    let body: unknown;
    try {
      body = JSON.parse(r.body as string);
    } catch {
      return [...problems, `${where}: the body is not JSON`];
    }
    const validate = this.validator(media.schema);
    if (!validate(body)) {
      const errors = (validate.errors ?? [])
        .slice(0, 8)
        .map(
          (e) =>
            `${e.instancePath || '(body)'} ${e.message}${e.params ? ' ' + JSON.stringify(e.params) : ''}` +
            (typeof e.data !== 'object' ? ` (got ${JSON.stringify(e.data)})` : ''),
        );
      problems.push(`${where}: the body does not match the schema:\n    ${errors.join('\n    ')}`);
    }
    return problems;
  }

  private checkHeaders(where: string, r: ObservedResponse, response: Json): string[] {
    const declared = new Map<string, Json>();
    for (const [name, header] of Object.entries((response.headers ?? {}) as Json)) {
      const resolved = header.$ref ? this.document.components.headers[header.$ref.split('/').pop()] : header;
      declared.set(name.toLowerCase(), resolved);
    }
    const problems: string[] = [];
    for (const name of API_HEADERS) {
      const value = r.headers[name];
      if (value === undefined) continue;
      const header = declared.get(name);
      if (!header) {
        problems.push(`${where}: sends header ${name}, which the response does not declare`);
        continue;
      }
      if (!header.schema) continue;
      const text = headerText(value);
      const typed = header.schema.type === 'integer' && /^-?\d+$/.test(text) ? Number(text) : text;
      const validate = this.validator(header.schema);
      if (!validate(typed))
        problems.push(`${where}: header ${name}: ${JSON.stringify(text)} does not match its schema`);
    }
    return problems;
  }
}

/** A header value as text (Node gives a string, a number or a list of strings). */
const headerText = (value: unknown): string =>
  Array.isArray(value) ? value.join(', ') : typeof value === 'string' || typeof value === 'number' ? String(value) : '';

/** `#/components/...` references of an inline schema, pointed at the document added as 'openapi'. */
function rebase(node: unknown): unknown {
  if (!node || typeof node !== 'object') return node;
  if (Array.isArray(node)) return node.map(rebase);
  return Object.fromEntries(
    Object.entries(node as Json).map(([k, v]) => [
      k,
      k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `openapi${v}` : rebase(v),
    ]),
  );
}

// ---- the shared collector the e2e apps report to ------------------------------------------

let shared: ResponseContract | null = null;
const violations: string[] = [];
let checked = 0;

/** Checks one response of an e2e app; violations fail the running test (contract-setup.ts). */
export function recordResponse(r: ObservedResponse): void {
  shared ??= ResponseContract.fromFile();
  checked++;
  violations.push(...shared.check(r));
}

/** The violations recorded since the last call (and forgets them). */
export function takeViolations(): string[] {
  return violations.splice(0, violations.length);
}

export const checkedResponses = () => checked;

/**
 * Checks one message of the SSE stream (which bypasses the onSend hook): its data is a GameEvent
 * of the document, named by its type; access-revoked carries the GAME_ACCESS_REVOKED notice.
 */
export function recordStreamMessage(event: string, data: unknown): void {
  shared ??= ResponseContract.fromFile();
  checked++;
  if (event === 'access-revoked') {
    if ((data as { code?: unknown })?.code !== 'GAME_ACCESS_REVOKED')
      violations.push(`SSE access-revoked: data.code is not GAME_ACCESS_REVOKED`);
    return;
  }
  const validate = shared.validator({ $ref: '#/components/schemas/GameEvent' });
  if (!validate(data))
    violations.push(
      `SSE event ${event}: the data is not a GameEvent: ${(validate.errors ?? [])
        .slice(0, 5)
        .map((e) => `${e.instancePath} ${e.message}`)
        .join('; ')}`,
    );
  else if ((data as { type: string }).type !== event)
    violations.push(`SSE event ${event}: named differently from its type ${(data as { type: string }).type}`);
}

/** The violations of a webhook request body against the document's `webhooks` section (by its type). */
export function webhookViolations(body: { type?: unknown }): string[] {
  shared ??= ResponseContract.fromFile();
  const type = String(body.type);
  const hook = (shared.document.webhooks as Json)?.[type];
  if (!hook) return [`webhook ${type}: not in the webhooks section`];
  const validate = shared.validator(hook.post.requestBody.content['application/json'].schema);
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `webhook ${type}: ${e.instancePath} ${e.message}`);
}
