/**
 * Announcing deprecations on REST (docs/api.md *Versioning*): a deprecated operation, or a request
 * that uses a deprecated query parameter, is answered with
 *   Deprecation: @<Unix seconds of `since`>   (RFC 9745)
 *   Sunset: <HTTP-date of `sunset`>           (RFC 8594, when a removal date is set)
 *   Link: <docs/api.md#versioning>; rel="deprecation"
 * and the OpenAPI document marks it `deprecated: true` with those response headers.
 */
import {
  applyDecorators,
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  SetMetadata,
  UseInterceptors,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiExtension } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';
import { DEPRECATION_MARKER } from '../openapi/decorators';

export interface DeprecationInfo {
  /** When it was deprecated (ISO date, e.g. 2026-12-01). */
  since: string;
  /** When it may be removed (ISO date); at least one version later (docs/api.md). */
  sunset?: string;
  /** Only these query parameters are deprecated, not the operation. */
  params?: string[];
}

const DEPRECATION = 'fairdice:deprecation';
export const DEPRECATION_LINK =
  '<https://github.com/fairdice/fairdice/blob/main/docs/api.md#versioning>; rel="deprecation"';

/** The response headers that announce `info`. */
export function deprecationHeaders(info: DeprecationInfo): Record<string, string> {
  const since = Date.parse(`${info.since}T00:00:00Z`);
  if (Number.isNaN(since)) throw new Error(`deprecation date ${info.since} is not an ISO date`);
  const headers: Record<string, string> = { deprecation: `@${Math.floor(since / 1000)}`, link: DEPRECATION_LINK };
  if (info.sunset) {
    const sunset = Date.parse(`${info.sunset}T00:00:00Z`);
    if (Number.isNaN(sunset) || sunset <= since)
      throw new Error(`sunset ${info.sunset} must be an ISO date after since`);
    headers.sunset = new Date(sunset).toUTCString();
  }
  return headers;
}

@Injectable()
export class DeprecationInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const info = this.reflector.get<DeprecationInfo | undefined>(DEPRECATION, context.getHandler());
    if (info && context.getType() === 'http') {
      const http = context.switchToHttp();
      const query = (http.getRequest<FastifyRequest>().query ?? {}) as Record<string, unknown>;
      const applies = !info.params?.length || info.params.some((p) => query[p] !== undefined);
      // Set before the handler runs, so error responses carry them too.
      if (applies) http.getResponse<FastifyReply>().headers(deprecationHeaders(info));
    }
    return next.handle();
  }
}

/**
 * Marks a REST operation (or, with `params`, some of its query parameters) deprecated: the
 * headers above on every response that uses it, `deprecated: true` in OpenAPI.
 */
export const Deprecated = (info: DeprecationInfo) => {
  deprecationHeaders(info); // fail at start-up on a bad date, not on the first request
  return applyDecorators(
    SetMetadata(DEPRECATION, info),
    ApiExtension(DEPRECATION_MARKER, info),
    UseInterceptors(DeprecationInterceptor),
  );
};
