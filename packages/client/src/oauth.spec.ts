import { createHash } from 'node:crypto';
import { createFairdiceClient } from './rest';
import { authorizationUrl, createPkce, exchangeCode, oauthTokenProvider, OAuthError, type OAuthTokens } from './oauth';

interface Sent {
  path: string;
  authorization: string | null;
  form: URLSearchParams;
}

/** A fake server answering from `answer`, recording every request. */
function fakeServer(answer: (sent: Sent) => Response) {
  const sent: Sent[] = [];
  const fetch = async (request: Request) => {
    const s = {
      path: new URL(request.url).pathname,
      authorization: request.headers.get('authorization'),
      form: new URLSearchParams(await request.text()),
    };
    sent.push(s);
    return answer(s);
  };
  return { fetch, sent };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const tokenAnswer = (n: number) =>
  json(200, {
    access_token: `fd_access${n}`,
    refresh_token: `fdr_refresh${n}`,
    token_type: 'Bearer',
    expires_in: 3600,
    scope: 'game:play',
  });

const expired = (n: number): OAuthTokens => ({
  accessToken: `fd_access${n}`,
  refreshToken: `fdr_refresh${n}`,
  expiresAt: Date.now() - 1,
  scope: ['game:play'],
});

describe('OAuth helpers of the SDK', () => {
  it('createPkce: the challenge is BASE64URL(SHA-256(verifier)) of a 43-character verifier', async () => {
    const { verifier, challenge } = await createPkce();
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(challenge).toBe(createHash('sha256').update(verifier).digest('base64url'));
    expect((await createPkce()).verifier).not.toBe(verifier);
  });

  it('authorizationUrl asks for the code with S256', () => {
    const url = new URL(
      authorizationUrl({
        baseUrl: 'https://dice.example',
        clientId: 'fdc_x',
        redirectUri: 'http://127.0.0.1:9/cb',
        scope: ['game:create', 'game:play'],
        state: 's',
        codeChallenge: 'c',
      }),
    );
    expect(url.origin + url.pathname).toBe('https://dice.example/oauth/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'fdc_x',
      redirect_uri: 'http://127.0.0.1:9/cb',
      scope: 'game:create game:play',
      state: 's',
      code_challenge: 'c',
      code_challenge_method: 'S256',
    });
  });

  it('exchangeCode posts the form and reads the tokens; an error is an OAuthError', async () => {
    const server = fakeServer((s) =>
      s.form.get('code') === 'good' ? tokenAnswer(1) : json(400, { error: 'invalid_grant', error_description: 'no' }),
    );
    const opts = {
      baseUrl: 'https://dice.example',
      clientId: 'fdc_x',
      redirectUri: 'r',
      codeVerifier: 'v',
      fetch: server.fetch,
    };
    const tokens = await exchangeCode({ ...opts, code: 'good' });
    expect(tokens).toMatchObject({ accessToken: 'fd_access1', refreshToken: 'fdr_refresh1', scope: ['game:play'] });
    expect(Object.fromEntries(server.sent[0].form)).toEqual({
      grant_type: 'authorization_code',
      code: 'good',
      redirect_uri: 'r',
      code_verifier: 'v',
      client_id: 'fdc_x',
    });
    const err = await exchangeCode({ ...opts, code: 'bad' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OAuthError);
    expect(err).toMatchObject({ status: 400, error: 'invalid_grant' });
  });

  it('the token provider refreshes an expiring token once for concurrent callers and hands over the new pair', async () => {
    let n = 1;
    const server = fakeServer(() => tokenAnswer(++n));
    const saved: OAuthTokens[] = [];
    const provider = oauthTokenProvider({
      baseUrl: 'https://dice.example',
      clientId: 'fdc_x',
      tokens: expired(1),
      onTokens: (t) => void saved.push(t),
      fetch: server.fetch,
    });
    expect(await Promise.all([provider.token(), provider.token()])).toEqual(['fd_access2', 'fd_access2']);
    expect(server.sent).toHaveLength(1);
    expect(server.sent[0].form.get('refresh_token')).toBe('fdr_refresh1');
    expect(saved.map((t) => t.refreshToken)).toEqual(['fdr_refresh2']);
    // Fresh now: no request.
    expect(await provider.token()).toBe('fd_access2');
    expect(server.sent).toHaveLength(1);
    // The next refresh spends the rotated token.
    expect(await provider.refresh()).toBe('fd_access3');
    expect(server.sent[1].form.get('refresh_token')).toBe('fdr_refresh2');
  });

  it('createFairdiceClient with onUnauthorized sends a request once more with the new token after a 401', async () => {
    const api = fakeServer((s) =>
      s.authorization === 'Bearer fd_new'
        ? json(200, { id: 'p1', displayName: 'Ada' })
        : json(401, { code: 'UNAUTHENTICATED', status: 401 }),
    );
    let refreshed = 0;
    const client = createFairdiceClient({
      baseUrl: 'https://dice.example',
      token: 'fd_old',
      fetch: api.fetch,
      retry: false,
      onUnauthorized: () => Promise.resolve(++refreshed === 1 ? 'fd_new' : undefined),
    });
    const ok = await client.GET('/v1/players/me');
    expect(ok.response.status).toBe(200);
    expect(api.sent.map((s) => s.authorization)).toEqual(['Bearer fd_old', 'Bearer fd_new']);
    // No new token: the 401 stays, and nothing loops.
    const still = await client.GET('/v1/players/me');
    expect(still.response.status).toBe(401);
    expect(api.sent).toHaveLength(3);
    expect(refreshed).toBe(2);
  });
});
