/** Adding a hook to one route at registration (onRoute), after any it already has. */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';

/** A callback preSerialization hook (no promise per answer). */
export type PreSerializationHook = (
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (e: null, p: unknown) => void,
) => void;

/** Appends `hook` to the route's preSerialization hooks. */
export function addPreSerialization(route: RouteOptions, hook: PreSerializationHook): void {
  const existing = route.preSerialization;
  route.preSerialization =
    existing === undefined ? [hook] : [...(Array.isArray(existing) ? existing : [existing]), hook];
}
