/**
 * ETag: "<version>" on every successful answer that is a game or a tournament (an object with an
 * id and a numeric version), or a command's compact answer (gameId, version and events: it also
 * gets Preference-Applied: return=minimal and its media type). Clients send it back in If-Match.
 *
 * A Fastify preSerialization hook on the routes of the controllers marked with `versionETags`,
 * rather than a Nest interceptor: an interceptor runs an rxjs pipeline on every request of its
 * controller, ≈ 6 % of the CPU of a cached game read (decision 0153).
 */
import type { Type } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import type { FastifyInstance, FastifyReply, RouteOptions } from 'fastify';
import { COMMAND_EVENTS_MEDIA_TYPE } from '../../common/http/command-events';
import { addPreSerialization, type PreSerializationHook } from '../../common/http/route-hooks';
import { etagOf } from './etag';
import { PREFERENCE_APPLIED_HEADER } from './prefer';

/** The Fastify route config flag `versionETags` puts on each route handler of a controller. */
const FLAG = 'versionETag';

/** Marks every route of `controller` (call it after all its routes are defined, moves included). */
export function versionETags(controller: Type<unknown>): void {
  const proto = controller.prototype as Record<string, unknown>;
  let marked = 0;
  for (const name of Object.getOwnPropertyNames(proto)) {
    const handler = name === 'constructor' ? undefined : proto[name];
    if (typeof handler !== 'function' || !Reflect.hasOwnMetadata(PATH_METADATA, handler)) continue;
    const config = (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) as object | undefined) ?? {};
    Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...config, [FLAG]: true }, handler);
    marked++;
  }
  if (marked === 0) throw new Error(`versionETags: ${controller.name} has no routes`);
}

/** Sets the ETag (and, for a compact answer, its media type and Preference-Applied) from `body`. */
function setVersionETag(reply: FastifyReply, body: unknown): void {
  if (reply.statusCode >= 300 || body === null || typeof body !== 'object') return;
  const b = body as { version?: unknown; id?: unknown; gameId?: unknown; events?: unknown };
  const version = b.version;
  if (typeof version !== 'number') return;
  const compact = typeof b.gameId === 'string' && Array.isArray(b.events) && b.id === undefined;
  // With the charset Fastify adds to a JSON type set before the answer is sent.
  if (compact)
    reply.header(PREFERENCE_APPLIED_HEADER, 'return=minimal').type(`${COMMAND_EVENTS_MEDIA_TYPE}; charset=utf-8`);
  if ((compact || typeof b.id === 'string') && !reply.hasHeader('etag')) reply.header('etag', etagOf(version));
}

/** Adds the hook to the marked routes; call before the routes are registered (app.init). */
export function registerVersionETags(fastify: FastifyInstance): void {
  const hook: PreSerializationHook = (_request, reply, payload, done) => {
    setVersionETag(reply, payload);
    done(null, payload);
  };
  fastify.addHook('onRoute', (route: RouteOptions) => {
    if ((route.config as Record<string, unknown> | undefined)?.[FLAG] === true) addPreSerialization(route, hook);
  });
}
