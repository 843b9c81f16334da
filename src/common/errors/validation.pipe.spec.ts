import { ArrayMaxSize, IsArray, IsInt, IsOptional, IsString, MaxLength } from 'class-validator';
import { DomainException } from './domain.exception';
import { MEMOIZED_INPUTS_PER_CLASS, MemoizedValidation, strictValidationPipe } from './validation.pipe';

@MemoizedValidation()
class HoldInput {
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(6)
  @IsInt({ each: true })
  hold?: number[];
}

class NameInput {
  @IsString()
  @MaxLength(400)
  name: string;
}

describe('strictValidationPipe: memoized inputs', () => {
  const body = (metatype: new () => object) => ({ type: 'body' as const, metatype });

  it('a valid input seen before is the same frozen instance of its class', async () => {
    const pipe = strictValidationPipe();
    const first = (await pipe.transform({ hold: [0, 2] }, body(HoldInput))) as HoldInput;
    expect(first).toBeInstanceOf(HoldInput);
    expect(first.hold).toEqual([0, 2]);
    expect(Object.isFrozen(first) && Object.isFrozen(first.hold)).toBe(true);
    expect(() => first.hold!.push(3)).toThrow(TypeError);
    expect(await pipe.transform({ hold: [0, 2] }, body(HoldInput))).toBe(first);
    const other = (await pipe.transform({ hold: [1] }, body(HoldInput))) as HoldInput;
    expect(other).not.toBe(first);
    expect(other.hold).toEqual([1]);
  });

  it('an invalid input is refused every time, with the same coded error, and never kept', async () => {
    const pipe = strictValidationPipe();
    for (let i = 0; i < 2; i++) {
      const refusal = pipe.transform({ hold: ['x'], extra: 1 }, body(HoldInput));
      await expect(refusal).rejects.toBeInstanceOf(DomainException);
      await expect(pipe.transform({ hold: ['x'], extra: 1 }, body(HoldInput))).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
    }
    // The valid input with the same field still validates (nothing of the refusal was kept).
    expect(await pipe.transform({ hold: [4] }, body(HoldInput))).toEqual(Object.assign(new HoldInput(), { hold: [4] }));
  });

  it('a class without @MemoizedValidation gets a new, unfrozen instance each time', async () => {
    const pipe = strictValidationPipe();
    const a = await pipe.transform({ name: 'Ada' }, body(NameInput));
    const b = await pipe.transform({ name: 'Ada' }, body(NameInput));
    expect(a).toEqual(b);
    expect(a).not.toBe(b);
    expect(Object.isFrozen(a)).toBe(false);
  });

  it('keeps at most a bound of inputs per class, dropping the oldest', async () => {
    const pipe = strictValidationPipe();
    const first = await pipe.transform({ hold: [0] }, body(HoldInput));
    for (let i = 1; i <= MEMOIZED_INPUTS_PER_CLASS; i++) await pipe.transform({ hold: [i] }, body(HoldInput));
    const again = await pipe.transform({ hold: [0] }, body(HoldInput));
    expect(again).toEqual(first);
    expect(again).not.toBe(first);
  });

  it('each pipe keeps its own inputs', async () => {
    const a = await strictValidationPipe().transform({ hold: [3] }, body(HoldInput));
    const b = await strictValidationPipe().transform({ hold: [3] }, body(HoldInput));
    expect(a).not.toBe(b);
  });
});
