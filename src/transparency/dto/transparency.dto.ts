/**
 * Transparency log views (docs/fairness.md §9): ONE shape for REST (OpenAPI) and GraphQL.
 * Sizes and indexes are Int (a log beyond 2^31 leaves is out of scope); timestamps are
 * milliseconds since the Unix epoch (Float: they exceed 2^31).
 */
import { Field, Float, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { QueryInteger } from '../../common/dto/query-integer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { registerEnumType } from '@nestjs/graphql';
import { enumOf } from '../../common/graphql/enums';

export const SignatureAlgorithmEnum = enumOf(['ed25519'] as const);
export const LogEntryKindEnum = enumOf(['created', 'ended'] as const);
registerEnumType(SignatureAlgorithmEnum, {
  name: 'SignatureAlgorithm',
  description: 'The signature scheme of tree heads.',
});
registerEnumType(LogEntryKindEnum, {
  name: 'LogEntryKind',
  description: "created: the game's commitment; ended: its final chain head (docs/fairness.md §9.1).",
});

@ObjectType({ description: 'A signed tree head of the transparency log (docs/fairness.md §9).' })
export class TreeHeadView {
  @Field(() => Int) @ApiProperty({ description: 'Number of leaves.' }) treeSize: number;
  @Field(() => Float)
  @ApiProperty({ description: 'When it was signed: milliseconds since the Unix epoch.' })
  timestamp: number;
  @Field() @ApiProperty({ pattern: '^[0-9a-f]{64}$', description: 'RFC 9162 Merkle tree hash.' }) rootHash: string;
  @Field()
  @ApiProperty({ pattern: '^[0-9a-f]{128}$', description: 'Ed25519 over the encoded head (docs/fairness.md §9.3).' })
  signature: string;
  @Field(() => SignatureAlgorithmEnum) @ApiProperty({ enum: ['ed25519'] }) signatureAlgorithm: string;
  @Field()
  @ApiProperty({
    pattern: '^[0-9a-f]{64}$',
    description: "The log's Ed25519 public key (check it against one you obtained independently).",
  })
  publicKey: string;
  @Field() @ApiProperty({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the public key.' }) logId: string;
}

@ObjectType({ description: 'One leaf of the log with its inclusion proof.' })
export class LogEntryProofView {
  @Field(() => LogEntryKindEnum) @ApiProperty({ enum: ['created', 'ended'] }) kind: string;
  @Field(() => Int) @ApiProperty() leafIndex: number;
  @Field() @ApiProperty({ description: 'The 62-byte leaf, hex (docs/fairness.md §9.1).' }) leaf: string;
  @Field() @ApiProperty({ description: 'SHA-256(0x00 || leaf), hex.' }) leafHash: string;
  @Field(() => Float) @ApiProperty({ description: 'From the leaf: ms since the Unix epoch.' }) timestamp: number;
  @Field(() => Int)
  @ApiProperty({ description: 'From the leaf: 0 (commitment) or the final version.' })
  eventVersion: number;
  @Field() @ApiProperty({ description: 'From the leaf: the commitment or the final chain head.' }) value: string;
  @Field(() => [String])
  @ApiProperty({ type: [String], description: 'RFC 9162 §2.1.3 inclusion proof in the tree of treeHead.treeSize.' })
  inclusionProof: string[];
}

@ObjectType({ description: "A game's leaves in the log, proved against a signed tree head." })
export class GameLogProofView {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) gameId: string;
  @Field(() => TreeHeadView) @ApiProperty({ type: TreeHeadView }) treeHead: TreeHeadView;
  @Field(() => [LogEntryProofView]) @ApiProperty({ type: [LogEntryProofView] }) entries: LogEntryProofView[];
}

@ObjectType({ description: 'RFC 9162 §2.1.4 consistency proof: the first tree is a prefix of the second.' })
export class ConsistencyProofView {
  @Field(() => Int) @ApiProperty() firstSize: number;
  @Field(() => Int) @ApiProperty() secondSize: number;
  @Field() @ApiProperty() firstRootHash: string;
  @Field() @ApiProperty() secondRootHash: string;
  @Field(() => [String]) @ApiProperty({ type: [String] }) proof: string[];
}

export class ConsistencyQuery {
  @ApiProperty({
    minimum: 0,
    description: 'The older tree size (e.g. of a head you archived); 1 <= first <= second, else LOG_SIZE_OUT_OF_RANGE.',
  })
  @QueryInteger()
  @IsInt()
  @Min(0)
  @Max(2_147_483_647)
  first: number;

  @ApiProperty({ minimum: 0, description: 'The newer tree size (at most the latest signed size).' })
  @QueryInteger()
  @IsInt()
  @Min(0)
  @Max(2_147_483_647)
  second: number;
}

export class GameLogProofQuery {
  @ApiPropertyOptional({
    minimum: 0,
    description: 'Prove against the head signed at this size (default: the latest head).',
  })
  @IsOptional()
  @QueryInteger()
  @IsInt()
  @Min(0)
  @Max(2_147_483_647)
  treeSize?: number;
}
