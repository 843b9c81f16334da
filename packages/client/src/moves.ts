/**
 * One method per move of a game, made from the contract (generated/moves.ts lists the moves the
 * server's move tables declare): `await gameMoves(api).roll(id, { hold: [0, 2] })`. Each is the
 * typed REST call (`api.POST('/v1/games/{id}/roll', …)`), so it keeps the client's token, retries
 * and Idempotency-Key; the answer is openapi-fetch's `{ data, error, response }` (`unwrap()` it).
 */
import type { FetchResponse } from 'openapi-fetch';
import { GAME_MOVE_ROUTES } from './generated/moves';
import type { paths } from './generated/openapi';
import type { FairdiceMedia, FairdiceRestClient } from './rest';

export { GAME_MOVE_ROUTES };
export type GameMoveName = keyof typeof GAME_MOVE_ROUTES;
type Route<N extends GameMoveName> = (typeof GAME_MOVE_ROUTES)[N];
type Operation<N extends GameMoveName> = NonNullable<paths[Route<N>['path']][Route<N>['method']]>;

/** The move's JSON body (absent for moves without fields). */
export type GameMoveBody<N extends GameMoveName> =
  Operation<N> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** Per-request options: headers (If-Match, Prefer, your own Idempotency-Key…) and an abort signal. */
export interface GameMoveInit {
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export type GameMoves = {
  [N in GameMoveName]: (
    gameId: string,
    body?: GameMoveBody<N>,
    init?: GameMoveInit,
  ) => Promise<FetchResponse<Operation<N>, unknown, FairdiceMedia>>;
};

/** The moves of a game as methods of `api` (createFairdiceClient). */
export function gameMoves(api: FairdiceRestClient): GameMoves {
  type Call = (path: string, init: Record<string, unknown>) => Promise<unknown>;
  const methods = { post: api.POST as unknown as Call, put: api.PUT as unknown as Call };
  const moves: Record<string, unknown> = {};
  for (const [name, route] of Object.entries(GAME_MOVE_ROUTES)) {
    moves[name] = (gameId: string, body?: unknown, init: GameMoveInit = {}) =>
      methods[route.method](route.path, { params: { path: { id: gameId } }, body, ...init });
  }
  return moves as GameMoves;
}
