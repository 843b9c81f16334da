import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';

export class AuditQuery {
  @ApiPropertyOptional({
    enum: ['0', '1', 'true', 'false'],
    description: '1: answer as a file download (Content-Disposition: attachment; filename="fairdice-<id>.json")',
  })
  @IsOptional()
  @IsIn(['0', '1', 'true', 'false'])
  download?: string;
}

/** OpenAPI description of the bundle (docs/fairness.md §5); the body is the bundle itself. */
export const AUDIT_BUNDLE_SCHEMA = {
  type: 'object',
  description:
    'Audit bundle, format "fairdice-audit" version 1 (docs/fairness.md §5). Verify offline with `npx fairdice verify <file-or-url>`.',
  required: [
    'format',
    'formatVersion',
    'algorithms',
    'gameId',
    'status',
    'ruleSet',
    'commitment',
    'players',
    'serverSeed',
    'rollCount',
    'events',
    'chainHead',
  ],
  properties: {
    format: { type: 'string', const: 'fairdice-audit' },
    formatVersion: { type: 'integer', const: 1 },
    algorithms: { type: 'object', additionalProperties: { type: 'string' } },
    gameId: { type: 'string', format: 'uuid' },
    status: { type: 'string', enum: ['open', 'playing', 'finished', 'abandoned'] },
    ruleSet: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        family: { type: 'string' },
        version: { type: 'string' },
        options: { type: 'object' },
      },
    },
    createdAt: { type: 'string', format: 'date-time' },
    endedAt: { type: ['string', 'null'], format: 'date-time' },
    commitment: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    organizerSeed: { type: ['string', 'null'] },
    players: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          seat: { type: 'integer' },
          playerId: { type: 'string' },
          displayName: { type: ['string', 'null'] },
          hotSeat: { type: 'boolean' },
          clientSeed: { type: 'string' },
          clientSeedGenerated: { type: ['boolean', 'null'] },
        },
      },
    },
    clientSeeds: { type: ['array', 'null'], items: { type: 'string' } },
    serverSeed: {
      type: ['string', 'null'],
      pattern: '^[0-9a-f]{64}$',
      description: 'null until the game has ended (finished or abandoned)',
    },
    rollCount: { type: 'integer' },
    events: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          gameId: { type: 'string' },
          version: { type: 'integer' },
          type: { type: 'string' },
          seat: { type: ['integer', 'null'] },
          data: { type: 'object' },
          rollNumber: { type: ['integer', 'null'] },
          command: { type: ['object', 'null'] },
          prevHash: { type: 'string' },
          hash: { type: 'string' },
        },
      },
    },
    chainHead: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    finalStandings: { type: ['array', 'null'], items: { type: 'object' } },
    generatedAt: { type: 'string', format: 'date-time' },
    transparencyLog: {
      type: ['object', 'null'],
      description:
        "The game's leaves in the transparency log with RFC 9162 inclusion proofs against a signed tree head (docs/fairness.md §9.4). Verify the signature with the log's public key: `fairdice verify --log-key <hex>`.",
      properties: {
        treeHead: {
          type: 'object',
          properties: {
            treeSize: { type: 'integer' },
            timestamp: { type: 'integer', description: 'ms since the Unix epoch' },
            rootHash: { type: 'string', pattern: '^[0-9a-f]{64}$' },
            signature: { type: 'string', pattern: '^[0-9a-f]{128}$' },
            logId: { type: 'string', pattern: '^[0-9a-f]{64}$' },
          },
        },
        entries: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              leafIndex: { type: 'integer' },
              leaf: { type: 'string', description: '62-byte leaf, hex' },
              inclusionProof: { type: 'array', items: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
            },
          },
        },
      },
    },
  },
};
