import type { RuleError } from '@fairdice/core/rules/core/errors';
import type { ErrorCode } from './error-codes';

/** The one exception type application services throw; mapped to problem+json and GraphQL errors. */
export class DomainException extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    /** Extra response headers (e.g. Retry-After). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'DomainException';
  }

  static fromRule(error: RuleError): DomainException {
    return new DomainException(error.code, error.message, error.details);
  }
}
