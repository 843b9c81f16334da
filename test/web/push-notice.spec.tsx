/**
 * What the service worker (web/src/sw.ts) shows for a pushed message and the page a click opens
 * (web/src/push-notice.ts): the payloads are the service's own (`notificationOf`, as the push job
 * builds them), so a change of either side that breaks the other fails here.
 */
import { notificationOf } from '../../src/player-events/push.service';
import { pageOf, pushNotice } from '../../web/src/push-notice';

const GAME = '0193a5e2-7c1d-7000-8000-000000000001';
const TOURNAMENT = '0193a5e2-7c1d-7000-8000-0000000000aa';

/** The payload the push job sends: the stream message plus `notification`. */
function payload(type: string, data: Record<string, unknown>): string {
  const event = { seq: 7, type, createdAt: '2026-12-03T10:00:00.000Z', data };
  return JSON.stringify({ ...event, notification: notificationOf(event as never) });
}

describe('the service worker notification (web/src/push-notice.ts)', () => {
  it("shows the service's yourTurn text and opens the game's page (#/game/<id>)", () => {
    expect(pushNotice(payload('yourTurn', { gameId: GAME, ruleSet: 'penta', version: 9 }))).toEqual({
      title: 'Your turn · fairdice',
      body: 'It is your turn (penta)',
      tag: GAME,
      url: `/#/game/${GAME}`,
    });
  });

  it('opens the game of a finished game and of a tournament round, the tournament when it ended', () => {
    expect(pushNotice(payload('gameFinished', { gameId: GAME, place: 1, of: 2 }))).toMatchObject({
      title: 'Game over · fairdice',
      body: 'You placed 1 of 2',
      url: `/#/game/${GAME}`,
    });
    expect(
      pushNotice(payload('tournamentRoundStarted', { tournamentId: TOURNAMENT, gameId: GAME, round: 2, name: 'Cup' })),
    ).toMatchObject({ title: 'Round 2 started · fairdice', url: `/#/game/${GAME}` });
    expect(pushNotice(payload('tournamentFinished', { tournamentId: TOURNAMENT, name: 'Cup' }))).toMatchObject({
      tag: TOURNAMENT,
      url: `/#/tournament/${TOURNAMENT}`,
    });
  });

  it('still says something for an empty, non-JSON or unexpected payload, and opens the lobby', () => {
    for (const raw of [null, '', 'not json', '[1,2]', '{"type":"challenge","data":{}}'])
      expect(pushNotice(raw)).toEqual({
        title: 'News · fairdice',
        body: 'Something happened in one of your games.',
        tag: 'fairdice',
        url: '/',
      });
  });

  it('never builds a page address from an id that is not one (no path or origin injection)', () => {
    expect(pageOf({ gameId: '../../evil' })).toBe('/');
    expect(pageOf({ gameId: '//evil.example/x' })).toBe('/');
    expect(pageOf({ gameId: 42, tournamentId: TOURNAMENT })).toBe(`/#/tournament/${TOURNAMENT}`);
  });
});
