/**
 * OAuth fuzz (docs/oauth.md; api.fuzz.e2e-spec.ts already fuzzes the shapes of the JSON
 * operations /v1/oauth/* from openapi.json). Here: the RFC-shaped endpoints, which are not in the
 * OpenAPI document — random token and revocation forms answer an RFC 6749 §5.2 / RFC 7009 error
 * (never a 5xx, never tokens) — and authorization requests that pass the schema but not the
 * protocol, which answer a coded 4xx. Nothing is stored by any of them.
 */
import fc from 'fast-check';
import type { Pool } from 'pg';
import { ERROR_MAP } from '../../src/common/errors';
import { PG_POOL } from '../../src/database/pg-pool';
import { createTestApp, registerPlayer, type TestApp } from '../helpers/app';
import { rowCounts } from '../helpers/row-counts';
import { describeOnce } from '../helpers/suites';
import { authorizationQuery, pkce, REDIRECT_URI, registerClient } from '../oauth/helpers';

jest.setTimeout(120_000);

const RUNS = 40;
const TOKEN_ERRORS = ['invalid_request', 'invalid_client', 'invalid_grant', 'invalid_scope', 'unsupported_grant_type'];

describeOnce('fuzz: OAuth endpoints refuse wrong requests with their error, storing nothing', () => {
  let t: TestApp;
  let pool: Pool;
  let clientId: string;
  let playerToken: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { JOBS_ENABLED: 'false' } });
    pool = t.app.get<Pool>(PG_POOL);
    const player = await registerPlayer(t, 'Fuzz');
    playerToken = player.token;
    clientId = await registerClient(t, player.token);
  });
  afterAll(async () => t?.close());

  /** A value for a form field: a plausible one, a random string, or a random binary one. */
  const field = (plausible: string[]) =>
    fc.oneof(
      fc.constantFrom(...plausible),
      fc.string({ maxLength: 60 }),
      fc.string({ maxLength: 60, unit: 'binary' }),
      fc.constant(undefined),
    );

  const formOf = (fields: Record<string, string | undefined>) =>
    new URLSearchParams(Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined)).toString();

  it('random token forms', async () => {
    const p = pkce();
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          grant_type: field(['authorization_code', 'refresh_token', 'password', 'client_credentials']),
          code: field(['AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']),
          redirect_uri: field([REDIRECT_URI]),
          client_id: field([clientId, 'fdc_AAAAAAAAAAAAAAAAAAAAAA']),
          client_secret: field(['secret']),
          code_verifier: field([p.verifier, 'short']),
          refresh_token: field(['fdr_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']),
          scope: field(['game:play', 'game:play admin', '']),
        }),
        async (form) => {
          const before = await rowCounts(pool);
          const res = await t
            .http()
            .post('/oauth/token')
            .set('content-type', 'application/x-www-form-urlencoded')
            .send(formOf(form));
          expect({ status: res.status, known: TOKEN_ERRORS.includes(res.body?.error) }).toEqual({
            status: res.status === 401 ? 401 : 400,
            known: true,
          });
          expect(await rowCounts(pool)).toEqual(before);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('random revocation forms', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          token: field([
            'fd_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
            'fdr_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
          ]),
          token_type_hint: field(['access_token', 'refresh_token']),
          client_id: field([clientId]),
        }),
        async (form) => {
          const before = await rowCounts(pool);
          const res = await t
            .http()
            .post('/oauth/revoke')
            .set('content-type', 'application/x-www-form-urlencoded')
            .send(formOf(form));
          if (res.status !== 200) expect(['invalid_request', 'invalid_client']).toContain(res.body?.error);
          expect([200, 400, 401]).toContain(res.status);
          expect(await rowCounts(pool)).toEqual(before);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('authorization requests that pass the schema but not the protocol', async () => {
    const p = pkce();
    const valid = authorizationQuery(clientId, p);
    const known = (res: { status: number; body: any }) =>
      res.status >= 400 && res.status < 500 && Object.prototype.hasOwnProperty.call(ERROR_MAP, res.body?.code);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.keys(valid)),
        fc.oneof(fc.string({ maxLength: 80 }), fc.string({ maxLength: 80, unit: 'binary' })),
        async (name, value) => {
          // One parameter replaced by a random value (the rest valid); a value that happens to be
          // valid (an empty scope part, the same client) may still be accepted.
          const query = { ...valid, [name]: value };
          const before = await rowCounts(pool);
          const shown = await t.http().get('/v1/oauth/authorization').query(query);
          const decided = await t
            .http()
            .post('/v1/oauth/authorization')
            .set('authorization', `Bearer ${playerToken}`)
            .send({ ...query, approved: false });
          if (shown.status !== 200) expect(known(shown)).toBe(true);
          if (decided.status !== 200) expect(known(decided)).toBe(true);
          expect(decided.status).toBe(shown.status === 200 ? 200 : decided.status);
          expect(await rowCounts(pool)).toEqual(before);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
