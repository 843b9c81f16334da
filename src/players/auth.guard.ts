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
import { FULL_TOKEN, insufficientScope, hasScope, SCOPE_METADATA, type RequiredScope } from './require-scope';

const OPTIONAL_AUTH = 'fairdice:optional-auth';
/**
 * The route works without a token too (public reads); a token, when given, must be valid.
 * OpenAPI: security [{}, {bearer: []}].
 */
export const OptionalAuth = () => applyDecorators(SetMetadata(OPTIONAL_AUTH, true), ApiOptionalAuth());

/** Whether a handler is an OptionalAuth one (its GraphQL description says "anonymous, or with a token"). */
export const isOptionalAuth = (handler: object): boolean => Reflect.getMetadata(OPTIONAL_AUTH, handler) === true;

const PUBLIC = 'fairdice:public';
/**
 * A public read that never looks at the caller (the transparency log's head, the VAPID key): the
 * guard lets every request through without reading its token, so it needs no scope.
 */
export const Public = () => SetMetadata(PUBLIC, true);

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

interface RouteAuth {
  public: boolean;
  optional: boolean;
  required: RequiredScope;
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

  /** What a route declares (Public, OptionalAuth, its scope), by class and handler: read from the metadata once, not per request. */
  private readonly byRoute = new WeakMap<object, WeakMap<object, RouteAuth>>();

  private routeAuth(handler: object, type: object): RouteAuth {
    let byHandler = this.byRoute.get(type);
    if (!byHandler) this.byRoute.set(type, (byHandler = new WeakMap()));
    let route = byHandler.get(handler);
    if (!route) {
      const targets = [handler, type] as Parameters<Reflector['getAllAndOverride']>[1];
      route = {
        public: this.reflector.getAllAndOverride<boolean>(PUBLIC, targets) ?? false,
        optional: this.reflector.getAllAndOverride<boolean>(OPTIONAL_AUTH, targets) ?? false,
        // Deny by default: a handler that declares no scope needs a full token.
        required: this.reflector.getAllAndOverride<RequiredScope>(SCOPE_METADATA, targets) ?? FULL_TOKEN,
      };
      byHandler.set(handler, route);
    }
    return route;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const carrier = carrierOf(context);
    const route = this.routeAuth(context.getHandler(), context.getClass());
    if (route.public) {
      carrier.player = null;
      return true;
    }
    const optional = route.optional;
    const header = authorizationOf(carrier);
    if (header === undefined || header === null || header === '') {
      if (optional) {
        carrier.player = null;
        return true;
      }
      throw new DomainException('UNAUTHENTICATED', 'Send your token as "Authorization: Bearer <token>"');
    }
    const token = bearerToken(header);
    // A request the rate limiter already authenticated is not hashed and looked up again.
    const player = token ? await this.players.authenticatedBy(carrier, token) : null;
    if (!player)
      throw new DomainException(
        'UNAUTHENTICATED',
        'The bearer token is not valid (rotated, revoked, expired or never issued)',
      );
    if (!hasScope(player.scopes, route.required)) throw insufficientScope(route.required);
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
