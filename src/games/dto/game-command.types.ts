/**
 * Commands in GraphQL: the command stored on the first event of each batch (docs/fairness.md
 * §4.4), typed. `GameEvent.issuedCommand` resolves to one object type per command type, and a
 * play command's `move` to one per family and move (FiveDice*Move, Farkle*Move): the same names
 * as the OpenAPI schemas. The verbatim text a verifier re-hashes is `GameEvent.commandJson`.
 * Decision record 0023 (addendum).
 */
import { createUnionType, Field, ID, Int, InterfaceType, ObjectType, registerEnumType } from '@nestjs/graphql';
import type { FamilyId } from '@fairdice/core/rules/core/family';
import {
  AdviceSettingEnum,
  BoxIdEnum,
  ComputerLevelEnum,
  enumOf,
  EventReasonEnum,
  JokerRuleEnum,
  RuleSetNameEnum,
  VisibilityEnum,
} from '../../common/graphql/enums';
import { FarkleStraights } from '../../common/graphql/game-options';

export const GAME_COMMAND_TYPES = [
  'create',
  'join',
  'leave',
  'setSeed',
  'start',
  'cancel',
  'play',
  'timeout',
  'computer',
  'autoScore',
  'abandon',
] as const;
export const GAME_MOVE_TYPES = ['roll', 'score', 'quit', 'setAside', 'bank'] as const;
export const GameCommandTypeEnum = enumOf(GAME_COMMAND_TYPES);
export const GameMoveTypeEnum = enumOf(GAME_MOVE_TYPES);
registerEnumType(GameCommandTypeEnum, {
  name: 'GameCommandType',
  description: 'The type of a stored command (docs/fairness.md §4.4).',
});
registerEnumType(GameMoveTypeEnum, {
  name: 'GameMoveType',
  description:
    'The type of a move of a play command: roll, score, quit (five dice); roll, setAside, bank, quit (Farkle).',
});

type Typed = Record<string, unknown> & { __typename: string };
const byTypename = (value: Typed): string => value.__typename;

// ------------------------------------------------------------------ moves (per family)

@InterfaceType('GameMove', {
  description: 'The move of a play command; its object type follows `type` and the family.',
  resolveType: byTypename,
})
export abstract class GameMove {
  @Field(() => GameMoveTypeEnum) type: string;
}
const move = (description: string) => ({ implements: () => [GameMove], description });
/** Shared by the roll and bank moves of Farkle: one GraphQL type, so fragments on both merge. */
const setAsideField = () =>
  Field(() => [Int], { nullable: true, description: 'Indices into the current roll set aside first; absent: none.' });

@ObjectType(move('Five dice: roll, keeping `hold` (indices 0-4 of the current dice; absent on a first roll).'))
export class FiveDiceRollMove extends GameMove {
  @Field(() => [Int], { nullable: true }) hold?: number[];
}
@ObjectType(move('Five dice: enter the dice in `box`.'))
export class FiveDiceScoreMove extends GameMove {
  @Field(() => BoxIdEnum) box: string;
}
@ObjectType(move('Five dice: leave the game on your turn.'))
export class FiveDiceQuitMove extends GameMove {}
@ObjectType(move('Farkle: roll (six dice on the first roll of a turn; otherwise the dice not set aside).'))
export class FarkleRollMove extends GameMove {
  @setAsideField() setAside?: number[];
}
@ObjectType(move('Farkle: set scoring dice aside from the current roll.'))
export class FarkleSetAsideMove extends GameMove {
  @Field(() => [Int], { description: 'Indices into the current roll.' }) dice: number[];
}
@ObjectType(move("Farkle: bank the turn's points."))
export class FarkleBankMove extends GameMove {
  @setAsideField() setAside?: number[];
}
@ObjectType(move('Farkle: leave the game on your turn.'))
export class FarkleQuitMove extends GameMove {}

// ------------------------------------------------------------------ option overrides of create

@ObjectType({ description: 'Five-dice option overrides given at creation; null: the preset value was kept.' })
export class FiveDiceOptionsOverrides {
  @Field(() => JokerRuleEnum, { nullable: true }) joker?: string;
  @Field({ nullable: true }) jokerAfterSacrifice?: boolean;
  @Field(() => Int, { nullable: true }) extraFiveOfAKindBonus?: number;
  @Field(() => Int, { nullable: true }) upperBonusThreshold?: number;
  @Field(() => Int, { nullable: true }) upperBonusPoints?: number;
  @Field(() => Int, { nullable: true }) autoScoreAfterMs?: number | null;
}
@ObjectType({
  description:
    'Farkle option overrides given at creation; null: the preset value was kept (for a straight inside `straights`, commandJson tells an absent one from one switched off).',
})
export class FarkleOptionsOverrides {
  @Field(() => Int, { nullable: true }) entryThreshold?: number;
  @Field(() => Int, { nullable: true }) target?: number;
  @Field({ nullable: true }) exactTarget?: boolean;
  @Field(() => Int, { nullable: true }) threeFarklePenalty?: number;
  @Field(() => FarkleStraights, { nullable: true }) straights?: FarkleStraights;
}
export const GameOptionsOverrides = createUnionType({
  name: 'GameOptionsOverrides',
  description: 'The overrides of a create command: FiveDiceOptionsOverrides or FarkleOptionsOverrides, by family.',
  types: () => [FiveDiceOptionsOverrides, FarkleOptionsOverrides] as const,
  resolveType: byTypename,
});

// ------------------------------------------------------------------ commands

@InterfaceType('GameCommand', {
  description:
    'A stored command, typed by `type` (docs/fairness.md §4.4). Shared member names have one GraphQL type across commands (`seat: Int`, `clientSeed: String`), so fragments on several commands merge.',
  resolveType: byTypename,
})
export abstract class GameCommand {
  @Field(() => GameCommandTypeEnum) type: string;
}
const command = (description: string) => ({ implements: () => [GameCommand], description });
const seatField = (description: string) => Field(() => Int, { nullable: true, description });

@ObjectType({ description: 'A client seed for one seat.' })
export class SeatSeed {
  @Field(() => Int) seat: number;
  @Field() clientSeed: string;
}

@ObjectType({ description: 'A seat the service plays, at its level.' })
export class ComputerSeat {
  @Field(() => Int) seat: number;
  @Field(() => ComputerLevelEnum) level: string;
}

export const TOURNAMENT_REF_FORMATS = ['duplicate', 'tables'] as const;
export const TournamentGameFormatEnum = Object.fromEntries(TOURNAMENT_REF_FORMATS.map((f) => [f, f]));
registerEnumType(TournamentGameFormatEnum, {
  name: 'TournamentGameFormat',
  description: 'The format of the tournament a game belongs to (docs/tournaments.md).',
});

@ObjectType({
  description:
    'Games a tournament created: which tournament, round, game and table (docs/tournaments.md). In a duplicate round the dice come from the round seed (docs/fairness.md §10).',
})
export class TournamentRef {
  @Field(() => ID) id: string;
  @Field(() => TournamentGameFormatEnum) format: string;
  @Field(() => Int, { description: '1-based round.' }) round: number;
  @Field(() => Int, { description: '0-based game of the round.' }) game: number;
  @Field(() => Int, { description: '0-based table of the draw (0 in duplicate rounds).' }) table: number;
}

@ObjectType(command('create: the game and its commitment.'))
export class CreateCommand extends GameCommand {
  @Field(() => ID) gameId: string;
  @Field(() => RuleSetNameEnum) ruleSet: string;
  @Field(() => GameOptionsOverrides) options: object;
  @Field(() => Int) seatCount: number;
  @Field(() => VisibilityEnum) visibility: string;
  @Field(() => ID) creatorId: string;
  @Field(() => Int, { description: "How many seats after the creator's are hot seats." }) hotSeats: number;
  @Field(() => [String], { nullable: true, description: 'Names of the hot seats in seat order; absent: none.' })
  hotSeatNames?: string[];
  @Field(() => ID, { nullable: true, description: 'The finished game this one is a rematch of; absent: none.' })
  rematchOf?: string;
  @Field(() => Boolean, { nullable: true, description: 'true: a rated game (docs/ratings.md); absent: not rated.' })
  rated?: boolean;
  @Field({ description: 'SHA-256 (hex) of the server seed.' }) commitment: string;
  @Field(() => String, { nullable: true, description: 'Legacy create commands only.' }) organizerSeed?: string | null;
  @Field(() => [String], { nullable: true, description: "Legacy create commands only: the creator's seats' seeds." })
  clientSeeds?: string[];
  @Field(() => Int, { nullable: true }) turnTimeLimitSeconds: number | null;
  @Field(() => [ComputerSeat], { nullable: true, description: 'Seats the service plays; null: none.' })
  computerSeats?: ComputerSeat[];
  @Field(() => ComputerLevelEnum, { nullable: true, description: "The game's computer level; null: standard." })
  computerLevel?: string;
  @Field(() => TournamentRef, { nullable: true, description: 'Games a tournament created; null otherwise.' })
  tournament?: TournamentRef | null;
  @Field(() => AdviceSettingEnum, {
    nullable: true,
    description: 'Advice in the game; absent in create commands that predate the option (advice allowed).',
  })
  advice?: string;
}
@ObjectType(command('join: take a seat (the first open one when `seat` is null).'))
export class JoinCommand extends GameCommand {
  @Field(() => ID) playerId: string;
  @Field(() => String, { nullable: true, description: "The joiner's seed, when given with the join." })
  clientSeed?: string;
  @seatField('The seat asked for; null: the first open one.') seat?: number;
}
@ObjectType(command('leave: give up a seat before the start.'))
export class LeaveCommand extends GameCommand {
  @Field(() => ID) playerId: string;
}
@ObjectType(command("setSeed: a seat's seed (seat) or the organizer seed (seat null)."))
export class SetSeedCommand extends GameCommand {
  @Field(() => ID) playerId: string;
  @seatField('The seat; null: the organizer seed.') seat: number | null;
  @Field(() => String, { nullable: true, description: 'The seed (never null for this command).' }) clientSeed: string;
}
@ObjectType(command('start: the seeds are fixed and play begins.'))
export class StartCommand extends GameCommand {
  @Field(() => ID) playerId: string;
  @Field(() => [SeatSeed], { nullable: true, description: 'Seeds the creator gave with the start.' })
  seeds?: SeatSeed[];
  @Field(() => [SeatSeed], {
    nullable: true,
    description: 'Seeds the service generated for seats without one (null on legacy start commands).',
  })
  generatedSeeds?: SeatSeed[];
}
@ObjectType(command('cancel: the creator cancelled the game before the start.'))
export class CancelCommand extends GameCommand {
  @Field(() => ID) playerId: string;
}
@ObjectType(command('play: a move by the seat whose turn it is.'))
export class PlayCommand extends GameCommand {
  @Field(() => ID) playerId: string;
  @Field(() => GameMove) move: object;
}
@ObjectType(command("timeout: the turn's time ran out; the server completed the turn."))
export class TimeoutCommand extends GameCommand {
  @seatField('The seat whose turn timed out (never null for this command).') seat: number;
  @Field(() => [GameMove], {
    nullable: true,
    description:
      "The moves the server chose at the game's computer level, in order; null: the rules' own timeout policy.",
  })
  moves?: object[];
}
@ObjectType(command("computer: a computer seat's turn, the moves the service chose at the seat's level."))
export class ComputerCommand extends GameCommand {
  @seatField('The computer seat (never null for this command).') seat: number;
  @Field(() => ComputerLevelEnum) level: string;
  @Field(() => [GameMove], {
    nullable: true,
    description: 'The moves in order (never null for this command; nullable like TimeoutCommand.moves).',
  })
  moves: object[];
}
@ObjectType(command('autoScore: the player had not scored within autoScoreAfterMs of the last roll; the service did.'))
export class AutoScoreCommand extends GameCommand {
  @seatField('The seat whose dice were scored (never null for this command).') seat: number;
  @Field(() => BoxIdEnum) box: string;
}
@ObjectType(command('abandon: the service ended a game nobody plays (expired or inactive).'))
export class AbandonCommand extends GameCommand {
  @Field(() => EventReasonEnum, { nullable: true, description: 'expired or inactive.' }) reason: string;
}

const COMMAND_TYPE_NAMES: Record<string, string> = {
  create: CreateCommand.name,
  join: JoinCommand.name,
  leave: LeaveCommand.name,
  setSeed: SetSeedCommand.name,
  start: StartCommand.name,
  cancel: CancelCommand.name,
  play: PlayCommand.name,
  timeout: TimeoutCommand.name,
  computer: ComputerCommand.name,
  autoScore: AutoScoreCommand.name,
  abandon: AbandonCommand.name,
};
const MOVE_TYPE_NAMES: Record<FamilyId, Record<string, string>> = {
  'five-dice': { roll: FiveDiceRollMove.name, score: FiveDiceScoreMove.name, quit: FiveDiceQuitMove.name },
  farkle: {
    roll: FarkleRollMove.name,
    setAside: FarkleSetAsideMove.name,
    bank: FarkleBankMove.name,
    quit: FarkleQuitMove.name,
  },
};

function typeName(table: Record<string, string> | undefined, type: unknown, what: string): string {
  const name = typeof type === 'string' ? table?.[type] : undefined;
  // Unreachable for stored commands (the service stores only these); fail loudly, never guess.
  if (name === undefined) throw new Error(`no GraphQL type for ${what} ${String(type)}`);
  return name;
}

/** A stored command as GraphQL resolves it: its members, and the object types of it, its move and its options. */
export function toTypedCommand(command: Record<string, unknown> | null, family: FamilyId): Typed | null {
  if (command === null) return null;
  const typed: Typed = { ...command, __typename: typeName(COMMAND_TYPE_NAMES, command.type, 'command') };
  if (command.type === 'create') {
    const overrides = family === 'five-dice' ? FiveDiceOptionsOverrides.name : FarkleOptionsOverrides.name;
    typed.options = { ...(command.options ?? {}), __typename: overrides };
  }
  const typedMove = (played: Record<string, unknown>) => ({
    ...played,
    __typename: typeName(MOVE_TYPE_NAMES[family], played?.type, `${family} move`),
  });
  if (command.type === 'play') typed.move = typedMove(command.move as Record<string, unknown>);
  if (Array.isArray(command.moves)) typed.moves = (command.moves as Record<string, unknown>[]).map(typedMove);
  return typed;
}
