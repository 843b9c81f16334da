/**
 * GraphQL subscriptions over graphql-ws with the typed documents generated from src/schema.gql
 * (generated/graphql.ts, from the documents in graphql/*.graphql).
 *
 * `graphql` and `graphql-ws` are peer dependencies: install them to use this module. In Node < 22
 * pass a WebSocket implementation (`ws`) as `webSocketImpl`.
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import { FairdiceError } from './errors';
import { GameEventsDocument, type GameEventsSubscription } from './generated/graphql';

export * from './generated/graphql';

export interface GraphqlWsOptions {
  /** `ws://host/graphql` or `wss://host/graphql`. */
  url: string;
  token?: string;
  /** A WebSocket constructor where there is no global one (Node < 22: `require('ws')`). */
  webSocketImpl?: unknown;
}

/**
 * A graphql-ws client that authenticates with the bearer token in the connection params. It does
 * not retry by itself: `gameEventsSubscription` resumes with `after` instead, because a
 * plain re-subscription would replay the events already seen.
 */
export function createGraphqlWsClient(options: GraphqlWsOptions): Client {
  return createClient({
    url: options.url,
    webSocketImpl: options.webSocketImpl,
    connectionParams: options.token ? { authorization: `Bearer ${options.token}` } : {},
    retryAttempts: 0,
    lazy: true,
  });
}

/** Runs a typed operation and yields each typed result (one for queries and mutations). */
export async function* execute<TResult, TVariables extends Record<string, unknown>>(
  client: Client,
  document: TypedDocumentNode<TResult, TVariables>,
  variables: TVariables,
): AsyncGenerator<TResult, void, undefined> {
  for await (const result of client.iterate<TResult>({ query: print(document), variables })) {
    if (result.errors?.length) {
      const [first] = result.errors;
      const ext = (first.extensions ?? {}) as { code?: string; status?: number };
      throw new FairdiceError({ status: ext.status ?? 400, code: ext.code ?? 'GRAPHQL_ERROR', detail: first.message });
    }
    if (result.data) yield result.data;
  }
}

export type GameEventsItem = GameEventsSubscription['gameEvents'];

/**
 * A game's events over the `gameEvents` subscription, resumed after a dropped connection: a
 * new client (from `connect`) re-subscribes with `after` = the last version seen. GraphQL
 * errors (GAME_NOT_FOUND, GAME_ACCESS_REVOKED...) are thrown as FairdiceError and end it.
 */
export async function* gameEventsSubscription(options: {
  connect: () => Client;
  gameId: string;
  /** Resume after this version (the last one you processed). */
  after?: number;
  maxReconnects?: number;
  reconnectDelayMs?: number;
}): AsyncGenerator<GameEventsItem, void, undefined> {
  let after = options.after;
  let failures = 0;
  for (;;) {
    const client = options.connect();
    try {
      for await (const data of execute(client, GameEventsDocument, { gameId: options.gameId, after })) {
        const event = data.gameEvents;
        if (after !== undefined && event.version <= after) continue;
        after = event.version;
        failures = 0;
        yield event;
      }
      return; // completed by the server: the game ended
    } catch (err) {
      if (err instanceof FairdiceError || ++failures > (options.maxReconnects ?? 10)) throw err;
    } finally {
      await client.dispose();
    }
    await new Promise((resolve) => setTimeout(resolve, options.reconnectDelayMs ?? 1000));
  }
}
