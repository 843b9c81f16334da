/**
 * The per-player event stream (docs/async.md, *Player events*), the parts player-events.e2e-spec
 * does not cover:
 * - a one-round duplicate tournament of two entrants: tournamentRoundStarted (with the entrant's
 *   game, table and seat) on each entrant's stream when the round starts, tournamentFinished (rank,
 *   status, of) on each entrant's and the organizer's stream when it finishes;
 * - a session token's stream ends with its `revoked` message as soon as that session is revoked
 *   (DELETE /v1/accounts/me/sessions/{id}, docs/accounts.md §6), with no event needed to notice it.
 */
import { createTestApp, registerPlayer, type TestApp } from '../helpers/app';
import { chooseMove } from '../helpers/games';
import { openPlayerStream, type PlayerStreamClient, type StreamMessage } from '../helpers/player-stream';
import { claimedWithPassword, freshAddress, freshUsername } from '../accounts/helpers';
import { play } from '../tournaments/helpers';

jest.setTimeout(120_000);

const PASSWORD = 'dice are nice 42';

describe('player events: tournaments and revoked sessions', () => {
  let t: TestApp;
  let base: string;
  const streams: PlayerStreamClient[] = [];
  const open = (...args: Parameters<typeof openPlayerStream>) => {
    const s = openPlayerStream(...args);
    streams.push(s);
    return s;
  };
  const ofType = (ms: StreamMessage[], type: string) => ms.filter((m) => m.event === type);

  beforeAll(async () => {
    t = await createTestApp({ env: { JOBS_POLL_INTERVAL_MS: '100', TRUST_PROXY: 'true' }, listen: true });
    base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await t?.close();
  });

  it('entrants get tournamentRoundStarted with their game, and everyone tournamentFinished with their rank', async () => {
    const organizer = await registerPlayer(t, 'Olga');
    const ada = await registerPlayer(t, 'Ada');
    const bob = await registerPlayer(t, 'Bob');
    const entrants = [ada, bob];
    const name = 'Stream cup';
    const created = await t
      .http()
      .post('/v1/tournaments')
      .set(organizer.auth)
      .send({ name, ruleSet: 'simple', format: 'duplicate', maxEntrants: 2, rounds: 1 })
      .expect(201);
    const id: string = created.body.id;
    const numbers = new Map<string, number>();
    for (const e of entrants) {
      const r = await t.http().post(`/v1/tournaments/${id}/entrants`).set(e.auth).send({}).expect(200);
      numbers.set(e.id, r.body.entrants.find((x: any) => x.playerId === e.id).number);
    }
    const label = (p: { id: string }) => (numbers.has(p.id) ? `entrant ${numbers.get(p.id)}` : 'the organizer');

    // Streams opened before the start (live only): what they receive was raised by the tournament.
    const s = new Map([organizer, ...entrants].map((p) => [p.id, open(base, p.token)]));
    for (const x of s.values()) expect((await x.opened).status).toBe(200);

    const started = (await t.http().post(`/v1/tournaments/${id}/start`).set(organizer.auth).expect(200)).body;
    expect(started.status).toBe('running');
    const games = started.roundDetails[0].games as Array<{ gameId: string; entrants: number[]; table: number }>;
    expect(games).toHaveLength(2);

    const gameOf = new Map<string, string>();
    for (const e of entrants) {
      const stream = s.get(e.id)!;
      await stream.waitFor((m) => ofType(m, 'tournamentRoundStarted').length === 1, `${label(e)}'s round`);
      const mine = games.find((g) => g.entrants.includes(numbers.get(e.id)!))!;
      gameOf.set(e.id, mine.gameId);
      const msg = ofType(stream.messages, 'tournamentRoundStarted')[0];
      expect(msg.data).toEqual({
        seq: msg.id,
        type: 'tournamentRoundStarted',
        createdAt: expect.any(String),
        data: {
          tournamentId: id,
          name,
          ruleSet: 'simple',
          version: started.version,
          round: 1,
          gameId: mine.gameId,
          table: mine.table,
          seat: mine.entrants.indexOf(numbers.get(e.id)!),
        },
      });
      // The game is theirs, seated where the event says, and playing.
      const game = (await t.http().get(`/v1/games/${mine.gameId}`).set(e.auth).expect(200)).body;
      expect(game.status).toBe('playing');
      expect(game.seats[msg.data.data.seat].playerId).toBe(e.id);
    }
    expect(gameOf.get(ada.id)).not.toBe(gameOf.get(bob.id));
    // The organizer did not enter: no round event for them.
    expect(ofType(s.get(organizer.id)!.messages, 'tournamentRoundStarted')).toEqual([]);

    // Both play their solo game to its end: the last one finishes the tournament.
    for (const e of entrants) await play(t, e, gameOf.get(e.id)!, chooseMove);
    for (const p of [organizer, ...entrants])
      await s.get(p.id)!.waitFor((m) => ofType(m, 'tournamentFinished').length === 1, `${label(p)}'s finish`);

    const view = (await t.http().get(`/v1/tournaments/${id}`).set(organizer.auth).expect(200)).body;
    expect(view.status).toBe('finished');
    const standings = (await t.http().get(`/v1/tournaments/${id}/standings`).expect(200)).body;
    expect(standings.rows).toHaveLength(2);
    for (const p of [organizer, ...entrants]) {
      const msg = ofType(s.get(p.id)!.messages, 'tournamentFinished')[0];
      const row = standings.rows.find((r: any) => r.playerId === p.id);
      expect(msg.data).toEqual({
        seq: msg.id,
        type: 'tournamentFinished',
        createdAt: expect.any(String),
        data: {
          tournamentId: id,
          name,
          ruleSet: 'simple',
          version: view.version,
          status: 'finished',
          rank: p === organizer ? null : row.rank,
          of: 2,
        },
      });
      // tournamentFinished is the stream's last event: nothing of the tournament follows it.
      expect(s.get(p.id)!.messages.at(-1)).toBe(msg);
    }
  });

  it('revoking the session that opened a stream ends it at once with `revoked`', async () => {
    const address = freshAddress();
    const username = freshUsername('stream');
    const me = await claimedWithPassword(t, username, PASSWORD, address);
    const signIn = async (deviceLabel: string) =>
      (
        await t
          .http()
          .post('/v1/accounts/sign-in/password')
          .set('x-forwarded-for', address)
          .send({ username, password: PASSWORD, deviceLabel })
          .expect(200)
      ).body;
    const phone = await signIn('Phone');
    const laptop = await signIn('Laptop');
    expect(phone.player.id).toBe(me.id);

    const onPhone = open(base, phone.token, { ndjson: true });
    const onLaptop = open(base, laptop.token);
    const withOwnToken = open(base, me.token);
    for (const x of [onPhone, onLaptop, withOwnToken]) expect((await x.opened).status).toBe(200);

    // The laptop revokes the phone's session; no event is raised for the player meanwhile.
    await t
      .http()
      .delete(`/v1/accounts/me/sessions/${phone.session.id}`)
      .set({ authorization: `Bearer ${laptop.token}` })
      .expect(204);
    // Well within the 30 s periodic check: the revocation itself makes the stream check at once.
    await onPhone.waitFor((m) => m.length > 0, 'the revoked message', 10_000);
    await onPhone.ended;
    expect(onPhone.messages).toEqual([
      {
        id: null,
        event: 'revoked',
        data: expect.objectContaining({ type: 'revoked', code: 'UNAUTHENTICATED', status: 401 }),
      },
    ]);
    const again = open(base, phone.token);
    expect((await again.opened).status).toBe(401);

    // The other session's stream and the player's own token's stream go on: they still get events.
    const opp = await registerPlayer(t, 'Opp');
    const g = (await t.http().post('/v1/games').set(opp.auth).send({ ruleSet: 'simple', seats: 2 }).expect(201)).body;
    await t.http().post(`/v1/games/${g.id}/join`).set(me.auth).send({}).expect(200);
    await t.http().post(`/v1/games/${g.id}/start`).set(opp.auth).send({}).expect(200);
    await onLaptop.waitFor((m) => ofType(m, 'gameStarted').length === 1, "the laptop's gameStarted");
    await withOwnToken.waitFor((m) => ofType(m, 'gameStarted').length === 1, "the own token's gameStarted");
    expect(onLaptop.messages.map((m) => m.event)).toEqual(['gameStarted']);
  });
});
