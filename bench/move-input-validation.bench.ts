/**
 * Micro-benchmark of a move body's validation (decision 0154): the service's pipe
 * (strictValidationPipe, which keeps the valid inputs of @MemoizedValidation classes) against
 * Nest's ValidationPipe with the same options, on the bench's two hot bodies (a score's box, a
 * roll's hold), each parsed from JSON afresh as a request body is. Standalone (the pipe is
 * asynchronous; the micro suites of `npm run bench` are synchronous):
 *
 *   npm run build && node dist/bench/move-input-validation.bench.js
 */
import 'reflect-metadata';
import { performance } from 'node:perf_hooks';
import { ValidationPipe } from '@nestjs/common';
import { STRICT_VALIDATION_OPTIONS, strictValidationPipe } from '../src/common/errors/validation.pipe';
import { RollInput, ScoreInput } from '../src/games/dto/game.inputs';

const BODIES: Array<[string, new () => object]> = [
  ['{"box":"chance"}', ScoreInput],
  ['{"hold":[0,2]}', RollInput],
];

async function usPerCall(pipe: ValidationPipe, calls: number): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < calls; i++) {
    const [json, metatype] = BODIES[i & 1];
    await pipe.transform(JSON.parse(json), { type: 'body', metatype });
  }
  return ((performance.now() - t0) * 1000) / calls;
}

async function main(): Promise<void> {
  const unmemoized = new ValidationPipe(STRICT_VALIDATION_OPTIONS);
  const service = strictValidationPipe();
  await usPerCall(unmemoized, 20_000);
  await usPerCall(service, 20_000);
  for (let round = 1; round <= 3; round++) {
    const a = await usPerCall(unmemoized, 50_000);
    const b = await usPerCall(service, 50_000);
    console.log(
      `round ${round}: ValidationPipe ${a.toFixed(2)} µs, strictValidationPipe (memoized) ${b.toFixed(2)} µs per body (÷ ${(a / b).toFixed(1)})`,
    );
  }
}

if (require.main === module) void main();
