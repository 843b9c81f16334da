import { emptyGame, type GameState } from '@fairdice/core/rules/game';
import { namesOfSeated } from './event-store.service';

describe('namesOfSeated', () => {
  const withSeats = (playerIds: Array<string | null>): GameState =>
    ({
      ...emptyGame('00000000-0000-4000-8000-000000000001'),
      seats: playerIds.map((playerId, seat) => ({ seat, playerId })),
    }) as unknown as GameState;

  it('the names of the seated players, and no others', () => {
    expect(namesOfSeated(withSeats(['a', null, 'b']), { a: 'Ada', b: 'Bo', c: 'Cy' })).toEqual({ a: 'Ada', b: 'Bo' });
    expect(namesOfSeated(withSeats([null]), {})).toEqual({});
  });

  it('null when a seated player has no known name (the next load reads them)', () => {
    expect(namesOfSeated(withSeats(['a', 'b']), { a: 'Ada' })).toBeNull();
  });
});
