import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GqlContextType } from '@nestjs/graphql';
import { normalizeError, toGraphQLError } from './problem';

/**
 * The one place errors leave the service. REST gets application/problem+json (RFC 9457);
 * GraphQL gets the same code in extensions.code. Unexpected errors are logged with their
 * stack and answered with a bare 500: no stack, SQL or internal message reaches a client.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost) {
    if (host.getType<GqlContextType>() === 'graphql') {
      const { graphqlError, normalized } = toGraphQLError(exception);
      this.logUnexpected(normalized.unexpected, exception);
      return graphqlError;
    }
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const { problem, headers, unexpected } = normalizeError(exception, request?.url?.split('?')[0]);
    this.logUnexpected(unexpected, exception, request?.id);
    if (request?.id) problem.requestId = String(request.id);
    if (reply.sent) return;
    reply.status(problem.status).headers(headers).type('application/problem+json').send(problem);
  }

  private logUnexpected(unexpected: boolean, exception: unknown, requestId?: string) {
    if (!unexpected) return;
    const error = exception as Error;
    this.logger.error({
      msg: 'unexpected error',
      requestId,
      err: { name: error?.name, message: error?.message, stack: error?.stack },
    });
  }
}
