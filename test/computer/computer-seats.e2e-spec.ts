/**
 * Computer seats and auto-score (issue 15, items 5 and 6; docs/advice.md "Computer players"):
 * a scripted human plays a 2-seat game against a computer seat to the end (REST, and Farkle over
 * GraphQL with level optimal), the computer moving by itself through the job queue; the audit
 * bundle verifies; statistics count the game as one with a computer opponent; auto-score enters
 * the dice of a player who did not score after the last roll; bad computer seats store nothing.
 */
import { verifyBundle } from '@fairdice/core/fairness/verifier';
import { solveFarkle } from '@fairdice/core/rules/advice';
import type { FarkleOptions } from '@fairdice/core/rules/farkle';
import { createTestApp, gql, registerPlayer, type TestApp } from '../helpers/app';
import { chooseMove, countCreatedBy, gqlClient, poolOf, restClient, type Client } from '../helpers/games';
import { eventsOf, waitFor } from '../async/helpers';
import { ComputerService } from '../../src/async/computer/computer.service';

jest.setTimeout(120_000);

describe('computer seats', () => {
  let t: TestApp;
  let ada: { id: string; token: string };

  beforeAll(async () => {
    t = await createTestApp({ env: { JOBS_POLL_INTERVAL_MS: '50' } });
    ada = await registerPlayer(t, 'Ada');
  });
  afterAll(() => t?.close());

  /** Ada moves on her turns (chooseMove); on the computer's turns the test only waits for it to move. */
  async function playAgainstComputer(client: Client, start: any): Promise<any> {
    let v = start;
    for (let i = 0; v.status === 'playing'; i++) {
      if (i > 3000) throw new Error('the game did not end');
      if (v.currentSeat === 0) {
        v = await client.move(ada.token, v.id, chooseMove(v));
        continue;
      }
      const at = v.version;
      v = await waitFor(
        async () => {
          const now = await client.get(ada.token, v.id);
          return now.version > at ? now : null;
        },
        60_000,
        `the computer's move after version ${at}`,
      );
    }
    return v;
  }

  /** Ada's games and their events (the database is shared with other test files and their jobs). */
  const storedRows = () => countCreatedBy(t, ada.id);

  const auditOf = async (id: string) =>
    (await t.http().get(`/v1/games/${id}/audit`).set('authorization', `Bearer ${ada.token}`).expect(200)).body;

  it('REST: a standard computer seat plays a whole five-dice game against a scripted human; the bundle verifies', async () => {
    const client = restClient(t);
    const created = await client.create(ada.token, {
      ruleSet: 'simple',
      seats: 2,
      computerSeats: [{ seat: 1, level: 'standard' }],
    });
    expect(created.status).toBe('open');
    expect(created.seats[1]).toMatchObject({ seat: 1, playerId: null, computer: 'standard' });
    expect(created.computerLevel).toBe('standard');
    // Lists say which games have computer opponents; the computer's seat is taken from the start.
    const mine = await t.http().get('/v1/games?scope=mine&limit=5').set('authorization', `Bearer ${ada.token}`);
    expect(mine.body.items.find((g: any) => g.id === created.id)).toMatchObject({ seatsTaken: 2, computerSeats: 1 });
    const end = await playAgainstComputer(client, await client.start(ada.token, created.id));
    expect(end.status).toBe('finished');
    expect(end.fiveDice.sheets[1].boxes.every((b: any) => b.points !== null)).toBe(true);

    // 13 turns of the computer, one `computer` command each, every event marked.
    const events = await eventsOf(poolOf(t), end.id);
    const batches = events.filter((e) => e.command?.type === 'computer');
    expect(batches).toHaveLength(13);
    expect(batches[0].command).toMatchObject({ type: 'computer', seat: 1, level: 'standard' });
    const computerMoves = events.filter((e) => e.seat === 1 && (e.type === 'rolled' || e.type === 'scored'));
    expect(computerMoves.every((e) => e.data.reason === 'computer')).toBe(true);
    expect(computerMoves.filter((e) => e.rollNumber !== null).length).toBeGreaterThanOrEqual(13);

    const bundle = await auditOf(end.id);
    // An auditor sees every seat: the computer's is listed (format 3), its seed generated at the start.
    expect(bundle.formatVersion).toBe(3);
    expect(bundle.players[1]).toMatchObject({ seat: 1, playerId: null, hotSeat: false, clientSeedGenerated: true });
    expect(bundle.players[1].clientSeed).toBe(bundle.clientSeeds.at(-1));
    expect(bundle.finalStandings.find((s: any) => s.seat === 1).playerId).toBeNull();
    const report = verifyBundle(bundle);
    expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.checks.find((c) => c.name === 'dice')?.status).toBe('pass');
    // The verifier re-derives each of the service's 13 turns at level standard: the same moves.
    expect(report.checks.find((c) => c.name === 'service-moves')).toMatchObject({
      status: 'pass',
      detail: '13 service-made command(s) re-derived, each the one its level makes',
    });

    // A rematch seats the computer again, at its level, with the game's own level.
    const rematch = await t
      .http()
      .post(`/v1/games/${end.id}/rematch`)
      .set('authorization', `Bearer ${ada.token}`)
      .expect(201);
    expect(rematch.body).toMatchObject({ rematchOf: end.id, computerLevel: 'standard', status: 'open' });
    expect(rematch.body.seats[1]).toMatchObject({ seat: 1, playerId: null, computer: 'standard' });

    // The verifier still checks the computer's moves for legality: a turn listed as a score
    // without a roll is refused by the rules (the "commands" check fails at that event).
    const forged = JSON.parse(JSON.stringify(bundle));
    const first = forged.events.find((e: any) => e.command?.type === 'computer');
    first.command.moves = [{ type: 'score', box: 'chance' }];
    const refused = verifyBundle(forged);
    expect(refused.ok).toBe(false);
    const commands = refused.checks.find((c) => c.name === 'commands');
    expect(commands?.status).toBe('fail');
    expect(JSON.stringify(commands)).toMatch(new RegExp(`event ${first.version}`));

    // Statistics: a game with a computer opponent, never a solo record, not a win or loss against players.
    const me = await t.http().get('/v1/players/me').set('authorization', `Bearer ${ada.token}`).expect(200);
    const simple = me.body.stats.find((s: any) => s.ruleSet === 'simple');
    expect(simple).toMatchObject({
      gamesFinished: 1,
      computerGamesFinished: 1,
      soloGamesFinished: 0,
      wins: 0,
      losses: 0,
    });
    expect(simple.computerWins + simple.computerLosses + simple.computerTies).toBe(1);
  });

  it('GraphQL: an optimal computer seat plays Farkle to the end (the table is built meanwhile); the bundle verifies', async () => {
    const client = gqlClient(t);
    const created = await client.create(ada.token, {
      ruleSet: 'farkle',
      seats: 2,
      options: { target: 1500, entryThreshold: 0 },
      computerSeats: [{ seat: 1, level: 'optimal' }],
    });
    const seats = await gql(t, 'query($id: ID!) { game(id: $id) { seats { seat computer } computerLevel } }', {
      id: created.id,
    });
    expect(seats.data.game).toEqual({
      seats: [
        { seat: 0, computer: null },
        { seat: 1, computer: 'optimal' },
      ],
      computerLevel: 'standard',
    });
    const end = await playAgainstComputer(client, await client.start(ada.token, created.id));
    expect(end.status).toBe('finished');
    const events = await eventsOf(poolOf(t), end.id);
    expect(events.some((e) => e.command?.type === 'computer' && e.command.level === 'optimal')).toBe(true);
    // The stored command reads back typed over GraphQL.
    const history = await gql(
      t,
      `query($id: ID!) { gameEventsConnection(gameId: $id, first: 100) { edges { node { issuedCommand {
        ... on ComputerCommand { type seat level moves { type ... on FarkleBankMove { setAside } ... on FarkleRollMove { setAside } } } } } } } }`,
      { id: end.id },
    );
    if (history.errors) throw new Error(JSON.stringify(history.errors));
    const commands = history.data.gameEventsConnection.edges
      .map((e: any) => e.node.issuedCommand)
      .filter((c: any) => c?.level);
    expect(commands[0]).toMatchObject({ type: 'computer', seat: 1, level: 'optimal' });
    expect(commands[0].moves[0]).toEqual({ type: 'roll', setAside: null });
    const bundle = await auditOf(end.id);
    expect(verifyBundle(bundle).ok).toBe(true);
    // Level optimal's moves are re-derived with its solved table; without it they are not checked.
    const options = bundle.ruleSet.options as unknown as FarkleOptions;
    const withTable = verifyBundle(bundle, { optimalTables: () => ({ farkle: solveFarkle(options) }) });
    expect(withTable.checks.find((c) => c.name === 'service-moves')).toMatchObject({ status: 'pass' });
    expect(verifyBundle(bundle).claims.find((c) => c.id === 'service-moves')).toMatchObject({ status: 'not-proved' });
  });

  it('auto-score enters the dice of a player who has not scored after the last roll, and the bundle verifies', async () => {
    const client = restClient(t);
    let v = await client.create(ada.token, {
      ruleSet: 'penta',
      seats: 1,
      options: { autoScoreAfterMs: 100 },
      computerLevel: 'beginner',
    });
    expect(v.ruleOptions ?? v.options).toMatchObject({ autoScoreAfterMs: 100 });
    v = await client.start(ada.token, v.id);
    for (let i = 0; i < 3; i++) v = await client.move(ada.token, v.id, { action: 'roll', body: {} });
    const at = v.version;
    const dice: number[] = v.dice;
    const scored = await waitFor(
      async () => (await eventsOf(poolOf(t), v.id, at)).find((e) => e.type === 'scored'),
      30_000,
      'the auto-score',
    );
    expect(scored.command).toMatchObject({ type: 'autoScore', seat: 0 });
    expect(scored.data.reason).toBe('autoScore');
    // Level beginner: the box with the most points for these dice (ties: the earliest).
    const best = v.fiveDice.scoreOptions.boxes
      .filter((b: any) => b.allowed)
      .reduce((a: any, b: any) => (b.points > a.points ? b : a));
    expect(scored.data).toMatchObject({ box: best.box, points: best.points });
    expect(dice).toHaveLength(5);
    await client.move(ada.token, v.id, { action: 'quit', body: {} });
    const report = verifyBundle(await auditOf(v.id));
    expect(report.ok).toBe(true);
    expect(report.checks.find((c) => c.name === 'service-moves')).toMatchObject({
      status: 'pass',
      detail: '1 service-made command(s) re-derived, each the one its level makes',
    });
  });

  it('a player who scores in time is not auto-scored; a job run twice or late applies at most once', async () => {
    const client = restClient(t);
    const jobs = t.app.get(ComputerService);
    const pool = poolOf(t);
    // A long delay: the test runs the job itself instead of waiting for it.
    let v = await client.start(
      ada.token,
      (await client.create(ada.token, { ruleSet: 'simple', seats: 1, options: { autoScoreAfterMs: 600_000 } })).id,
    );
    for (let i = 0; i < 3; i++) v = await client.move(ada.token, v.id, { action: 'roll', body: {} });
    const { rows } = await pool.query('SELECT payload FROM async_jobs WHERE key = $1', [`auto-score:${v.id}`]);
    expect(rows[0].payload).toEqual({ gameId: v.id, version: v.version, seat: 0 });
    const due = { payload: rows[0].payload };
    const box = v.fiveDice.scoreOptions.boxes.find((b: any) => b.allowed).box;
    v = await client.move(ada.token, v.id, { action: 'score', body: { box } });
    await jobs.run(due, 'auto-score'); // the player scored first: a no-op
    expect((await eventsOf(pool, v.id)).filter((e) => e.command?.type === 'autoScore')).toHaveLength(0);

    // Next turn: the job comes due twice at once (a retry, a second instance): one auto-score.
    for (let i = 0; i < 3; i++) v = await client.move(ada.token, v.id, { action: 'roll', body: {} });
    const again = { payload: { gameId: v.id, version: v.version, seat: 0 } };
    await Promise.all([jobs.run(again, 'auto-score'), jobs.run(again, 'auto-score')]);
    await jobs.run(again, 'auto-score');
    expect((await eventsOf(pool, v.id)).filter((e) => e.command?.type === 'autoScore')).toHaveLength(1);
    await client.move(ada.token, v.id, { action: 'quit', body: {} });
  });

  it("a computer seat's job run several times at once (retries, instances) plays its turn once", async () => {
    // The app's own worker runs the job too: three runners race for the same turn.
    const client = restClient(t);
    let v = await client.create(ada.token, {
      ruleSet: 'simple',
      seats: 2,
      computerSeats: [{ seat: 1, level: 'beginner' }],
    });
    v = await client.start(ada.token, v.id);
    v = await client.move(ada.token, v.id, { action: 'roll', body: {} });
    v = await client.move(ada.token, v.id, { action: 'score', body: { box: 'chance' } });
    expect(v.currentSeat).toBe(1);
    const jobs = t.app.get(ComputerService);
    const due = { payload: { gameId: v.id, version: v.version, seat: 1 } };
    await Promise.all([jobs.run(due, 'computer'), jobs.run(due, 'computer')]);
    await jobs.run(due, 'computer');
    await waitFor(async () => (await client.get(ada.token, v.id)).currentSeat === 0, 30_000, 'the computer turn');
    const events = await eventsOf(poolOf(t), v.id);
    expect(events.filter((e) => e.command?.type === 'computer')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'scored' && e.seat === 1)).toHaveLength(1);
    // Left waiting on Ada (quitting would leave the computer playing on alone in the background).
  });

  it('penta auto-scores after 3 s by default (000); null turns it off; a bad delay is INVALID_OPTIONS', async () => {
    const client = restClient(t);
    const penta = await client.create(ada.token, { ruleSet: 'penta', seats: 1 });
    expect(penta.options.autoScoreAfterMs).toBe(3000);
    const off = await client.create(ada.token, { ruleSet: 'penta', seats: 1, options: { autoScoreAfterMs: null } });
    expect(off.options).not.toHaveProperty('autoScoreAfterMs');
    const simple = await client.create(ada.token, { ruleSet: 'simple', seats: 1 });
    expect(simple.options).not.toHaveProperty('autoScoreAfterMs');
    const before = await storedRows();
    for (const bad of [-1, 1.5, 86_400_001, '3000']) {
      const res = await t
        .http()
        .post('/v1/games')
        .set('authorization', `Bearer ${ada.token}`)
        .send({ ruleSet: 'penta', seats: 1, options: { autoScoreAfterMs: bad } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_OPTIONS');
    }
    expect(await storedRows()).toEqual(before);
  });

  describe('bad computer seats: a clear error, nothing stored', () => {
    const cases: Array<[string, Record<string, unknown>]> = [
      ['an unknown level', { seats: 2, computerSeats: [{ seat: 1, level: 'grandmaster' }] }],
      ['a seat out of range', { seats: 2, computerSeats: [{ seat: 2, level: 'standard' }] }],
      ["the creator's seat", { seats: 2, computerSeats: [{ seat: 0, level: 'standard' }] }],
      [
        'a seat named twice',
        {
          seats: 3,
          computerSeats: [
            { seat: 1, level: 'standard' },
            { seat: 1, level: 'beginner' },
          ],
        },
      ],
      ['a hot seat', { seats: 3, hotSeats: 1, computerSeats: [{ seat: 1, level: 'standard' }] }],
      ['a game whose seats are invalid', { seats: 9, computerSeats: [{ seat: 1, level: 'standard' }] }],
      ['an unknown game computer level', { seats: 2, computerLevel: 'grandmaster' }],
      ['a seat that is not an integer', { seats: 2, computerSeats: [{ seat: 'one', level: 'standard' }] }],
      [
        'computerLevel optimal in a game that forbids advice',
        { seats: 1, advice: 'forbidden', computerLevel: 'optimal' },
      ],
      [
        'computerLevel expert in a game that forbids advice',
        { seats: 1, advice: 'forbidden', computerLevel: 'expert' },
      ],
    ];
    it.each(cases)('REST: %s is VALIDATION_FAILED (400)', async (_what, input) => {
      const before = await storedRows();
      const res = await t
        .http()
        .post('/v1/games')
        .set('authorization', `Bearer ${ada.token}`)
        .send({ ruleSet: 'simple', ...input });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(await storedRows()).toEqual(before);
    });

    it('REST: level optimal with Farkle options the solver does not cover is VALIDATION_FAILED', async () => {
      const before = await storedRows();
      const res = await t
        .http()
        .post('/v1/games')
        .set('authorization', `Bearer ${ada.token}`)
        .send({
          ruleSet: 'farkle',
          seats: 2,
          options: { exactTarget: true },
          computerSeats: [{ seat: 1, level: 'optimal' }],
        });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(res.body)).toContain('exactTarget');
      expect(await storedRows()).toEqual(before);
    });

    it('GraphQL: an unknown level is refused by the ComputerLevel enum; a seat out of range is VALIDATION_FAILED', async () => {
      const before = await storedRows();
      const m = 'mutation($input: CreateGameInput!) { createGame(input: $input) { id } }';
      const unknown = await gql(
        t,
        m,
        { input: { ruleSet: 'simple', seats: 2, computerSeats: [{ seat: 1, level: 'grandmaster' }] } },
        ada.token,
      );
      expect(unknown.errors?.[0].message).toMatch(/ComputerLevel/);
      const range = await gql(
        t,
        m,
        { input: { ruleSet: 'simple', seats: 2, computerSeats: [{ seat: 5, level: 'beginner' }] } },
        ada.token,
      );
      expect(range.errors?.[0].extensions?.code).toBe('VALIDATION_FAILED');
      expect(await storedRows()).toEqual(before);
    });

    it('a computer seat cannot be joined (SEAT_TAKEN), and the game starts without anyone joining', async () => {
      const client = restClient(t);
      const bob = await registerPlayer(t, 'Bob');
      const g = await client.create(ada.token, {
        ruleSet: 'simple',
        seats: 2,
        computerSeats: [{ seat: 1, level: 'beginner' }],
      });
      const res = await t.http().post(`/v1/games/${g.id}/join`).set('authorization', `Bearer ${bob.token}`).send({});
      expect(res.status).toBe(409);
      expect(['NO_OPEN_SEAT', 'SEAT_TAKEN']).toContain(res.body.code);
      const started = await client.start(ada.token, g.id);
      expect(started.status).toBe('playing');
      expect(started.seats[1].clientSeedGenerated).toBe(true);
      await client.move(ada.token, g.id, { action: 'quit', body: {} });
    });
  });
});
