/**
 * What a game move declares, once: its name, its REST route, its GraphQL mutation, its input, the
 * command it builds and the token scope it needs. The routes (rest-routes.ts), the mutations
 * (graphql-mutations.ts), the SDK's typed paths (generated from the contract the routes give) and
 * the fuzz suite (which reads the contract) all come from the tables (game-moves.ts): a new move is
 * one table entry plus its rules in packages/core. Decision record 0097.
 */
import type { Type } from '@nestjs/common';
import type { ReturnTypeFunc } from '@nestjs/graphql';
import type { GameCommand, GameState } from '@fairdice/core/rules/game';
import { DomainException } from '../../common/errors';
import type { ErrorCode } from '../../common/errors/error-codes';
import type { AuthenticatedPlayer } from '../../players/players.types';
import type { TokenScope } from '../../players/scopes';

/** The command a move sends, built from the loaded game: the rules (packages/core) decide it. */
export type MoveBuilder = (game: { state: GameState }) => GameCommand;

/** How a move becomes a command for the one command handler (GameCommands.run). */
export interface MoveCommand<I> {
  /** Builds the command from the caller, the move's input and the loaded game. */
  build(player: AuthenticatedPlayer, input: I): MoveBuilder;
  /**
   * What identifies the request for its Idempotency-Key (a retry with other arguments is
   * IDEMPOTENCY_KEY_REUSED); default: the input.
   */
  args?(input: I): unknown;
  /** Joining: open to a player not seated (others answer NOT_SEATED). */
  outsiderMayAct?: boolean;
}

/** One GraphQL argument of a mutation whose input is spread into arguments. */
export interface GraphqlArg {
  name: string;
  type: ReturnTypeFunc;
  /** The argument's metatype for validation (ValidationPipe skips String, Array…). */
  metatype: Type<unknown> | typeof String | typeof Array;
  nullable?: boolean;
  description?: string;
}

/** A move's GraphQL mutation: (gameId, its input, idempotencyKey) → Game. */
export interface GraphqlMutation {
  name: string;
  description?: string;
  deprecationReason?: string;
  /** The input as one `input` argument (an @InputType class)… */
  input?: { type: Type<unknown>; nullable?: boolean; description?: string };
  /** …or as arguments, one per field (absent and null ones are left out of the input). */
  args?: GraphqlArg[];
}

export interface GameMove<I extends object = Record<string, unknown>> {
  /** The handler's name: REST operationId `Games_<name>`; kebab-cased, the command's operation (metrics, idempotency). */
  name: string;
  /** The token scope it needs (src/players/scopes.ts): `game:create` around play, `game:play` for a turn's moves. */
  scope: TokenScope;
  rest: {
    method: 'POST' | 'PUT';
    /** Below /v1/games. */
    path: string;
    summary: string;
    description?: string;
    /** The body's class (validated; `optional`: no body is {}); absent: no fields at all (NoFieldsPipe). */
    body?: { type: Type<I>; optional?: boolean };
    /** The rules' error codes (a command's common ones are added: ApiCommandProblems); with `creates`, all of them. */
    problems: ErrorCode[];
  };
  graphql: GraphqlMutation & {
    /** Older names of the same mutation, kept deprecated. */
    deprecatedAliases?: GraphqlMutation[];
  };
  /**
   * The command it sends through the one command handler, or `rematch`: a move that creates a new
   * game (201, GameCreation; no If-Match, as there is no version of the new game to match).
   */
  command: MoveCommand<I> | 'rematch';
}

/** A table entry, its input type checked where it is written. */
export const defineMove = <I extends object>(move: GameMove<I>): GameMove => move as unknown as GameMove;

/** The move's operation name: `setAside` → `set-aside` (metrics, the idempotency hash). */
export const operationOf = (move: Pick<GameMove, 'name'>): string =>
  move.name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** A `play` command: a move inside the family's rules. */
export const play = (player: AuthenticatedPlayer, move: Record<string, unknown> & { type: string }): GameCommand => ({
  type: 'play',
  playerId: player.id,
  move,
});

/** A move of one family only: elsewhere INVALID_COMMAND, before the rules are asked. */
export function familyMove(family: 'five-dice' | 'farkle', what: string, move: () => GameCommand): MoveBuilder {
  return (g) => {
    if (g.state.family !== family)
      throw new DomainException('INVALID_COMMAND', `You cannot ${what} in ${g.state.ruleSet}`);
    return move();
  };
}
