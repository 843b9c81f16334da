import { DomainException } from '../errors';

/**
 * The body of a command without parameters: absent, or exactly `{}`. Anything else (a field,
 * `null`, an array, a string) is 400 VALIDATION_FAILED; a non-JSON content type never gets here
 * (415 UNSUPPORTED_MEDIA_TYPE, src/reliability/http/json-body.ts).
 */
export class NoFieldsPipe {
  transform(value: unknown): Record<string, never> {
    if (value === undefined) return {};
    const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
    if (isObject && Object.keys(value).length === 0) return {};
    const fields = isObject ? Object.keys(value) : [];
    throw new DomainException(
      'VALIDATION_FAILED',
      fields.length
        ? `property ${fields.join(', ')} should not exist`
        : 'the body must be empty or an empty JSON object',
      {
        errors: fields.length
          ? fields.map((field) => ({ field, problems: [`property ${field} should not exist`] }))
          : [{ field: '(body)', problems: ['the body must be empty or {}'] }],
      },
    );
  }
}
