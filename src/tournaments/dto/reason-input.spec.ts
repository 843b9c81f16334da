import { ReasonInput } from './tournament.inputs';
import { DomainException } from '../../common/errors/domain.exception';
import { strictValidationPipe } from '../../common/errors/validation.pipe';

/** The problems the pipe reports for `body` validated as a ReasonInput. */
async function problems(body: unknown): Promise<Array<{ field: string; problems: string[] }>> {
  try {
    await strictValidationPipe().transform(body, { type: 'body', metatype: ReasonInput });
  } catch (err) {
    expect(err).toBeInstanceOf(DomainException);
    return ((err as DomainException).details as { errors: Array<{ field: string; problems: string[] }> }).errors;
  }
  return [];
}

describe('strictValidationPipe', () => {
  it('reports a missing required field as one problem, not every check of its value', async () => {
    expect(await problems({})).toEqual([{ field: 'reason', problems: ['reason is required (1 to 500 characters)'] }]);
  });
  it('still reports what is wrong with a value that is there', async () => {
    expect(await problems({ reason: '' })).toEqual([
      { field: 'reason', problems: ['reason must be longer than or equal to 1 characters'] },
    ]);
    expect(await problems({ reason: 'no-show' })).toEqual([]);
  });
});
