import { DomainException } from '../common/errors';
import { checkAuthorization, checkRedirectUri, parseScopes, type AuthorizationParams } from './authorization-request';

const client = { id: 'fdc_x', name: 'App', redirectUris: ['https://app.example/cb', 'http://127.0.0.1:8123/cb'] };
const valid: AuthorizationParams = {
  responseType: 'code',
  clientId: 'fdc_x',
  redirectUri: 'https://app.example/cb',
  scope: 'game:play game:play game:create',
  state: 's',
  codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  codeChallengeMethod: 'S256',
};

const codeOf = (work: () => unknown): string | null => {
  try {
    work();
    return null;
  } catch (err) {
    return err instanceof DomainException ? err.code : `not a DomainException: ${String(err)}`;
  }
};

describe('checkRedirectUri', () => {
  it.each([
    'https://app.example/cb',
    'https://app.example:8443/cb?x=1',
    'http://localhost:3000/cb',
    'http://127.0.0.1/cb',
    'http://[::1]:9/cb',
  ])('accepts %s', (uri) => expect(codeOf(() => checkRedirectUri(uri))).toBeNull());

  it.each([
    'http://app.example/cb',
    'https://app.example/cb#x',
    'https://a:b@app.example/cb',
    '/cb',
    'javascript:alert(1)',
    'custom.scheme:/cb',
    'https://app.example/c b',
    `https://app.example/${'x'.repeat(2000)}`,
  ])('refuses %s', (uri) => expect(codeOf(() => checkRedirectUri(uri))).toBe('INVALID_REDIRECT_URI'));
});

describe('checkAuthorization', () => {
  it('answers the checked request; scopes deduplicated in their order', () => {
    expect(checkAuthorization(valid, client)).toEqual({
      client,
      redirectUri: 'https://app.example/cb',
      scopes: ['game:play', 'game:create'],
      state: 's',
      codeChallenge: valid.codeChallenge,
    });
  });

  it('checks the client, then the redirect URI, before anything else', () => {
    expect(codeOf(() => checkAuthorization({}, null))).toBe('OAUTH_CLIENT_NOT_FOUND');
    expect(codeOf(() => checkAuthorization({ clientId: 'fdc_x' }, client))).toBe('OAUTH_REDIRECT_URI_MISMATCH');
  });

  it.each<[string, Partial<AuthorizationParams>, string]>([
    ['a trailing slash', { redirectUri: 'https://app.example/cb/' }, 'OAUTH_REDIRECT_URI_MISMATCH'],
    ['another port', { redirectUri: 'http://127.0.0.1:8124/cb' }, 'OAUTH_REDIRECT_URI_MISMATCH'],
    ['upper case', { redirectUri: 'https://APP.example/cb' }, 'OAUTH_REDIRECT_URI_MISMATCH'],
    ['response_type token', { responseType: 'token' }, 'OAUTH_INVALID_REQUEST'],
    ['plain PKCE', { codeChallengeMethod: 'plain' }, 'OAUTH_INVALID_REQUEST'],
    ['no PKCE method', { codeChallengeMethod: undefined }, 'OAUTH_INVALID_REQUEST'],
    ['no challenge', { codeChallenge: undefined }, 'OAUTH_INVALID_REQUEST'],
    ['a 42-character challenge', { codeChallenge: 'a'.repeat(42) }, 'OAUTH_INVALID_REQUEST'],
    ['no state', { state: undefined }, 'OAUTH_INVALID_REQUEST'],
    ['a state with a control character', { state: 'a\nb' }, 'OAUTH_INVALID_REQUEST'],
    ['a 501-character state', { state: 's'.repeat(501) }, 'OAUTH_INVALID_REQUEST'],
    ['no scope', { scope: undefined }, 'OAUTH_INVALID_SCOPE'],
    ['an unknown scope', { scope: 'game:play root' }, 'OAUTH_INVALID_SCOPE'],
  ])('%s', (_label, over, code) => {
    expect(codeOf(() => checkAuthorization({ ...valid, ...over }, client))).toBe(code);
  });
});

describe('parseScopes', () => {
  it('splits on spaces and keeps known scopes', () => {
    expect(parseScopes(' game:read  advice:read ')).toEqual(['game:read', 'advice:read']);
  });
  it.each(['', '   ', '*', 'game:read GAME:PLAY'])('refuses %j', (scope) =>
    expect(codeOf(() => parseScopes(scope))).toBe('OAUTH_INVALID_SCOPE'),
  );
});
