/**
 * GraphQL's share of the rate limit (src/reliability/rate-limit/rate-limit.ts): the HTTP request
 * counted 1 when it arrived; once Apollo has resolved the operation, a mutation is charged one
 * more unit per root field beyond the first, and each root `registerPlayer` field is charged to
 * the client address's registration budget. Over a budget, the whole operation is refused before
 * anything executes: 429 with a GraphQL error whose extensions.code is RATE_LIMITED.
 */
import type { FastifyRequest } from 'fastify';
import {
  type DocumentNode,
  type FragmentDefinitionNode,
  GraphQLError,
  Kind,
  type OperationDefinitionNode,
  OperationTypeNode,
  type SelectionSetNode,
} from 'graphql';
import type { RateLimitBucket, RateLimitDecision } from './rate-limit';

/**
 * The root fields an operation executes, one per response key (alias or name), fragments
 * followed once each, as graphql-js collects them (so `...A ...A` does not count twice, and the
 * work is linear in the document). @skip/@include are ignored: a conditional field counts.
 */
export function rootFields(operation: OperationDefinitionNode, document: DocumentNode): string[] {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const byKey = new Map<string, string>();
  const visited = new Set<string>();
  const collect = (set: SelectionSetNode) => {
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) {
        if (s.name.value === '__typename') continue;
        const key = s.alias?.value ?? s.name.value;
        if (!byKey.has(key)) byKey.set(key, s.name.value);
      } else if (s.kind === Kind.INLINE_FRAGMENT) collect(s.selectionSet);
      else if (!visited.has(s.name.value)) {
        visited.add(s.name.value);
        const f = fragments.get(s.name.value);
        if (f) collect(f.selectionSet);
      }
    }
  };
  collect(operation.selectionSet);
  return [...byKey.values()];
}

function refusal(d: RateLimitDecision, what: string): GraphQLError {
  return new GraphQLError(`More than ${d.limit} ${what} in a minute; retry after ${d.resetSeconds} s`, {
    extensions: {
      code: 'RATE_LIMITED',
      status: 429,
      limit: d.limit,
      retryAfter: d.resetSeconds,
      http: { status: 429, headers: new Map([['retry-after', String(d.resetSeconds)]]) },
    },
  });
}

async function charge(req: FastifyRequest, bucket: RateLimitBucket, units: number, what: string): Promise<void> {
  if (units <= 0 || !req.rateLimit) return;
  const d = await req.rateLimit.charge(bucket, units);
  if (!d.allowed) throw refusal(d, what);
}

/** The part of Apollo's plugin interface used here (structural: @apollo/server ships ESM and CJS types). */
interface OperationHook {
  operation?: OperationDefinitionNode | null;
  document: DocumentNode;
  contextValue?: { req?: FastifyRequest };
}

export function graphqlRateLimitPlugin() {
  return {
    requestDidStart() {
      return Promise.resolve({
        async didResolveOperation({ operation, document, contextValue }: OperationHook) {
          const req = contextValue?.req;
          if (!req?.rateLimit || operation?.operation !== OperationTypeNode.MUTATION) return;
          const fields = rootFields(operation, document);
          await charge(req, 'requests', fields.length - 1, 'requests');
          const registrations = fields.filter((f) => f === 'registerPlayer').length;
          await charge(req, 'registrations', registrations, 'registrations from your address');
        },
      });
    },
  };
}
