/**
 * The per-player event stream across instances (docs/async.md, *Player events*): an event raised on
 * instance A (A's command, stored by A's job worker; B runs no worker) reaches the stream that the
 * player holds on instance B, through NOTIFY fairdice_player_events.
 *
 * Needs a real PostgreSQL (DATABASE_URL=postgresql://... when running jest) and `npm run build`;
 * skipped on the embedded database (one session: no NOTIFY between processes; docs/async.md).
 */
import { existsSync } from 'node:fs';
import { chooseMove } from '../helpers/games';
import { openPlayerStream } from '../helpers/player-stream';
import { api, type Instance, main, startInstance } from './instances';

jest.setTimeout(60_000);

const onPostgres = process.env.FAIRDICE_TEST_DB === 'postgres';
if (!onPostgres)
  console.warn('[async] player-events multi-instance test skipped: it needs a real PostgreSQL (set DATABASE_URL)');

(onPostgres ? describe : describe.skip)('player events across instances', () => {
  let a: Instance;
  let b: Instance;

  beforeAll(async () => {
    if (!existsSync(main)) throw new Error('dist/ is missing: run `npm run build` first');
    // B runs no job worker: the player events of A's commands are stored by A.
    [a, b] = await Promise.all([startInstance('A'), startInstance('B', { JOBS_ENABLED: 'false' })]);
  });
  afterAll(async () => {
    await Promise.all([a, b].filter(Boolean).map((i) => i.stop()));
  });

  it('an event raised on instance A reaches a stream held on instance B', async () => {
    const host = await api(a, 'POST', '/v1/players', undefined, { displayName: 'Host' });
    const me = await api(a, 'POST', '/v1/players', undefined, { displayName: 'Me' });
    const stream = openPlayerStream(b.base, me.token);
    try {
      expect((await stream.opened).status).toBe(200);
      let view = await api(a, 'POST', '/v1/games', host.token, { ruleSet: 'simple', seats: 2 });
      await api(a, 'POST', `/v1/games/${view.id}/join`, me.token, {});
      view = await api(a, 'POST', `/v1/games/${view.id}/start`, host.token, {});
      await stream.waitFor((m) => m.some((x) => x.event === 'gameStarted'), 'gameStarted on B');
      while (view.currentPlayerId === host.player.id) {
        const move = chooseMove(view);
        view = await api(a, 'POST', `/v1/games/${view.id}/${move.action}`, host.token, move.body);
      }
      await stream.waitFor((m) => m.some((x) => x.event === 'yourTurn'), 'yourTurn on B');
      expect(stream.messages.map((m) => [m.id, m.event])).toEqual([
        [1, 'gameStarted'],
        [2, 'yourTurn'],
      ]);
      expect(stream.messages[1].data.data).toMatchObject({ gameId: view.id, version: view.version, seat: 1 });
    } finally {
      stream.close();
    }
  });
});
