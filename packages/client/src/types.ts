/**
 * Names for the shapes a client handles most, derived from the generated `paths` by operation
 * (not by component name), so they follow openapi/openapi.json whatever its schemas are called.
 */
import type { paths } from './generated/openapi';

type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type SuccessStatus = 200 | 201;

/** The JSON body of an operation's 200/201 response. */
export type ResponseBody<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  responses: infer R;
}
  ? { [S in keyof R]: S extends SuccessStatus ? Json<R[S]> : never }[keyof R]
  : never;

/** The JSON body of an operation's request. */
export type RequestBody<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  requestBody?: infer B;
}
  ? Json<NonNullable<B>>
  : never;

/** A game's state as every command and `GET /v1/games/{id}` return it. */
export type Game = ResponseBody<'/v1/games/{id}', 'get'>;
/** One stored event of a game (the event log, the SSE stream and webhooks carry this shape). */
export type GameEvent = ResponseBody<'/v1/games/{id}/events', 'get'> extends { items: Array<infer E> } ? E : never;
/** `POST /v1/players`: the player and its bearer token (shown once). */
export type RegisteredPlayer = ResponseBody<'/v1/players', 'post'>;
/** `GET /v1/games/{id}/audit`: the audit bundle (docs/fairness.md). */
export type AuditBundle = ResponseBody<'/v1/games/{id}/audit', 'get'>;
export type CreateGameInput = RequestBody<'/v1/games', 'post'>;
/** A tournament as `GET /v1/tournaments/{id}` and every tournament command return it (docs/tournaments.md). */
export type Tournament = ResponseBody<'/v1/tournaments/{id}', 'get'>;
/** `GET /v1/tournaments/{id}/standings`, and each message of its SSE stream. */
export type TournamentStandings = ResponseBody<'/v1/tournaments/{id}/standings', 'get'>;
export type CreateTournamentInput = RequestBody<'/v1/tournaments', 'post'>;
/** One message of my event stream (`GET /v1/players/me/events`): a stored event or a resync (docs/async.md). */
export type PlayerStreamMessage = Exclude<
  paths['/v1/players/me/events']['get']['responses'][200]['content']['application/x-ndjson'],
  { type: 'revoked' }
>;
