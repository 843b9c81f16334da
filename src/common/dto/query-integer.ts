import { Transform } from 'class-transformer';

/**
 * A whole number in a query string: only plain decimal digits are converted. Anything else
 * (`1e3`, `0x10`, ` 5`, `1.0`, an empty value, a repeated parameter) stays as sent and fails the
 * field's @IsInt() with 400 VALIDATION_FAILED, instead of JavaScript's Number() reading it
 * (Number('1e3') is 1000, Number('') is 0).
 */
export const QueryInteger = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value,
  );
