/**
 * The GraphQL mutations of the game moves (game-moves.ts), defined on GamesResolver as code-first
 * resolver methods: (gameId, the move's input as `input` or as one argument per field,
 * idempotencyKey) → Game. Deprecated older names of a mutation run the same move.
 */
import type { Type } from '@nestjs/common';
import { Args, ID, Mutation } from '@nestjs/graphql';
import { CurrentPlayer } from '../../players/auth.guard';
import { RequireScope } from '../../players/require-scope';
import type { AuthenticatedPlayer } from '../../players/players.types';
import { IDEMPOTENCY_KEY_ARG } from '../../reliability';
import { GameView } from '../dto/game-view.model';
import { defineDecoratedMethod, parameter, type Parameter } from './decorated-method';
import type { GameMove, GraphqlMutation } from './move-definition';
import type { MovesHost } from './rest-routes';

/** The mutations a move gives: its own, then its deprecated older names. */
export const mutationsOf = (move: GameMove): GraphqlMutation[] => [
  move.graphql,
  ...(move.graphql.deprecatedAliases ?? []),
];

/** The input a mutation's arguments make: `input` itself ({} when absent), or the arguments given. */
function inputOf(mutation: GraphqlMutation, values: unknown[]): object {
  if (mutation.input) return (values[0] as object | null | undefined) ?? {};
  const input: Record<string, unknown> = {};
  (mutation.args ?? []).forEach((arg, i) => {
    if (values[i] !== undefined && values[i] !== null) input[arg.name] = values[i];
  });
  return input;
}

function inputParameters(mutation: GraphqlMutation): Parameter[] {
  if (mutation.input) {
    const { type, nullable, description } = mutation.input;
    return [parameter(type, Args('input', { type: () => type, nullable, description }))];
  }
  return (mutation.args ?? []).map((arg) =>
    parameter(arg.metatype, Args(arg.name, { type: arg.type, nullable: arg.nullable, description: arg.description })),
  );
}

/** Defines the mutations of every move on the resolver. */
export function defineMoveMutations(resolver: Type<MovesHost>, moves: readonly GameMove[]): void {
  for (const move of moves) {
    for (const mutation of mutationsOf(move)) {
      const inputs = inputParameters(mutation);
      defineDecoratedMethod(resolver.prototype, mutation.name, {
        decorators: [
          Mutation(() => GameView, {
            ...(mutation.description !== undefined ? { description: mutation.description } : {}),
            ...(mutation.deprecationReason !== undefined ? { deprecationReason: mutation.deprecationReason } : {}),
          }),
          RequireScope(move.scope),
        ],
        parameters: [
          parameter(Object, CurrentPlayer()),
          parameter(String, Args('gameId', { type: () => ID })),
          ...inputs,
          parameter(String, Args('idempotencyKey', IDEMPOTENCY_KEY_ARG)),
        ],
        handler: function (this: MovesHost, player: AuthenticatedPlayer, gameId: string, ...rest: unknown[]) {
          const idempotencyKey = rest[inputs.length] as string | undefined;
          return this.runMove(move, player, gameId, inputOf(mutation, rest.slice(0, inputs.length)), {
            idempotencyKey,
          });
        },
      });
    }
  }
}
