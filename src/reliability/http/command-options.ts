import { CallHandler, createParamDecorator, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { map, Observable } from 'rxjs';
import { parseIdempotencyKey } from '../idempotency/idempotency-key';
import { etagOf, parseEntityTags } from './etag';

/** Header a replayed response carries (the stored outcome of an earlier request with the same key). */
export const REPLAYED_HEADER = 'idempotent-replayed';

/**
 * The command options of a REST request: Idempotency-Key and If-Match, both validated before
 * any query (400 VALIDATION_FAILED), and a hook that marks replayed responses.
 */
export const RestCommandOptions = createParamDecorator((_data: unknown, context: ExecutionContext) => {
  const http = context.switchToHttp();
  const request = http.getRequest<FastifyRequest>();
  const reply = http.getResponse<FastifyReply>();
  return {
    idempotencyKey: parseIdempotencyKey(request.headers['idempotency-key']),
    ifMatch: parseEntityTags(request.headers['if-match'], 'If-Match'),
    onReplay: () => reply.header(REPLAYED_HEADER, 'true'),
  };
});

/** Sets ETag: "<version>" on every response that is a game (an object with id and version). */
@Injectable()
export class GameETagInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    return next.handle().pipe(
      map((body) => {
        const version = (body as { version?: unknown } | null)?.version;
        if (
          typeof version === 'number' &&
          typeof (body as { id?: unknown }).id === 'string' &&
          !reply.hasHeader('etag')
        )
          reply.header('etag', etagOf(version));
        return body;
      }),
    );
  }
}
