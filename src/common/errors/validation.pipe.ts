import {
  type ArgumentMetadata,
  type ValidationError,
  ValidationPipe,
  type ValidationPipeOptions,
} from '@nestjs/common';
import { DomainException } from './domain.exception';

const flatten = (errors: ValidationError[], parent = ''): Array<{ field: string; problems: string[] }> =>
  errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    // A missing required field is one problem ("is required"), not also every check of its value.
    const problems = e.constraints?.isDefined ? [e.constraints.isDefined] : Object.values(e.constraints ?? {});
    const own = e.constraints ? [{ field, problems }] : [];
    return [...own, ...flatten(e.children ?? [], field)];
  });

const MEMOIZED = 'fairdice:memoized-validation';

/**
 * The input class's validated instances may be shared: a valid input seen before (the same JSON)
 * is answered from memory instead of by class-transformer and class-validator again, which cost
 * ≈ 6 % of the CPU of a move (decision 0154). For the move bodies only: small inputs that take
 * few distinct values (a box, a hold of five dice) and that nothing mutates (the shared instance
 * is frozen, so a handler that tried would fail loudly in every test).
 */
export const MemoizedValidation = (): ClassDecorator => (target) => {
  Reflect.defineMetadata(MEMOIZED, true, target);
};

/** Distinct valid inputs kept per class (oldest dropped first). */
export const MEMOIZED_INPUTS_PER_CLASS = 256;
/** Longer JSON is validated every time (never kept). */
const MAX_MEMOIZED_JSON = 256;

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** ValidationPipe, with the valid inputs of @MemoizedValidation classes kept by their JSON. */
export class MemoizingValidationPipe extends ValidationPipe {
  private readonly memo = new Map<unknown, Map<string, unknown>>();

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const type = metadata.metatype;
    if (
      type === undefined ||
      value === null ||
      typeof value !== 'object' ||
      Array.isArray(value) ||
      Reflect.getMetadata(MEMOIZED, type) !== true
    )
      return super.transform(value, metadata) as Promise<unknown>;
    const key = JSON.stringify(value);
    let known = this.memo.get(type);
    const hit = key.length <= MAX_MEMOIZED_JSON ? known?.get(key) : undefined;
    if (hit !== undefined) return hit;
    // A refusal throws here and is never kept.
    const validated = deepFreeze(await (super.transform(value, metadata) as Promise<unknown>));
    if (key.length > MAX_MEMOIZED_JSON) return validated;
    if (!known) this.memo.set(type, (known = new Map()));
    known.set(key, validated);
    if (known.size > MEMOIZED_INPUTS_PER_CLASS) known.delete(known.keys().next().value as string);
    return validated;
  }
}

/**
 * Validates every DTO and input: unknown fields are rejected (400 VALIDATION_FAILED, listing
 * them), values are converted to their declared types only when the decorators say so.
 */
export const STRICT_VALIDATION_OPTIONS: ValidationPipeOptions = {
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
};

/** The service's pipe: STRICT_VALIDATION_OPTIONS, keeping the valid inputs of @MemoizedValidation classes. */
export const strictValidationPipe = () => new MemoizingValidationPipe(STRICT_VALIDATION_OPTIONS);
