import type { GameState } from '@fairdice/core/rules/game';
import { emptyGame } from '@fairdice/core/rules/game';
import { asyncEffects, RATING_QUEUE } from './async-effects';

const base = (over: Partial<GameState>): GameState =>
  ({ ...emptyGame('00000000-0000-4000-8000-000000000001'), ...over }) as GameState;

describe('asyncEffects: the rating update of a rated game', () => {
  const playing = base({ status: 'playing', rated: true, version: 40 });
  const finished = base({ status: 'finished', rated: true, version: 41 });

  it('schedules one rating job, keyed by the game, when a rated game finishes', () => {
    const jobs = asyncEffects(playing, finished).jobs!.filter((j) => j.queue === RATING_QUEUE);
    expect(jobs).toEqual([
      { queue: RATING_QUEUE, key: `rating:${finished.id}`, payload: { gameId: finished.id }, delayMs: 0 },
    ]);
  });

  it('schedules none for an unrated game, an abandoned rated game, or a command after the finish', () => {
    const none = (b: GameState, a: GameState) => asyncEffects(b, a).jobs!.filter((j) => j.queue === RATING_QUEUE);
    expect(none({ ...playing, rated: false }, { ...finished, rated: false })).toEqual([]);
    expect(none(playing, { ...finished, status: 'abandoned' })).toEqual([]);
    expect(none(finished, { ...finished, version: 42 })).toEqual([]);
  });
});
