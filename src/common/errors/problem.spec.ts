import { DomainException } from './domain.exception';
import { normalizeError } from './problem';

describe('normalizeError', () => {
  it('keeps the standard members when a detail has the same name', () => {
    const { problem } = normalizeError(
      new DomainException('INVALID_COMMAND', 'Unknown command', { type: 'fly', code: 'X', status: 200, reason: 'r' }),
      '/v1/games/x/roll',
    );
    expect(problem).toMatchObject({
      type: 'https://fairdice.dev/problems/invalid-command',
      code: 'INVALID_COMMAND',
      status: 400,
      instance: '/v1/games/x/roll',
      reason: 'r',
    });
  });
});
