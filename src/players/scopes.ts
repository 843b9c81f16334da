/**
 * Token scopes (issue 26, docs/accounts.md): what a scoped token (a personal access token or an
 * OAuth access token) may do. The player's own token and session tokens carry every scope ('*').
 * Public reads need no token and so no scope. Every REST operation and GraphQL field that takes a
 * token declares one of these.
 */
export const TOKEN_SCOPES = {
  'game:read': 'Read your games, their event streams and your player event stream',
  'game:create': 'Create games and seeks, take and leave seats, start, cancel, rematch, challenge',
  'game:play': 'Make moves in your games: roll, score, set aside, bank, quit',
  'tournament:read': "Read your tournaments' private details",
  'tournament:write': 'Create and run tournaments, enter them',
  'webhook:write': 'Register, list and delete webhooks',
  'advice:read': 'Ask for advice and analysis on your games',
  'account:read': 'Read your account, sessions, security log and statistics',
  'account:write':
    'Change your profile, settings and push subscriptions; create and revoke personal access tokens within your own scopes',
} as const;

export type TokenScope = keyof typeof TOKEN_SCOPES;

/** Every scope: what the player's own token and session tokens carry. */
export const ALL_SCOPES = '*';

export const isTokenScope = (value: unknown): value is TokenScope =>
  typeof value === 'string' && Object.prototype.hasOwnProperty.call(TOKEN_SCOPES, value);

/** Whether a token's scopes grant `needed`. */
export const grants = (scopes: readonly string[], needed: TokenScope): boolean =>
  scopes.includes(ALL_SCOPES) || scopes.includes(needed);
