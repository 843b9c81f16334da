import { ApiPropertyOptional } from '@nestjs/swagger';
import { QueryInteger } from './query-integer';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { CURSOR_MAX_LENGTH } from '../pagination/cursor';

/** `?limit=` for REST lists: 1..100, default 20 (query strings are converted to numbers). */
export class LimitQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 20, description: 'Items per page.' })
  @IsOptional()
  @QueryInteger()
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;
}

/** `?limit=&cursor=` for REST lists paged by cursor (decision 0025). */
export class CursorQuery extends LimitQuery {
  @ApiPropertyOptional({
    maxLength: CURSOR_MAX_LENGTH,
    description:
      'Opaque: the `nextCursor` of the previous page (or the `Link: rel="next"` header). Omit for the first page. A cursor that is malformed or of another list is 400 INVALID_CURSOR.',
  })
  // Longer, empty or foreign cursors are INVALID_CURSOR from the list's service (as over GraphQL).
  @IsOptional()
  @IsString()
  cursor?: string;
}

/** `?limit=&cursor=` plus the deprecated `?offset=` of the lists that paged by offset. */
export class PageQuery extends CursorQuery {
  @ApiPropertyOptional({
    minimum: 0,
    default: 0,
    deprecated: true,
    description:
      'Deprecated: use `cursor`. Skips this many items; pages shift when items are added or leave the list meanwhile. Not together with `cursor`.',
  })
  @IsOptional()
  @QueryInteger()
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  offset?: number;
}
