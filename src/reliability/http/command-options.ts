import { CallHandler, createParamDecorator, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { map, Observable } from 'rxjs';
import { parseIdempotencyKey } from '../idempotency/idempotency-key';
import { etagOf, parseEntityTags } from './etag';
import { PREFERENCE_APPLIED_HEADER, prefersMinimal } from './prefer';
import { COMMAND_EVENTS_MEDIA_TYPE } from '../../common/http/command-events';

/** Header a replayed response carries (the stored outcome of an earlier request with the same key). */
export const REPLAYED_HEADER = 'idempotent-replayed';

/**
 * The command options of a REST request: Idempotency-Key and If-Match, both validated before
 * any query (400 VALIDATION_FAILED), a hook that marks replayed responses, and `compact` for
 * `Prefer: return=minimal` (prefer.ts; the answer then varies with Prefer).
 */
export const RestCommandOptions = createParamDecorator((_data: unknown, context: ExecutionContext) => {
  const http = context.switchToHttp();
  const request = http.getRequest<FastifyRequest>();
  const reply = http.getResponse<FastifyReply>();
  addVary(reply, 'Prefer');
  return {
    idempotencyKey: parseIdempotencyKey(request.headers['idempotency-key']),
    ifMatch: parseEntityTags(request.headers['if-match'], 'If-Match'),
    onReplay: () => reply.header(REPLAYED_HEADER, 'true'),
    compact: prefersMinimal(request.headers.prefer),
  };
});

/**
 * Sets ETag: "<version>" on every response that is a game (an object with id and version), or a
 * command's compact answer (gameId, version and events; it also gets Preference-Applied).
 */
@Injectable()
export class GameETagInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    return next.handle().pipe(
      map((body) => {
        const b = body as { version?: unknown; id?: unknown; gameId?: unknown; events?: unknown } | null;
        const version = b?.version;
        if (typeof version !== 'number') return body;
        const compact = typeof b!.gameId === 'string' && Array.isArray(b!.events) && b!.id === undefined;
        if (compact) reply.header(PREFERENCE_APPLIED_HEADER, 'return=minimal').type(COMMAND_EVENTS_MEDIA_TYPE);
        if ((compact || typeof b!.id === 'string') && !reply.hasHeader('etag')) reply.header('etag', etagOf(version));
        return body;
      }),
    );
  }
}

/** Adds `field` to the Vary header, keeping what is there (CORS adds Origin before any handler). */
function addVary(reply: FastifyReply, field: string): void {
  const current = reply.getHeader('vary');
  const list = (Array.isArray(current) ? current.join(',') : String(current ?? ''))
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  if (list.includes('*') || list.some((v) => v.toLowerCase() === field.toLowerCase())) return;
  reply.header('vary', [...list, field].join(', '));
}
