import { DomainException } from './domain.exception';
import { isDatabaseUnavailable, normalizeError } from './problem';

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

describe('isDatabaseUnavailable', () => {
  const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code });
  it('takes a failover\'s read-only session (25006) and lost connections for "retry later"', () => {
    expect(isDatabaseUnavailable(pgError('25006', 'cannot execute INSERT in a read-only transaction'))).toBe(true);
    expect(isDatabaseUnavailable(pgError('57P01'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
  });
  it('leaves other database errors alone', () => {
    expect(isDatabaseUnavailable(pgError('23505', 'duplicate key'))).toBe(false);
    expect(isDatabaseUnavailable(pgError('42P01', 'relation does not exist'))).toBe(false);
  });
});
