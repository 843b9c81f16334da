/**
 * A stored event as REST gives it (its own module: game-event.types.ts flattens it for GraphQL,
 * and game-view.model.ts, which game-event.types.ts would otherwise import, pages it).
 */
import { ApiProperty } from '@nestjs/swagger';

/** A stored event with its place in the hash chain (REST; GraphQL has GameEvent and its types). */
export class GameEventView {
  @ApiProperty({ format: 'uuid' }) gameId: string;
  @ApiProperty() version: number;
  @ApiProperty() type: string;
  @ApiProperty({ type: Number, nullable: true }) seat: number | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) data: Record<string, unknown>;
  @ApiProperty({ type: Number, nullable: true }) rollNumber: number | null;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true })
  command: Record<string, unknown> | null;
  @ApiProperty() prevHash: string;
  @ApiProperty() hash: string;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt: Date;
}
