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
