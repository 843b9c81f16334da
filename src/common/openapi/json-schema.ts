/**
 * Small builders for the JSON Schema (OpenAPI 3.1) objects written by hand: the shapes Nest's
 * decorators cannot express (unions by `type`, the problem document, the audit bundle, webhooks).
 * Objects built with `closed` reject unknown fields (additionalProperties: false), as the service
 * never sends fields it does not document: the contract tests (test/helpers/contract.ts) hold it to that.
 */
export type JsonSchema = { [keyword: string]: unknown };

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

export const int = (description?: string, extra: JsonSchema = {}): JsonSchema => ({
  type: 'integer',
  ...(description ? { description } : {}),
  ...extra,
});
export const str = (description?: string, extra: JsonSchema = {}): JsonSchema => ({
  type: 'string',
  ...(description ? { description } : {}),
  ...extra,
});
export const bool = (description?: string): JsonSchema => ({ type: 'boolean', ...(description ? { description } : {}) });
export const constant = (value: string): JsonSchema => ({ type: 'string', const: value });
export const enumOf = (values: readonly string[], description?: string): JsonSchema => ({
  type: 'string',
  enum: [...values],
  ...(description ? { description } : {}),
});
export const arrayOf = (items: JsonSchema, description?: string, extra: JsonSchema = {}): JsonSchema => ({
  type: 'array',
  items,
  ...(description ? { description } : {}),
  ...extra,
});
/** `schema` or null. A $ref cannot carry `type`, so references become anyOf [ref, null]. */
export const nullable = (schema: JsonSchema): JsonSchema => {
  if ('$ref' in schema || 'oneOf' in schema || 'anyOf' in schema) return { anyOf: [schema, { type: 'null' }] };
  const type = schema.type;
  return { ...schema, type: Array.isArray(type) ? [...type, 'null'] : [type, 'null'] };
};
export const hex64 = (description?: string): JsonSchema => str(description, { pattern: '^[0-9a-f]{64}$' });
export const uuid = (description?: string): JsonSchema => str(description, { format: 'uuid' });
export const dateTime = (description?: string): JsonSchema => str(description, { format: 'date-time' });

/**
 * A closed object: every property listed, `optional` ones not required.
 */
export function closed(
  properties: Record<string, JsonSchema>,
  options: { optional?: readonly string[]; description?: string; title?: string } = {},
): JsonSchema {
  const optional = new Set(options.optional ?? []);
  const required = Object.keys(properties).filter((k) => !optional.has(k));
  return {
    type: 'object',
    ...(options.title ? { title: options.title } : {}),
    ...(options.description ? { description: options.description } : {}),
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  };
}

/**
 * For @ApiProperty: a property that is the named component schema (Nest's options have no $ref;
 * completeOpenApiDocument turns the one-element allOf back into a plain $ref).
 */
export const apiRef = (name: string) => ({ allOf: [ref(name)] });
