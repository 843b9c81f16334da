/** Who sits at a game and whose turn it is: shared by the jobs (async-effects.ts) and the notices (player-notices.ts). */
import { familyById } from '@fairdice/core/rules/registry';
import type { GameState } from '@fairdice/core/rules/game';

export function currentOf(state: GameState): { seat: number | null; playerId: string | null } {
  if (state.status !== 'playing' || state.play === null) return { seat: null, playerId: null };
  const seat = familyById(state.family).currentSeat(state.play);
  return { seat, playerId: seat === null ? null : (state.seats[seat]?.playerId ?? null) };
}

export const seatedPlayers = (state: GameState): string[] => [
  ...new Set(state.seats.map((s) => s.playerId).filter((p): p is string => p !== null)),
];
