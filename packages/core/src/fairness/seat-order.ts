/**
 * The seat order of a game whose players did not choose it: a matched game (docs/matchmaking.md §3)
 * or an accepted challenge (docs/challenges.md, *Seat order*), derived from the game's commitment
 * (the SHA-256 of its server seed, published in its first event) so that anyone can check it:
 * players sit in ascending order of SHA-256(commitment ":" playerId), as lowercase hex of the
 * UTF-8 string's hash; ties (never in practice) by player id.
 */
import { sha256Hex, utf8ToBytes } from './bytes';

export const seatKey = (commitment: string, playerId: string): string =>
  sha256Hex(utf8ToBytes(`${commitment}:${playerId}`));

export function seatOrder(commitment: string, playerIds: readonly string[]): string[] {
  const keyed = playerIds.map((p) => ({ p, key: seatKey(commitment, p) }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.p < b.p ? -1 : a.p > b.p ? 1 : 0));
  return keyed.map((k) => k.p);
}
