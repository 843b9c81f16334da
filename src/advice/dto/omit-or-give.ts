/** A class-validator rule the advice inputs share. */
import { ValidateIf } from 'class-validator';

/**
 * Optional, but not nullable: a field whose absence means something (no roll yet, no dice left
 * given) must be left out, never null (null used to be read as "absent" and advised on another
 * position). @IsOptional would let null through.
 */
export const OmitOrGive = () => ValidateIf((_object, value) => value !== undefined);
