/**
 * The OpenAPI breaking-change check (decision 0020, docs/api.md *Versioning*): what a client built
 * against the released document could no longer do or rely on with the current one.
 *
 * Breaking: a removed operation or declared status; a removed response field, a response field no
 * longer required, a response type widened (new types, `null` added); a new required request field
 * or parameter, a removed request field or parameter (the service rejects unknown ones), a request
 * type narrowed; a removed enum value (either direction). Additions pass: new operations, statuses,
 * optional request fields, response fields, enum values, and widened request / narrowed response
 * types (`integer` counts as a `number`).
 * Component names do not matter (references are resolved): a schema may be renamed or merged.
 */
type Json = Record<string, any>;
type Direction = 'request' | 'response';

export interface BreakingChange {
  /** Stable id: what contracts/openapi-breaking-allowed.json names to accept the change deliberately. */
  id: string;
  message: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

let variantMemo = new Map<string, BreakingChange[]>();

export function findBreakingChanges(released: Json, current: Json): BreakingChange[] {
  variantMemo = new Map();
  const out: BreakingChange[] = [];
  const add = (id: string, message: string) => out.push({ id, message });
  for (const [path, oldItem] of Object.entries((released.paths ?? {}) as Json)) {
    for (const method of METHODS) {
      const oldOp = oldItem[method];
      if (!oldOp) continue;
      const where = `${method.toUpperCase()} ${path}`;
      const newOp = current.paths?.[path]?.[method];
      if (!newOp) {
        add(where, `${where}: the operation was removed`);
        continue;
      }
      compareParameters(where, released, current, oldOp, newOp, add);
      const oldBody = oldOp.requestBody && resolve(released, oldOp.requestBody);
      const newBody = newOp.requestBody && resolve(current, newOp.requestBody);
      if (newBody?.required && !oldBody?.required) add(`${where} body`, `${where}: the request body became required`);
      if (oldBody?.content) {
        for (const [media, m] of Object.entries(oldBody.content as Json)) {
          const n = newBody?.content?.[media];
          if (!n) {
            add(`${where} body ${media}`, `${where}: the request content type ${media} is no longer accepted`);
            continue;
          }
          compareSchemas(`${where} body`, 'request', released, current, m.schema, n.schema, add);
        }
      }
      for (const [status, oldResponse] of Object.entries((oldOp.responses ?? {}) as Json)) {
        const newResponse = newOp.responses?.[status];
        if (!newResponse) {
          add(`${where} ${status}`, `${where}: response ${status} is no longer declared`);
          continue;
        }
        const o = resolve(released, oldResponse);
        const n = resolve(current, newResponse);
        for (const [media, m] of Object.entries((o.content ?? {}) as Json)) {
          const nm = n.content?.[media];
          if (!nm) {
            add(`${where} ${status} ${media}`, `${where}: response ${status} no longer sends ${media}`);
            continue;
          }
          if (m.schema && nm.schema)
            compareSchemas(`${where} ${status}`, 'response', released, current, m.schema, nm.schema, add);
        }
      }
    }
  }
  return out;
}

function compareParameters(
  where: string,
  released: Json,
  current: Json,
  oldOp: Json,
  newOp: Json,
  add: (id: string, message: string) => void,
) {
  const params = (doc: Json, op: Json) =>
    new Map<string, Json>(
      ((op.parameters ?? []) as Json[]).map((p) => resolve(doc, p)).map((p) => [`${p.in}:${p.name.toLowerCase()}`, p]),
    );
  const before = params(released, oldOp);
  const after = params(current, newOp);
  for (const [key, p] of before) {
    const n = after.get(key);
    if (!n) {
      add(`${where} param ${key}`, `${where}: parameter ${key} was removed`);
      continue;
    }
    if (n.required && !p.required) add(`${where} param ${key}`, `${where}: parameter ${key} became required`);
    if (p.schema && n.schema)
      compareSchemas(`${where} param ${key}`, 'request', released, current, p.schema, n.schema, add);
  }
  for (const [key, n] of after) {
    if (!before.has(key) && n.required) add(`${where} param ${key}`, `${where}: new required parameter ${key}`);
  }
}

function resolve(doc: Json, node: Json): Json {
  let current = node;
  for (let i = 0; i < 20 && current && typeof current.$ref === 'string'; i++) {
    const target = current.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((acc: Json, key) => acc?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
    const { $ref: _ref, ...siblings } = current;
    current = { ...target, ...siblings };
  }
  return current;
}

/** The JSON types a schema allows ('integer' included in 'number'); null: any. */
function typesOf(s: Json): Set<string> | null {
  if (s.const !== undefined)
    return new Set([s.const === null ? 'null' : typeof s.const === 'number' ? 'number' : typeof s.const]);
  if (s.type === undefined) {
    if (s.properties) return new Set(['object']);
    if (s.enum) return new Set(s.enum.map((v: unknown) => (v === null ? 'null' : typeof v)));
    return null;
  }
  const list: string[] = Array.isArray(s.type) ? s.type : [s.type];
  const set = new Set(list);
  if (s.nullable) set.add('null');
  return set;
}

const covers = (wide: Set<string>, narrow: Set<string>) =>
  [...narrow].every((t) => wide.has(t) || (t === 'integer' && wide.has('number')));

const isFreeForm = (s: Json) =>
  !s.oneOf &&
  !s.anyOf &&
  !s.allOf &&
  (s.type === undefined || s.type === 'object' || (Array.isArray(s.type) && s.type.includes('object'))) &&
  !s.properties &&
  s.additionalProperties !== false;

function flattenAllOf(doc: Json, s: Json): Json {
  if (!s.allOf) return s;
  const merged: Json = { ...s, properties: { ...(s.properties ?? {}) }, required: [...(s.required ?? [])] };
  delete merged.allOf;
  for (const part of s.allOf as Json[]) {
    const p = flattenAllOf(doc, resolve(doc, part));
    Object.assign(merged.properties, p.properties ?? {});
    merged.required.push(...(p.required ?? []));
    if (p.type && !merged.type) merged.type = p.type;
    if (p.additionalProperties === false) merged.additionalProperties = false;
  }
  return merged;
}

function compareSchemas(
  where: string,
  direction: Direction,
  released: Json,
  current: Json,
  oldNode: Json,
  newNode: Json,
  add: (id: string, message: string) => void,
  depth = 0,
): void {
  if (depth > 12 || !oldNode || !newNode) return;
  const o = flattenAllOf(released, resolve(released, oldNode));
  const n = flattenAllOf(current, resolve(current, newNode));
  // Unions: each variant a client may receive (response) must match an old one; each variant a
  // client may send (request) must still be accepted by a new one.
  const variants = (s: Json) => (s.oneOf ?? s.anyOf) as Json[] | undefined;
  const ov = variants(o);
  const nv = variants(n);
  if (ov || nv) {
    const from = direction === 'response' ? (nv ?? [n]) : (ov ?? [o]);
    const into = direction === 'response' ? (ov ?? [o]) : (nv ?? [n]);
    if (direction === 'response' && !ov && isFreeForm(o)) return; // a free-form object made precise
    if (direction === 'request' && !nv && isFreeForm(n)) return;
    from.forEach((variant, i) => {
      let best: BreakingChange[] | null = null;
      for (const candidate of into) {
        const [oldSide, newSide] = direction === 'response' ? [candidate, variant] : [variant, candidate];
        // Named variants (the event and command unions) are compared once per pair.
        const key = oldSide.$ref && newSide.$ref ? `${direction} ${oldSide.$ref} ${newSide.$ref}` : null;
        let found = key ? variantMemo.get(key) : undefined;
        if (!found) {
          const list: BreakingChange[] = [];
          const collect = (id: string, message: string) => list.push({ id, message });
          compareSchemas(where, direction, released, current, oldSide, newSide, collect, depth + 1);
          found = list;
          if (key) variantMemo.set(key, found);
        }
        if (!best || found.length < best.length) best = found;
        if (found.length === 0) break;
      }
      if (best && best.length > 0)
        add(
          `${where} variant ${i}`,
          `${where}: a ${direction === 'response' ? 'response' : 'request'} variant changed incompatibly (${best[0].message})`,
        );
    });
    return;
  }
  const ot = typesOf(o);
  const nt = typesOf(n);
  if (ot && nt) {
    const ok = direction === 'response' ? covers(ot, nt) : covers(nt, ot);
    if (!ok) add(`${where} type`, `${where}: type ${[...ot].join('|')} became ${[...nt].join('|')}`);
  } else if (ot && !nt && direction === 'response' && !isFreeForm(n)) {
    add(`${where} type`, `${where}: type ${[...ot].join('|')} became unconstrained`);
  }
  if (o.const !== undefined && n.const !== undefined && o.const !== n.const)
    add(`${where} const`, `${where}: the constant ${JSON.stringify(o.const)} became ${JSON.stringify(n.const)}`);
  if (direction === 'response' && o.const !== undefined && n.const === undefined)
    add(`${where} const`, `${where}: the constant ${JSON.stringify(o.const)} is no longer fixed`);
  if (direction === 'request' && !o.enum && o.const === undefined && (n.enum || n.const !== undefined))
    add(`${where} enum`, `${where}: the request value is now restricted to an enum`);
  if (direction === 'request' && isFreeForm(o) && !isFreeForm(n) && n.additionalProperties === false)
    add(`${where} closed`, `${where}: the free-form request object now accepts only the listed fields`);
  if (Array.isArray(o.enum) && !(direction === 'response' && !n.enum && n.const === undefined)) {
    const allowed = new Set(n.enum ?? (n.const !== undefined ? [n.const] : o.enum));
    for (const value of o.enum) {
      if (!allowed.has(value))
        add(`${where} enum ${String(value)}`, `${where}: enum value ${JSON.stringify(value)} was removed`);
    }
  }
  if (direction === 'response' && isFreeForm(o)) return;
  const oldProps = (o.properties ?? {}) as Json;
  const newProps = (n.properties ?? {}) as Json;
  const oldRequired = new Set<string>(o.required ?? []);
  const newRequired = new Set<string>(n.required ?? []);
  if (direction === 'request' && isFreeForm(n)) return;
  for (const [name, schema] of Object.entries(oldProps)) {
    const at = `${where}.${name}`;
    if (!(name in newProps)) {
      add(at, `${at}: the ${direction} field was removed`);
      continue;
    }
    if (direction === 'response' && oldRequired.has(name) && !newRequired.has(name))
      add(`${at} required`, `${at}: the response field is no longer always present`);
    if (direction === 'request' && newRequired.has(name) && !oldRequired.has(name))
      add(`${at} required`, `${at}: the request field became required`);
    compareSchemas(at, direction, released, current, schema, newProps[name], add, depth + 1);
  }
  if (direction === 'request') {
    for (const name of newRequired) {
      if (!(name in oldProps)) add(`${where}.${name} required`, `${where}.${name}: new required request field`);
    }
  }
  if (o.items && n.items) compareSchemas(`${where}[]`, direction, released, current, o.items, n.items, add, depth + 1);
}
