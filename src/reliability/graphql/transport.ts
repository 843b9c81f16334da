/**
 * GraphQL over HTTP runs queries and mutations only. A subscription sent as an HTTP POST would
 * be executed like a query and fail inside its resolver (a 500); it is refused before execution
 * with 400 UNSUPPORTED_OPERATION instead. Subscriptions use graphql-ws on the same path, which
 * does not pass through Apollo's request pipeline, so this plugin never sees them.
 */
import { GraphQLError, type OperationDefinitionNode, OperationTypeNode } from 'graphql';

/** An Apollo Server plugin (typed structurally: Apollo's ESM and CommonJS typings differ). */
export const httpOperationsOnly = {
  requestDidStart() {
    return Promise.resolve({
      didResolveOperation({ operation }: { operation?: OperationDefinitionNode | null }): Promise<void> {
        if (operation?.operation !== OperationTypeNode.SUBSCRIPTION) return Promise.resolve();
        return Promise.reject(
          new GraphQLError(
            'Subscriptions are served over WebSocket (graphql-ws protocol) on /graphql, not over HTTP POST',
            { extensions: { code: 'UNSUPPORTED_OPERATION', status: 400, http: { status: 400 } } },
          ),
        );
      },
    });
  },
};

/**
 * Every GraphQL answer is `Cache-Control: no-store`, as Apollo's default cache-control plugin
 * makes it for a schema without cache hints (this one declares none). That plugin is replaced
 * (app.module.ts disables it) because it reaches the same answer through a hook on every resolved
 * field, about 110 per move in the bench's selection; this sets the header once per response.
 */
export const noStoreCacheControl = {
  requestDidStart() {
    return Promise.resolve({
      willSendResponse({ response }: { response: { http: { headers: Map<string, string> } } }): Promise<void> {
        response.http.headers.set('cache-control', 'no-store');
        return Promise.resolve();
      },
    });
  },
};
