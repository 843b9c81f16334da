import {
  applyDecorators,
  CanActivate,
  ExecutionContext,
  Injectable,
  SetMetadata,
  createParamDecorator,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { GqlExecutionContext, type GqlContextType } from '@nestjs/graphql';
import { DomainException } from '../common/errors';
import { ApiOptionalAuth } from '../common/openapi/decorators';
import { PlayersService } from './players.service';
import { AuthenticatedPlayer } from './players.types';
import { bearerToken } from '../common/http/bearer-token';

const OPTIONAL_AUTH = 'fairdice:optional-auth';
/**
 * The route works without a token too (public reads); a token, when given, must be valid.
 * OpenAPI: security [{}, {bearer: []}].
 */
export const OptionalAuth = () => applyDecorators(SetMetadata(OPTIONAL_AUTH, true), ApiOptionalAuth());

/** Where the caller is kept: the Fastify request (REST, GraphQL over HTTP) or the subscription context. */
type Carrier = {
  player?: AuthenticatedPlayer | null;
  headers?: Record<string, unknown>;
  connectionParams?: Record<string, unknown>;
};

function carrierOf(context: ExecutionContext): Carrier {
  if (context.getType<GqlContextType>() === 'graphql') {
    const gql = GqlExecutionContext.create(context).getContext();
    // HTTP: { req }; graphql-ws: the context built from connectionParams (see app.module).
    return (gql.req ?? gql) as Carrier;
  }
  return context.switchToHttp().getRequest<Carrier>();
}

function authorizationOf(carrier: Carrier): unknown {
  const fromHeaders = carrier.headers?.authorization;
  if (fromHeaders) return fromHeaders;
  const params = carrier.connectionParams ?? {};
  return (
    params.authorization ??
    params.Authorization ??
    (typeof params.token === 'string' && params.token ? `Bearer ${params.token}` : undefined)
  );
}

/**
 * Authenticates the bearer token on REST and GraphQL alike and attaches the player. The player
 * is always taken from the token, never from the request body.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly players: PlayersService,
    private readonly reflector: Reflector,
  ) {}

  /** Whether a route is OptionalAuth, by class and handler: read from the metadata once, not per request. */
  private readonly optionalByRoute = new WeakMap<object, WeakMap<object, boolean>>();

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const carrier = carrierOf(context);
    const handler = context.getHandler();
    const type = context.getClass();
    let byHandler = this.optionalByRoute.get(type);
    if (!byHandler) this.optionalByRoute.set(type, (byHandler = new WeakMap()));
    let optional = byHandler.get(handler);
    if (optional === undefined) {
      optional = this.reflector.getAllAndOverride<boolean>(OPTIONAL_AUTH, [handler, type]) ?? false;
      byHandler.set(handler, optional);
    }
    const header = authorizationOf(carrier);
    if (header === undefined || header === null || header === '') {
      if (optional) {
        carrier.player = null;
        return true;
      }
      throw new DomainException('UNAUTHENTICATED', 'Send your token as "Authorization: Bearer <token>"');
    }
    const token = bearerToken(header);
    const player = token ? await this.players.authenticate(token) : null;
    if (!player)
      throw new DomainException('UNAUTHENTICATED', 'The bearer token is not valid (rotated or never issued)');
    carrier.player = player;
    return true;
  }
}

/** The authenticated player (or null on an OptionalAuth route without a token). */
export const CurrentPlayer = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AuthenticatedPlayer | null => {
    return carrierOf(context).player ?? null;
  },
);

/**
 * The bearer token the caller authenticated with (REST header or graphql-ws connectionParams), or
 * null: for long-lived streams that re-check it (a rotated token ends them).
 */
export const CurrentToken = createParamDecorator((_data: unknown, context: ExecutionContext): string | null => {
  const header = authorizationOf(carrierOf(context));
  return header ? bearerToken(header) : null;
});
