/** Field schemas the game schemas share: statuses, seats, dice, client seeds, the server-made move reason. */
import { enumOf, int, str } from './json-schema';

export const upper = (s: string) => s[0].toUpperCase() + s.slice(1);

export const GAME_STATUSES = ['open', 'playing', 'finished', 'abandoned'] as const;
export const VISIBILITIES = ['public', 'private'] as const;
export const FAMILIES = ['five-dice', 'farkle'] as const;
export const die = int(undefined, { minimum: 1, maximum: 6 });
export const seatNo = int('Seat number (from 0).', { minimum: 0, maximum: 7 });
export const clientSeed = str('A client seed: 1-128 visible ASCII characters (0x21-0x7E).', {
  minLength: 1,
  maxLength: 128,
  pattern: '^[\\x21-\\x7e]{1,128}$',
});
export const timeoutReason = {
  reason: enumOf(
    ['timeout', 'computer', 'autoScore'],
    'Present when the server made this move: timeout (the turn time ran out), computer (a computer seat played it), autoScore (five dice: the player had not scored within autoScoreAfterMs of the last roll).',
  ),
};
