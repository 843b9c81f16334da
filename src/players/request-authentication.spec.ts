import type { Pool } from 'pg';
import type { ReadRouter } from '../database/read-routing';
import { PlayersService } from './players.service';
import { generateToken } from './tokens';

/** One HTTP request's token is authenticated once: by the rate limiter, then reused by the auth guard. */
describe('PlayersService: one authentication per request', () => {
  const row = (tokenHash: string) => ({
    id: '00000000-0000-4000-8000-000000000001',
    display_name: 'Ada',
    token_hash: tokenHash,
    session_id: null,
    scopes: null,
    kind: null,
    expires_at: null,
  });
  const make = () => {
    const query = jest.fn((_sql: string, params: string[]) => Promise.resolve({ rows: [row(params[0])] }));
    const players = new PlayersService({ query } as unknown as Pool, {} as ReadRouter);
    return { players, query, authenticate: jest.spyOn(players, 'authenticate') };
  };

  it('the guard reuses the rate limiter’s answer for the same request and token', async () => {
    const { players, authenticate } = make();
    const request = {};
    const token = generateToken();
    const first = await players.authenticateRequest(request, token);
    const again = await players.authenticatedBy(request, token);
    expect(again).toBe(first);
    expect(again?.displayName).toBe('Ada');
    expect(authenticate).toHaveBeenCalledTimes(1);
  });

  it('another request, or another token on the same request, is authenticated anew', async () => {
    const { players, authenticate } = make();
    const request = {};
    const token = generateToken();
    await players.authenticateRequest(request, token);
    await players.authenticatedBy({}, token);
    expect(authenticate).toHaveBeenCalledTimes(2);
    const other = generateToken();
    await players.authenticatedBy(request, other);
    expect(authenticate).toHaveBeenCalledTimes(3);
    expect(authenticate).toHaveBeenLastCalledWith(other);
  });

  it('a request nobody authenticated before (rate limits off, a subscription context) is authenticated', async () => {
    const { players, authenticate, query } = make();
    expect(await players.authenticatedBy({}, generateToken())).not.toBeNull();
    expect(authenticate).toHaveBeenCalledTimes(1);
    expect(query).toHaveBeenCalledTimes(1);
  });

  it('a token that is not valid stays refused on the reuse', async () => {
    const { players } = make();
    const request = {};
    expect(await players.authenticateRequest(request, 'not-a-token')).toBeNull();
    expect(await players.authenticatedBy(request, 'not-a-token')).toBeNull();
  });
});
