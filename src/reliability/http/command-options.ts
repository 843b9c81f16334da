import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseIdempotencyKey } from '../idempotency/idempotency-key';
import { parseEntityTags } from './etag';
import { prefersMinimal } from './prefer';

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
