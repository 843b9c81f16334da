import { DomainException } from '../common/errors';
import { checkAccessTokenRequest, MAX_EXPIRY_DAYS } from './access-tokens.service';

const codeOf = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    if (!(e instanceof DomainException)) return 'other';
    const scope = e.details?.scope;
    return typeof scope === 'string' ? `${e.code}:${scope}` : e.code;
  }
  return undefined;
};

describe('checkAccessTokenRequest', () => {
  it('trims the name, drops duplicate scopes and keeps them in the vocabulary order', () => {
    expect(checkAccessTokenRequest({ name: '  bot ', scopes: ['game:play', 'game:read', 'game:play'] })).toEqual({
      name: 'bot',
      scopes: ['game:read', 'game:play'],
      expiresInDays: null,
    });
    expect(
      checkAccessTokenRequest({ name: 'b', scopes: ['account:read'], expiresInDays: MAX_EXPIRY_DAYS }).expiresInDays,
    ).toBe(MAX_EXPIRY_DAYS);
  });

  it.each([
    [{ name: 'b', scopes: ['game:read', 'game:write'] }, 'UNKNOWN_SCOPE:game:write'],
    [{ name: 'b', scopes: ['*'] }, 'UNKNOWN_SCOPE:*'],
    [{ name: 'b', scopes: ['toString'] }, 'UNKNOWN_SCOPE:toString'],
    [{ name: 'b', scopes: [] }, 'VALIDATION_FAILED'],
    [{ name: 'b', scopes: 'game:read' }, 'VALIDATION_FAILED'],
    [{ name: '', scopes: ['game:read'] }, 'VALIDATION_FAILED'],
    [{ name: 'x'.repeat(65), scopes: ['game:read'] }, 'VALIDATION_FAILED'],
    [{ name: 'a\u0007b', scopes: ['game:read'] }, 'VALIDATION_FAILED'],
    [{ name: 7, scopes: ['game:read'] }, 'VALIDATION_FAILED'],
    [{ name: 'b', scopes: ['game:read'], expiresInDays: 0 }, 'VALIDATION_FAILED'],
    [{ name: 'b', scopes: ['game:read'], expiresInDays: MAX_EXPIRY_DAYS + 1 }, 'VALIDATION_FAILED'],
    [{ name: 'b', scopes: ['game:read'], expiresInDays: 2.5 }, 'VALIDATION_FAILED'],
    [{ name: 'b', scopes: ['game:read'], expiresInDays: '3' }, 'VALIDATION_FAILED'],
  ])('%j is refused: %s', (input, code) => {
    expect(codeOf(() => checkAccessTokenRequest(input))).toBe(code);
  });
});
