import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { DomainException } from './domain.exception';

const flatten = (errors: ValidationError[], parent = ''): Array<{ field: string; problems: string[] }> =>
  errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const own = e.constraints ? [{ field, problems: Object.values(e.constraints) }] : [];
    return [...own, ...flatten(e.children ?? [], field)];
  });

/**
 * A body declared as a DTO class must be a JSON object (or absent, for DTOs whose fields are all
 * optional). ValidationPipe lets `null` through unvalidated: `null` for a roll would roll.
 */
class StrictValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const isDto = typeof metadata.metatype === 'function' && metadata.metatype !== Object;
    if (
      metadata.type === 'body' &&
      isDto &&
      value !== undefined &&
      (typeof value !== 'object' || value === null || Array.isArray(value))
    ) {
      const problem = 'the body must be a JSON object';
      throw new DomainException('VALIDATION_FAILED', problem, { errors: [{ field: '(body)', problems: [problem] }] });
    }
    return super.transform(value, metadata);
  }
}

/**
 * Validates every DTO and input: unknown fields are rejected (400 VALIDATION_FAILED, listing
 * them), values are converted to their declared types only when the decorators say so.
 */
export const strictValidationPipe = () =>
  new StrictValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => {
      const list = flatten(errors);
      const detail = list.map((e) => `${e.field}: ${e.problems.join(', ')}`).join('; ');
      return new DomainException('VALIDATION_FAILED', detail || 'The request is not valid', { errors: list });
    },
  });
