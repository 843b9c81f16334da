/** A player as the API shows it. */
export interface PlayerProfile {
  id: string;
  displayName: string;
  createdAt: Date;
}

/** The authenticated caller, attached to the request by the auth guard. */
export interface AuthenticatedPlayer {
  id: string;
  displayName: string;
  /** The session (signed-in device, src/accounts) the token belongs to; null/absent: the player's own token. */
  sessionId?: string | null;
  /**
   * What the token may do (src/players/scopes.ts): ['*'] for the player's own token and session
   * tokens; a personal access token's or OAuth access token's own list otherwise. Absent: ['*'].
   */
  scopes?: readonly string[];
  /** 'player' (the player's own token), 'session', 'personal' or 'oauth'. */
  tokenKind?: 'player' | 'session' | 'personal' | 'oauth';
}

export interface RuleSetStats {
  ruleSet: string;
  gamesFinished: number;
  soloGamesFinished: number;
  soloBestScore: number | null;
  wins: number;
  losses: number;
  ties: number;
  /** Finished games with at least one computer seat (also counted in gamesFinished). */
  computerGamesFinished: number;
  /** Games with a computer seat: won outright, lost, first place shared (not in wins, losses, ties). */
  computerWins: number;
  computerLosses: number;
  computerTies: number;
}
