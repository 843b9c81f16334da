/**
 * The seat order of a game that pairs players who did not choose it (a challenge's, a seek's): by
 * the game's commitment, published in its `gameCreated` event before any die, so anyone can
 * recompute it from the game's record (docs/challenges.md, *Seat order*). Each player's key is
 * SHA-256 of "<commitment>:<playerId>" (hex, UTF-8); seats go in ascending key order.
 */
import { sha256Hex, utf8ToBytes } from './bytes';

export function seatOrderOf(commitment: string, playerIds: readonly string[]): string[] {
  const keyed = playerIds.map((id) => ({ id, key: sha256Hex(utf8ToBytes(`${commitment}:${id}`)) }));
  return keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map((k) => k.id);
}
