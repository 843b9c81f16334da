/**
 * An example third-party app of fairdice (docs/oauth.md): "Dice Roller", a plain Node HTTP server
 * on its own port. "Connect with fairdice" sends the player to fairdice's consent page with PKCE
 * (S256) and a state; the callback checks the state, exchanges the code, and with the access token
 * (through @fairdice/client, refreshing by itself) creates a solo game and rolls, or rolls in the
 * game named by `/connect?game=<id>`.
 *
 *   FAIRDICE_URL=http://localhost:3000 CLIENT_ID=fdc_… PORT=8123 node server.js
 *
 * Register the app first (once) with your player token; its redirect URI is this server's /callback:
 *   curl -X POST $FAIRDICE_URL/v1/oauth/clients -H "authorization: Bearer $TOKEN" \
 *     -H 'content-type: application/json' -d '{"name":"Dice Roller","redirectUris":["http://127.0.0.1:8123/callback"]}'
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  authorizationUrl,
  createFairdiceClient,
  createPkce,
  createState,
  exchangeCode,
  FairdiceError,
  oauthTokenProvider,
  OAuthError,
  unwrap,
  type OAuthTokens,
} from '@fairdice/client';

const FAIRDICE_URL = (process.env.FAIRDICE_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const CLIENT_ID = process.env.CLIENT_ID ?? '';
const PORT = Number(process.env.PORT ?? 8123);
const HOST = process.env.HOST ?? '127.0.0.1';
const REDIRECT_URI = process.env.REDIRECT_URI ?? `http://${HOST}:${PORT}/callback`;
/** What the app asks for by default: create a game and play in it. */
const DEFAULT_SCOPE = ['game:create', 'game:play'];

if (!CLIENT_ID) {
  console.error('CLIENT_ID is required: register the app with POST /v1/oauth/clients first (see the README)');
  process.exit(2);
}

/** Authorization requests under way, by state: the PKCE verifier stays here, never in the browser. */
const pending = new Map<string, { verifier: string; game: string | null; createdAt: number }>();
/** Tokens of the connected players, by the access token's first characters (a demo's session store). */
const connected = new Map<string, OAuthTokens>();
const PENDING_MS = 10 * 60_000;

const escape = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

function page(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dice Roller</title></head>
<body><h1>Dice Roller</h1>${body}</body></html>`);
}

async function connect(url: URL, res: ServerResponse): Promise<void> {
  const { verifier, challenge } = await createPkce();
  const state = createState();
  const now = Date.now();
  for (const [key, p] of pending) if (now - p.createdAt > PENDING_MS) pending.delete(key);
  pending.set(state, { verifier, game: url.searchParams.get('game'), createdAt: now });
  const scope = url.searchParams.get('scope')?.split(' ').filter(Boolean) ?? DEFAULT_SCOPE;
  res.writeHead(302, {
    location: authorizationUrl({
      baseUrl: FAIRDICE_URL,
      clientId: CLIENT_ID,
      redirectUri: REDIRECT_URI,
      scope,
      state,
      codeChallenge: challenge,
    }),
  });
  res.end();
}

async function callback(url: URL, res: ServerResponse): Promise<void> {
  const state = url.searchParams.get('state') ?? '';
  const request = pending.get(state);
  // A state we did not send: not our request (CSRF), or one already answered.
  if (!request) return page(res, 400, '<p id="result">Unknown or used state: start again from the home page.</p>');
  pending.delete(state);
  const error = url.searchParams.get('error');
  if (error) return page(res, 200, `<p id="result">Not connected: ${escape(error)}</p><p><a href="/">Home</a></p>`);
  const tokens = await exchangeCode({
    baseUrl: FAIRDICE_URL,
    clientId: CLIENT_ID,
    code: url.searchParams.get('code') ?? '',
    redirectUri: REDIRECT_URI,
    codeVerifier: request.verifier,
  });
  const key = tokens.accessToken.slice(0, 12);
  connected.set(key, tokens);
  // The SDK asks the provider for the token on every request; it refreshes before expiry and
  // after a 401, and hands the rotated pair back to be kept.
  const provider = oauthTokenProvider({
    baseUrl: FAIRDICE_URL,
    clientId: CLIENT_ID,
    tokens,
    onTokens: (next) => void connected.set(key, next),
  });
  const api = createFairdiceClient({ baseUrl: FAIRDICE_URL, token: provider.token, onUnauthorized: provider.refresh });
  try {
    let gameId = request.game;
    if (!gameId) {
      const game = unwrap(await api.POST('/v1/games', { body: { ruleSet: 'simple', seats: 1 } }));
      gameId = game.id;
      if (game.status === 'open')
        unwrap(await api.POST('/v1/games/{id}/start', { params: { path: { id: gameId } }, body: {} }));
    }
    const rolled = unwrap(await api.POST('/v1/games/{id}/roll', { params: { path: { id: gameId } }, body: {} }));
    return page(
      res,
      200,
      `<p id="result">Rolled <span id="dice">${rolled.dice.join(' ')}</span> in game <code id="game">${escape(gameId)}</code></p>
<p>Granted: <span id="scope">${escape(tokens.scope.join(' '))}</span></p><p><a href="/">Home</a></p>`,
    );
  } catch (err) {
    if (!(err instanceof FairdiceError)) throw err;
    return page(
      res,
      200,
      `<p id="result">fairdice refused: <code id="code">${escape(err.code)}</code> ${escape(err.problem.detail ?? '')}</p>
<p>Granted: <span id="scope">${escape(tokens.scope.join(' '))}</span></p><p><a href="/">Home</a></p>`,
    );
  }
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', `http://${HOST}:${PORT}`);
  if (req.method !== 'GET') return page(res, 405, '<p>Only GET here.</p>');
  if (url.pathname === '/')
    return page(
      res,
      200,
      `<p>An example app that rolls dice in your fairdice account, with your consent.</p>
<p><a id="connect" href="/connect">Connect with fairdice</a></p>`,
    );
  if (url.pathname === '/connect') return connect(url, res);
  if (url.pathname === '/callback') return callback(url, res);
  return page(res, 404, '<p>Not found.</p>');
}

createServer((req, res) => {
  handle(req, res).catch((err: unknown) => {
    const detail = err instanceof OAuthError ? `${err.error}: ${err.description ?? ''}` : String(err);
    console.error(detail);
    if (!res.headersSent) page(res, 502, `<p id="result">Could not connect: ${escape(detail)}</p>`);
  });
}).listen(PORT, HOST, () => console.log(`Dice Roller listening on http://${HOST}:${PORT}`));
