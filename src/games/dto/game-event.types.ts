/**
 * Events in GraphQL: the `GameEvent` interface (the envelope every stored event has) and one
 * object type per event type: the game's lifecycle events, and each family's own (FiveDice*,
 * Farkle*), whose payloads are packages/core/src/rules/{five-dice,farkle}/types.ts. The payload's
 * members become typed fields; `data` keeps the stored payload verbatim because it is what the
 * event hash covers (docs/fairness.md). Decision record 0023.
 */
import { Field, GraphQLISODateTime, ID, Int, InterfaceType, ObjectType } from '@nestjs/graphql';
import type { FamilyId } from '@fairdice/core/rules/core/family';
import { isLifecycleEvent } from '@fairdice/core/rules/game/types';
import {
  AdviceSettingEnum,
  BoxIdEnum,
  ComputerLevelEnum,
  EventReasonEnum,
  GameEventTypeEnum,
  GameFamilyEnum,
  RuleSetNameEnum,
  VisibilityEnum,
} from '../../common/graphql/enums';
import { GameOptions } from '../../common/graphql/game-options';
import { canonicalJson } from '@fairdice/core/fairness/canonical';
import { JSONScalar } from './json.scalar';
import { GameCommand, toTypedCommand, TournamentRef } from './game-command.types';
import type { GameEventView } from './game-event-view.model';

@InterfaceType('GameEvent', {
  description:
    'A stored event with its place in the hash chain. Its object type follows `type` and, for moves, the family: lifecycle events (GameCreatedEvent ...), FiveDice*Event, Farkle*Event. Select payload fields with fragments (`... on FarkleBankedEvent { points total }`).',
  resolveType: (event: TypedGameEvent) => event.__typename,
})
export abstract class GameEvent {
  @Field(() => ID) gameId: string;
  @Field(() => Int, { description: 'Position in the game, from 1; also the game version right after it.' })
  version: number;
  @Field(() => GameEventTypeEnum) type: string;
  @Field(() => Int, { nullable: true, description: 'The seat concerned, when there is one.' }) seat: number | null;
  @Field(() => Int, {
    nullable: true,
    description: 'Number of the dice roll this event records in the fairness stream (docs/fairness.md).',
  })
  rollNumber: number | null;
  @Field(() => JSONScalar, {
    description: 'The stored payload, verbatim.',
    deprecationReason:
      "Use this event type's own fields (typed), or dataJson for the verbatim payload a verifier re-hashes.",
  })
  data: Record<string, unknown>;
  @Field(() => JSONScalar, {
    nullable: true,
    description: 'The command that produced this batch (first event of a batch), verbatim.',
    deprecationReason: 'Use issuedCommand (typed), or commandJson for the verbatim command a verifier re-hashes.',
  })
  command: Record<string, unknown> | null;
  @Field({
    description:
      "The stored payload as canonical JSON text (docs/fairness.md §4.1): exactly what the event hash covers as `data`; JSON.parse it to re-hash. This event type's own fields carry the same values, typed.",
  })
  dataJson: string;
  @Field(() => String, {
    nullable: true,
    description:
      'The command that produced this batch (first event of a batch; null on the others) as canonical JSON text: what the event hash covers as `command`, and what a verifier re-runs (docs/fairness.md §4).',
  })
  commandJson: string | null;
  @Field(() => GameCommand, {
    nullable: true,
    description:
      'The command that produced this batch (first event of a batch; null on the others), typed by its type.',
  })
  issuedCommand: object | null;
  @Field() prevHash: string;
  @Field() hash: string;
  @Field(() => GraphQLISODateTime) createdAt: Date;
}

@ObjectType({ description: 'Final standing of a seat in a finished event.' })
export class SeatStandingView {
  @Field(() => Int) seat: number;
  @Field(() => Int) total: number;
  @Field(() => Int, { description: 'From 1; equal totals share a rank, quitters rank last.' }) rank: number;
  @Field() quit: boolean;
}

const event = (description: string) => ({ implements: () => [GameEvent], description });

// ------------------------------------------------------------------ lifecycle (every family)

@ObjectType(event('gameCreated: the game and its commitment (version 1).'))
export class GameCreatedEvent extends GameEvent {
  @Field(() => RuleSetNameEnum) ruleSet: string;
  @Field(() => GameFamilyEnum) family: string;
  @Field(() => GameOptions, { description: 'The resolved options (preset plus overrides).' }) options: object;
  @Field(() => Int) seatCount: number;
  @Field(() => VisibilityEnum) visibility: string;
  @Field(() => ID) creatorId: string;
  @Field({ description: 'SHA-256 (hex) of the server seed.' }) commitment: string;
  @Field(() => String, { nullable: true, description: 'Legacy: set at creation by games created before 0014.' })
  organizerSeed: string | null;
  @Field(() => Int, { nullable: true }) turnTimeLimitSeconds: number | null;
  @Field(() => ComputerLevelEnum, {
    nullable: true,
    description: "The level of the game's timeouts and auto-scores when the creator named one; null: standard.",
  })
  computerLevel?: string | null;
  @Field(() => TournamentRef, { nullable: true, description: 'Games a tournament created; null otherwise.' })
  tournament?: TournamentRef | null;
  @Field(() => AdviceSettingEnum, {
    nullable: true,
    description: 'Advice in this game; null in games created before the option (they allow it).',
  })
  advice: string | null;
  @Field(() => ID, { nullable: true, description: 'The finished game this one is a rematch of; null when none.' })
  rematchOf: string | null;
  @Field(() => Boolean, {
    nullable: true,
    description: 'true on a rated game (docs/ratings.md); null on every other game.',
  })
  rated: boolean | null;
}

@ObjectType(event('seatTaken: a player (or the creator, for a hot seat) took `seat`.'))
export class SeatTakenEvent extends GameEvent {
  @Field(() => ID) playerId: string;
  @Field(() => String, { nullable: true, description: "The seat's client seed, when given with the join." })
  clientSeed: string | null;
  @Field() hotSeat: boolean;
  @Field(() => String, { nullable: true, description: "A hot seat's own name, given at creation; null: none." })
  name: string | null;
}

@ObjectType(event('computerSeated: at creation, the service took `seat` to play it at `level`.'))
export class ComputerSeatedEvent extends GameEvent {
  @Field(() => ComputerLevelEnum) level: string;
}

@ObjectType(event('seatLeft: the player gave up `seat` before the start.'))
export class SeatLeftEvent extends GameEvent {
  @Field(() => ID) playerId: string;
}

@ObjectType(event("seedSet: a seat's client seed, or (organizer: true, seat null) the organizer seed, was set."))
export class SeedSetEvent extends GameEvent {
  @Field(() => ID) playerId: string;
  @Field(() => String, { nullable: true, description: 'The seed (never null for this event type).' })
  clientSeed: string | null;
  @Field({ description: 'True: the organizer seed (seat is null).' }) organizer: boolean;
}

@ObjectType(event('gameStarted: the seeds are fixed; play begins.'))
export class GameStartedEvent extends GameEvent {
  @Field(() => [String], { description: "Each seat's client seed, in seat order." }) clientSeeds: string[];
  @Field(() => [Boolean], {
    nullable: true,
    description: 'Per seat: the service generated the seed (nobody gave one). Null in games started before 0014.',
  })
  clientSeedsGenerated: boolean[] | null;
}

@ObjectType(event('gameAbandoned: cancelled or expired before the start, or given up for inactivity.'))
export class GameAbandonedEvent extends GameEvent {
  @Field(() => EventReasonEnum, { nullable: true, description: 'expired, inactive or cancelled.' })
  reason: string | null;
}

@ObjectType(event('gameFinished: the game is over; standings by rank.'))
export class GameFinishedEvent extends GameEvent {
  @Field(() => [SeatStandingView]) standings: SeatStandingView[];
}

// ------------------------------------------------------------------ family moves

const moveReason = () =>
  Field(() => EventReasonEnum, {
    nullable: true,
    description:
      'Set when the server made this move: timeout (the turn ran out of time), computer (a computer seat), autoScore (not scored within autoScoreAfterMs of the last roll); null: a player did.',
  });

@ObjectType(event('Five dice, rolled: all five dice after the roll.'))
export class FiveDiceRolledEvent extends GameEvent {
  @Field(() => [Int]) dice: number[];
  @Field(() => [Int], { description: 'Indices kept from the previous roll (empty on the first).' }) held: number[];
  @Field(() => Int, { description: '1, 2 or 3.' }) rollInTurn: number;
  @moveReason() reason: string | null;
}

@ObjectType(event('Five dice, scored: the dice entered in a box.'))
export class FiveDiceScoredEvent extends GameEvent {
  @Field(() => BoxIdEnum) box: string;
  @Field(() => Int) points: number;
  @Field(() => Int, { description: 'Extra five-of-a-kind bonus earned by this roll.' }) bonus: number;
  @moveReason() reason: string | null;
}

@ObjectType(event('Five dice, quit: the seat left the game on its turn.'))
export class FiveDiceQuitEvent extends GameEvent {
  @moveReason() reason: string | null;
}

@ObjectType(event('Five dice, finished: every sheet is full (gameFinished follows).'))
export class FiveDiceFinishedEvent extends GameEvent {
  @Field(() => [SeatStandingView]) standings: SeatStandingView[];
  @moveReason() reason: string | null;
}

@ObjectType(event('Farkle, rollOff: one round of the who-starts roll-off; dice[i] is the die of seats[i].'))
export class FarkleRollOffEvent extends GameEvent {
  @Field(() => Int) round: number;
  @Field(() => [Int]) seats: number[];
  @Field(() => [Int]) dice: number[];
}

@ObjectType(event("Farkle, turnStarted: `seat`'s turn begins."))
export class FarkleTurnStartedEvent extends GameEvent {
  @moveReason() reason: string | null;
}

@ObjectType(event('Farkle, rolled: the faces of the dice thrown.'))
export class FarkleRolledEvent extends GameEvent {
  @Field(() => [Int]) dice: number[];
  @moveReason() reason: string | null;
}

@ObjectType(event('Farkle, setAside: scoring dice set aside from the current roll.'))
export class FarkleSetAsideEvent extends GameEvent {
  @Field(() => [Int], { description: 'Indices into the current roll, ascending.' }) dice: number[];
  @Field(() => [Int]) faces: number[];
  @Field(() => Int) points: number;
  @Field(() => Int, { description: 'Turn points after this set-aside.' }) turnPoints: number;
  @Field({ description: 'Every die is set aside: the next roll throws six fresh dice.' }) hotDice: boolean;
  @moveReason() reason: string | null;
}

@ObjectType(event("Farkle, farkled: the roll scored nothing; the turn's points are lost."))
export class FarkleFarkledEvent extends GameEvent {
  @Field(() => Int) lost: number;
  @Field(() => Int, { description: 'Consecutive farkles of this seat, this one included.' }) streak: number;
  @moveReason() reason: string | null;
}

@ObjectType(event('Farkle, penalty: the three-farkle penalty actually deducted.'))
export class FarklePenaltyEvent extends GameEvent {
  @Field(() => Int) points: number;
  @Field(() => Int) total: number;
  @moveReason() reason: string | null;
}

@ObjectType(event("Farkle, banked: the turn's points added to the total."))
export class FarkleBankedEvent extends GameEvent {
  @Field(() => Int) points: number;
  @Field(() => Int) total: number;
  @moveReason() reason: string | null;
}

@ObjectType(event("Farkle, busted: the bank would overshoot an exact target; the turn's points are lost."))
export class FarkleBustedEvent extends GameEvent {
  @Field(() => Int) lost: number;
  @moveReason() reason: string | null;
}

@ObjectType(event('Farkle, passed: the turn ended without banking (a timed-out turn); its points are lost.'))
export class FarklePassedEvent extends GameEvent {
  @Field(() => Int) lost: number;
  @moveReason() reason: string | null;
}

@ObjectType(event('Farkle, lastRound: `seat` reached the target; `seats` still play one turn, in order.'))
export class FarkleLastRoundEvent extends GameEvent {
  @Field(() => [Int]) seats: number[];
  @moveReason() reason: string | null;
}

@ObjectType(event('Farkle, quit: the seat left the game on its turn.'))
export class FarkleQuitEvent extends GameEvent {
  @Field(() => Int, { description: 'Turn points given up.' }) lost: number;
  @moveReason() reason: string | null;
}

@ObjectType(
  event(
    'Farkle, finished: target (the last round is over) or quit (too few players left); timeout when a timed-out turn ended the game.',
  ),
)
export class FarkleFinishedEvent extends GameEvent {
  @Field(() => EventReasonEnum, { nullable: true }) reason: string | null;
}

/** The object type of each event type: lifecycle first, then per family. */
const LIFECYCLE_TYPES: Record<string, string> = {
  gameCreated: GameCreatedEvent.name,
  seatTaken: SeatTakenEvent.name,
  computerSeated: ComputerSeatedEvent.name,
  seatLeft: SeatLeftEvent.name,
  seedSet: SeedSetEvent.name,
  gameStarted: GameStartedEvent.name,
  gameAbandoned: GameAbandonedEvent.name,
  gameFinished: GameFinishedEvent.name,
};
const FAMILY_TYPES: Record<FamilyId, Record<string, string>> = {
  'five-dice': {
    rolled: FiveDiceRolledEvent.name,
    scored: FiveDiceScoredEvent.name,
    quit: FiveDiceQuitEvent.name,
    finished: FiveDiceFinishedEvent.name,
  },
  farkle: {
    rollOff: FarkleRollOffEvent.name,
    turnStarted: FarkleTurnStartedEvent.name,
    rolled: FarkleRolledEvent.name,
    setAside: FarkleSetAsideEvent.name,
    farkled: FarkleFarkledEvent.name,
    penalty: FarklePenaltyEvent.name,
    banked: FarkleBankedEvent.name,
    busted: FarkleBustedEvent.name,
    passed: FarklePassedEvent.name,
    lastRound: FarkleLastRoundEvent.name,
    quit: FarkleQuitEvent.name,
    finished: FarkleFinishedEvent.name,
  },
};

/** The GraphQL object type name of an event of a game of `family`. */
export function eventTypeName(type: string, family: FamilyId): string {
  const name = isLifecycleEvent(type) ? LIFECYCLE_TYPES[type] : FAMILY_TYPES[family]?.[type];
  // Unreachable for stored events (the rules emit only these types); fail loudly, never guess.
  if (name === undefined) throw new Error(`no GraphQL type for ${family} event ${type}`);
  return name;
}

/** An event as GraphQL resolves it: the envelope, the payload's members, and its object type. */
export type TypedGameEvent = GameEventView & Record<string, unknown> & { __typename: string };

/** Flattens the payload onto the envelope (the envelope wins) and names the object type. */
export function toTypedEvent(view: GameEventView, family: FamilyId): TypedGameEvent {
  const data = view.data;
  const derived: Record<string, unknown> = {};
  if (view.type === 'seedSet') derived.organizer = data.seat === null || data.seat === undefined;
  if (view.type === 'gameStarted') derived.clientSeedsGenerated = data.clientSeedsGenerated ?? null;
  const typed: TypedGameEvent = { ...data, ...derived, ...view, __typename: eventTypeName(view.type, family) };
  // Computed only when selected (getters), so a query that does not ask pays nothing for them.
  Object.defineProperties(typed, {
    dataJson: { enumerable: true, get: () => canonicalJson(view.data) },
    commandJson: { enumerable: true, get: () => (view.command == null ? null : canonicalJson(view.command)) },
    issuedCommand: { enumerable: true, get: () => toTypedCommand(view.command ?? null, family) },
  });
  return typed;
}
