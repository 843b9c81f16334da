/**
 * Who may see a game: the one rule every reader applies (game reads and streams, commands, audit
 * bundles, log proofs). Public games: anyone. Private games: only their creator and seated players;
 * everyone else is told there is no such game.
 */
export function maySeeGame(
  game: { visibility: string; creatorId: string; seats: ReadonlyArray<{ playerId: string | null }> },
  viewer: { id: string } | null,
): boolean {
  if (game.visibility === 'public') return true;
  return viewer !== null && (game.creatorId === viewer.id || game.seats.some((s) => s.playerId === viewer.id));
}
