/**
 * The audit bundle (docs/fairness.md §5) typed for GraphQL: the same members as the JSON document
 * of GET /v1/games/{id}/audit, with events as GameEvent types. A verifier rebuilds the document
 * from these fields: `data` and `command` of each event are verbatim (the hashes cover them).
 */
import { Field, Float, GraphQLISODateTime, ID, Int, ObjectType } from '@nestjs/graphql';
import type { AuditBundle } from '@fairdice/core/fairness/audit-bundle';
import type { FamilyId } from '@fairdice/core/rules/core/family';
import { GameFamilyEnum, GameStatusEnum, RuleSetNameEnum } from '../../common/graphql/enums';
import { GameOptions } from '../../common/graphql/game-options';
import { GameEvent, toTypedEvent, type TypedGameEvent } from '../../games/dto/game-event.types';

@ObjectType({ description: 'The algorithms a verifier applies (docs/fairness.md §3-4).' })
export class AuditAlgorithms {
  @Field() commitment: string;
  @Field() roll: string;
  @Field() eventHash: string;
}

@ObjectType({ description: 'The rule set the game was played with, and the rules version.' })
export class AuditRuleSet {
  @Field(() => RuleSetNameEnum) name: string;
  @Field(() => GameFamilyEnum) family: string;
  @Field({ description: 'Version of the rules the events follow.' }) version: string;
  @Field(() => GameOptions) options: object;
}

@ObjectType({ description: 'A seat taken in the audit bundle: a player, or (format 3) a computer seat.' })
export class AuditPlayer {
  @Field(() => Int) seat: number;
  @Field(() => ID, { nullable: true, description: 'Null: a computer seat (format 3), played by the service.' })
  playerId: string | null;
  @Field(() => String, { nullable: true }) displayName: string | null;
  @Field() hotSeat: boolean;
  @Field(() => String, { nullable: true, description: 'Null only before the start when nobody set it.' })
  clientSeed: string | null;
  @Field(() => Boolean, {
    nullable: true,
    description: 'The service generated the seed at the start; null before the start and in format 1 bundles.',
  })
  clientSeedGenerated: boolean | null;
}

@ObjectType({ description: 'A final standing in the audit bundle.' })
export class AuditStanding {
  @Field(() => Int) rank: number;
  @Field(() => Int) seat: number;
  @Field(() => ID, { nullable: true }) playerId: string | null;
  @Field(() => Int) score: number;
  @Field() quit: boolean;
}

@ObjectType({ description: 'The signed tree head the entries are proved against.' })
export class AuditTreeHead {
  @Field(() => Int) treeSize: number;
  @Field(() => Float, { description: 'Milliseconds since the Unix epoch (beyond Int).' }) timestamp: number;
  @Field() rootHash: string;
  @Field() signature: string;
  @Field() logId: string;
}

@ObjectType({ description: "One of the game's leaves with its inclusion proof." })
export class AuditLogEntry {
  @Field(() => Int) leafIndex: number;
  @Field() leaf: string;
  @Field(() => [String]) inclusionProof: string[];
}

@ObjectType({ description: "The game's leaves in the transparency log (docs/fairness.md §9.4)." })
export class AuditTransparencyLog {
  @Field(() => AuditTreeHead) treeHead: AuditTreeHead;
  @Field(() => [AuditLogEntry]) entries: AuditLogEntry[];
}

@ObjectType({ description: "A game's audit bundle (docs/fairness.md §5), typed; the same members as the JSON." })
export class AuditBundleView {
  @Field({ description: 'Always fairdice-audit.' }) format: string;
  @Field(() => Int) formatVersion: number;
  @Field(() => AuditAlgorithms) algorithms: AuditAlgorithms;
  @Field(() => ID) gameId: string;
  @Field(() => GameStatusEnum) status: string;
  @Field(() => AuditRuleSet) ruleSet: AuditRuleSet;
  @Field(() => GraphQLISODateTime) createdAt: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) endedAt: Date | null;
  @Field() commitment: string;
  @Field(() => String, { nullable: true }) organizerSeed: string | null;
  @Field(() => [AuditPlayer]) players: AuditPlayer[];
  @Field(() => [String], {
    nullable: true,
    description: 'Derivation order (organizer seed, then each seat by number); null before the start.',
  })
  clientSeeds: string[] | null;
  @Field(() => String, { nullable: true, description: '64 hex digits once the game has ended.' })
  serverSeed: string | null;
  @Field(() => Int) rollCount: number;
  @Field(() => [GameEvent]) events: TypedGameEvent[];
  @Field() chainHead: string;
  @Field(() => [AuditStanding], { nullable: true }) finalStandings: AuditStanding[] | null;
  @Field(() => GraphQLISODateTime) generatedAt: Date;
  @Field(() => AuditTransparencyLog, { nullable: true }) transparencyLog: AuditTransparencyLog | null;
}

const date = (iso: string | null): Date | null => (iso === null ? null : new Date(iso));

/** The bundle as GraphQL resolves it; `createdAt` of each event comes from the store (not in the bundle). */
export function toAuditBundleView(bundle: AuditBundle, eventTimes: ReadonlyMap<number, Date>): AuditBundleView {
  const family = bundle.ruleSet.family as FamilyId;
  return {
    ...bundle,
    createdAt: new Date(bundle.createdAt),
    endedAt: date(bundle.endedAt),
    generatedAt: new Date(bundle.generatedAt),
    events: bundle.events.map((e) =>
      toTypedEvent(
        {
          gameId: e.gameId,
          version: e.version,
          type: e.type,
          seat: e.seat,
          data: e.data,
          rollNumber: e.rollNumber,
          command: e.command as Record<string, unknown> | null,
          prevHash: e.prevHash,
          hash: e.hash,
          createdAt: eventTimes.get(e.version) as Date,
        },
        family,
      ),
    ),
    transparencyLog: bundle.transparencyLog ?? null,
  };
}
