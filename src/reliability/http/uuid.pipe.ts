import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { DomainException } from '../../common/errors';
import { UUID_PATTERN_ANY_CASE as UUID } from '@fairdice/core/fairness/ids';

/** Like ParseUUIDPipe, but fails with our 400 VALIDATION_FAILED problem, before any query. */
@Injectable()
export class UuidPipe implements PipeTransform<unknown, string> {
  transform(value: unknown, metadata: ArgumentMetadata): string {
    const field = metadata.data ?? 'id';
    if (typeof value !== 'string' || !UUID.test(value)) {
      throw new DomainException('VALIDATION_FAILED', `${field} must be a UUID`, {
        errors: [{ field, problems: [`${field} must be a UUID`] }],
      });
    }
    return value.toLowerCase();
  }
}
