import { type ValidationError, ValidationPipe } from '@nestjs/common';
import { DomainException } from './domain.exception';

const flatten = (errors: ValidationError[], parent = ''): Array<{ field: string; problems: string[] }> =>
  errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    // A missing required field is one problem ("is required"), not also every check of its value.
    const problems = e.constraints?.isDefined ? [e.constraints.isDefined] : Object.values(e.constraints ?? {});
    const own = e.constraints ? [{ field, problems }] : [];
    return [...own, ...flatten(e.children ?? [], field)];
  });

/**
 * Validates every DTO and input: unknown fields are rejected (400 VALIDATION_FAILED, listing
 * them), values are converted to their declared types only when the decorators say so.
 */
export const strictValidationPipe = () =>
  new ValidationPipe({
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
