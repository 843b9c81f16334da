/**
 * The seek aggregate as a decider (docs/matchmaking.md): `decideSeek(state, command)` returns the
 * events of a command or a coded RuleError; `evolveSeek` applies one event. Pure: the service
 * counts the player's open seeks (under a lock) and passes the count in the command.
 */
import { ruleError, type RuleError } from '../core/errors';
import { isRatingPool, RATING_POOLS } from '../ratings/pools';
import {
  SEEK_LIMITS as L,
  TIME_CONTROLS,
  type SeekCommand,
  type SeekEvent,
  type SeekSpec,
  type SeekState,
} from './types';

export const emptySeek = (id: string): SeekState => ({
  id,
  version: 0,
  playerId: null,
  spec: null,
  status: null,
  gameId: null,
});

const isRating = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x);

/** The spec of a create command, checked: the first problem as a RuleError. */
export function checkSeekSpec(raw: Extract<SeekCommand, { type: 'create' }>['spec']): SeekSpec | RuleError {
  const s = raw as Record<string, unknown>;
  if (!isRatingPool(s.pool)) return ruleError('UNKNOWN_POOL', `pool must be one of ${RATING_POOLS.join(', ')}`);
  if (!Number.isInteger(s.seats) || (s.seats as number) < L.seatsMin || (s.seats as number) > L.seatsMax)
    return ruleError('INVALID_COMMAND', `seats must be an integer from ${L.seatsMin} to ${L.seatsMax}`);
  if (typeof s.rated !== 'boolean') return ruleError('INVALID_COMMAND', 'rated must be true or false');
  const min = s.ratingMin ?? null;
  const max = s.ratingMax ?? null;
  for (const [name, v] of [
    ['ratingMin', min],
    ['ratingMax', max],
  ] as const)
    if (v !== null && (!isRating(v) || v < L.ratingMin || v > L.ratingMax))
      return ruleError('INVALID_RATING_RANGE', `${name} must be an integer from ${L.ratingMin} to ${L.ratingMax}`, {
        field: name,
      });
  const low = min as number | null;
  const high = max as number | null;
  if (low !== null && high !== null && low > high)
    return ruleError('INVALID_RATING_RANGE', `ratingMin (${low}) is above ratingMax (${high})`, { field: 'ratingMin' });
  const time = s.turnTimeLimitSeconds ?? null;
  if (time === null ? s.rated === true : !(TIME_CONTROLS as readonly unknown[]).includes(time))
    return ruleError(
      'INVALID_TIME_CONTROL',
      `turnTimeLimitSeconds must be one of ${TIME_CONTROLS.join(', ')}${s.rated === true ? ' (a rated seek needs a time limit)' : ' or absent'}`,
      { field: 'turnTimeLimitSeconds' },
    );
  return {
    pool: s.pool,
    seats: s.seats as number,
    rated: s.rated,
    ratingMin: low,
    ratingMax: high,
    turnTimeLimitSeconds: time as number | null,
  };
}

export function decideSeek(s: SeekState, c: SeekCommand): SeekEvent[] | RuleError {
  switch (c.type) {
    case 'create': {
      if (s.version !== 0) return ruleError('INVALID_COMMAND', 'The seek exists already');
      const spec = checkSeekSpec(c.spec);
      if (!('pool' in spec)) return spec;
      if (c.openSeeks >= L.openPerPlayer)
        return ruleError(
          'SEEK_LIMIT_REACHED',
          `A player holds at most ${L.openPerPlayer} open seeks; cancel one first`,
          { limit: L.openPerPlayer },
        );
      return [{ type: 'seekCreated', data: { playerId: c.playerId, ...spec } }];
    }
    case 'cancel':
      if (s.version === 0) return ruleError('INVALID_COMMAND', 'The seek does not exist');
      if (s.playerId !== c.playerId)
        return ruleError('NOT_YOUR_SEEK', 'Only the player who posted a seek may cancel it');
      if (s.status !== 'open') return notOpen(s);
      return [{ type: 'seekCancelled', data: { playerId: c.playerId } }];
    case 'pair':
      if (s.version === 0) return ruleError('INVALID_COMMAND', 'The seek does not exist');
      if (s.status !== 'open') return notOpen(s);
      if (!c.seekIds.includes(s.id)) return ruleError('INVALID_COMMAND', 'A pairing names its own seeks');
      return [{ type: 'seekPaired', data: { gameId: c.gameId, seekIds: [...c.seekIds] } }];
    default:
      return ruleError('INVALID_COMMAND', 'Unknown seek command');
  }
}

const notOpen = (s: SeekState) =>
  ruleError('SEEK_NOT_OPEN', `The seek is ${s.status}`, { seekStatus: s.status, gameId: s.gameId });

export function evolveSeek(s: SeekState, e: SeekEvent): SeekState {
  const next = { ...s, version: s.version + 1 };
  switch (e.type) {
    case 'seekCreated': {
      const { playerId, ...spec } = e.data;
      return { ...next, playerId, spec, status: 'open' };
    }
    case 'seekCancelled':
      return { ...next, status: 'cancelled' };
    case 'seekPaired':
      return { ...next, status: 'paired', gameId: e.data.gameId };
  }
}
