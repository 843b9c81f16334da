/**
 * The scope each operation that takes a token needs (docs/accounts.md "Scoped tokens", decision
 * 0132): `@RequireScope('game:read')` beside the handler, read by the AuthGuard (403
 * INSUFFICIENT_SCOPE), written into OpenAPI (`security: [{ bearer: [scope] }]`) and into the
 * GraphQL field's description (describeScopes). `@RequireScope('*')` (FULL_TOKEN): only a full
 * token, the player's own or a signed-in session's, may do it (credentials, sessions, rotation).
 * A handler behind the AuthGuard that declares nothing needs a full token too (deny by default);
 * the contract tests (test/accounts/scope-contract.e2e-spec.ts) make sure none is left so.
 */
import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import type { GraphQLSchema } from 'graphql';
import { DomainException } from '../common/errors';
import { SCOPE_MARKER } from '../common/openapi/decorators';
import { ALL_SCOPES, grants, type TokenScope } from './scopes';

export const SCOPE_METADATA = 'fairdice:required-scope';

/** What an operation needs: a scope, or a full token ('*'). */
export type RequiredScope = TokenScope | typeof ALL_SCOPES;

/** The scope that stands for "a full token only" (the player's own token or a signed-in session). */
export const FULL_TOKEN: RequiredScope = ALL_SCOPES;

/** The GraphQL resolver methods that declared a scope (their fields' descriptions name it). */
const declared: Array<{ prototype: object; key: string | symbol }> = [];

const remember: MethodDecorator = (target, key) => {
  if (key !== undefined) declared.push({ prototype: target, key });
};

/** The operation needs `scope` (or, with '*', a full token). */
export const RequireScope = (scope: RequiredScope) =>
  applyDecorators(SetMetadata(SCOPE_METADATA, scope), ApiExtension(SCOPE_MARKER, scope), remember);

/** Whether a token holding `scopes` may do what needs `required`. */
export function hasScope(scopes: readonly string[] | undefined, required: RequiredScope): boolean {
  const held = scopes ?? [ALL_SCOPES];
  return required === ALL_SCOPES ? held.includes(ALL_SCOPES) : grants(held, required);
}

/** The 403 a token without the scope gets; `requiredScope` names it (problem+json and GraphQL extensions). */
export const insufficientScope = (required: RequiredScope): DomainException =>
  new DomainException(
    'INSUFFICIENT_SCOPE',
    required === ALL_SCOPES
      ? 'This needs a full token (your own token or a signed-in session), not a scoped one'
      : `This token lacks the scope ${required}`,
    { requiredScope: required },
  );

/** Throws INSUFFICIENT_SCOPE unless the scopes grant `required`. */
export function assertScope(scopes: readonly string[] | undefined, required: RequiredScope): void {
  if (!hasScope(scopes, required)) throw insufficientScope(required);
}

/** The sentence a field's description ends with. */
export const scopeSentence = (scope: RequiredScope, optional: boolean): string => {
  const what = scope === ALL_SCOPES ? 'a full token (scope `*`)' : `scope \`${scope}\``;
  return optional ? `Anonymous, or with a token: requires ${what}.` : `Requires ${what}.`;
};

// Nest's own metadata keys of a resolver method (@nestjs/graphql graphql.constants).
const RESOLVER_TYPE = 'graphql:resolver_type';
const RESOLVER_NAME = 'graphql:resolver_name';

/**
 * Ends the description of every root field whose resolver declared a scope with the sentence
 * naming it (GraphQL's transformSchema; the schema is changed in place and returned).
 */
export function describeScopes(schema: GraphQLSchema, isOptional: (handler: object) => boolean): GraphQLSchema {
  const roots = {
    Query: schema.getQueryType(),
    Mutation: schema.getMutationType(),
    Subscription: schema.getSubscriptionType(),
  };
  for (const { prototype, key } of declared) {
    const handler = (prototype as Record<string | symbol, unknown>)[key];
    if (typeof handler !== 'function') continue;
    const type = Reflect.getMetadata(RESOLVER_TYPE, handler) as keyof typeof roots | undefined;
    const root = type ? roots[type] : undefined;
    if (!root) continue;
    const name = (Reflect.getMetadata(RESOLVER_NAME, handler) as string | undefined) ?? String(key);
    const field = root.getFields()[name];
    const scope = Reflect.getMetadata(SCOPE_METADATA, handler) as RequiredScope | undefined;
    if (!field || !scope) continue;
    const sentence = scopeSentence(scope, isOptional(handler));
    if (field.description?.includes(sentence)) continue;
    field.description = field.description ? `${field.description} ${sentence}` : sentence;
  }
  return schema;
}
