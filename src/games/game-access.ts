/** Who may see a game: the one rule every reader of games applies. */
import type { GameState } from '@fairdice/core/rules/game';

/** Public games: anyone. Private games: only their creator and seated players (others: GAME_NOT_FOUND). */
export function maySeeGame(
  state: Pick<GameState, 'visibility' | 'creatorId' | 'seats'>,
  viewer: { id: string } | null,
): boolean {
  if (state.visibility === 'public') return true;
  return viewer !== null && (state.creatorId === viewer.id || state.seats.some((s) => s.playerId === viewer.id));
}
