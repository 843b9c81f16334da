/**
 * The REST routes of the game moves (game-moves.ts), defined on GamesController as if written by
 * hand: each move becomes a method named after it with the same Nest and Swagger decorators, in
 * the order TypeScript would apply them, so that the OpenAPI document stays the same byte for byte.
 */
import { Body, HttpCode, Param, Post, Put, type Type } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import {
  ApiCommandProblems,
  ApiNoFieldsBody,
  ApiProblems,
  ApiRequestHeaders,
  BODY_PROBLEMS,
  PATH_PROBLEMS,
} from '../../common/openapi/decorators';
import { CurrentPlayer } from '../../players/auth.guard';
import { RequireScope } from '../../players/require-scope';
import type { AuthenticatedPlayer } from '../../players/players.types';
import { RestCommandOptions, UuidPipe } from '../../reliability';
import { GameView } from '../dto/game-view.model';
import { NoFieldsPipe } from '../dto/game.inputs';
import type { CommandOptions, CommandResult } from '../games.types';
import { defineDecoratedMethod, parameter } from './decorated-method';
import type { GameMove } from './move-definition';

/** What a controller of moves offers: running one. */
export interface MovesHost {
  runMove(
    move: GameMove,
    player: AuthenticatedPlayer,
    gameId: string,
    input: object,
    opts: CommandOptions,
  ): Promise<CommandResult>;
}

/** The decorators of a move's route, in source order (outermost first). */
function routeDecorators(move: GameMove): MethodDecorator[] {
  const { rest } = move;
  const creates = move.command === 'rematch';
  const body = rest.body;
  return [
    rest.method === 'PUT' ? Put(rest.path) : Post(rest.path),
    ...(creates ? [] : [HttpCode(200)]),
    ApiOperation({
      summary: rest.summary,
      ...(rest.description !== undefined ? { description: rest.description } : {}),
    }),
    ...(body?.optional ? [ApiBody({ type: body.type, required: false })] : []),
    creates ? ApiCreatedResponse({ type: GameView }) : ApiOkResponse({ type: GameView }),
    ...(body ? [] : [ApiNoFieldsBody()]),
    creates
      ? ApiRequestHeaders('Idempotency-Key', 'Prefer')
      : ApiRequestHeaders('Idempotency-Key', 'If-Match', 'Prefer'),
    creates ? ApiProblems(...BODY_PROBLEMS, ...PATH_PROBLEMS, ...rest.problems) : ApiCommandProblems(...rest.problems),
    RequireScope(move.scope),
  ];
}

/** Defines one route per move on the controller: (player, :id, body, command options) → the move's answer. */
export function defineMoveRoutes(controller: Type<MovesHost>, moves: readonly GameMove[]): void {
  for (const move of moves) {
    const body = move.rest.body;
    defineDecoratedMethod(controller.prototype, move.name, {
      decorators: routeDecorators(move),
      parameters: [
        parameter(Object, CurrentPlayer()),
        parameter(String, Param('id', UuidPipe)),
        body ? parameter(body.type, Body()) : parameter(Object, Body(new NoFieldsPipe())),
        parameter(Object, RestCommandOptions()),
      ],
      handler: function (
        this: MovesHost,
        player: AuthenticatedPlayer,
        id: string,
        input: object | undefined,
        opts: CommandOptions,
      ) {
        return this.runMove(move, player, id, body ? (input ?? {}) : {}, opts);
      },
    });
  }
}
