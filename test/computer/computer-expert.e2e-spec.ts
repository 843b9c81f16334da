/**
 * Computer level `expert` in the service (issue 31; docs/advice.md "Computer players", decision
 * 0146): a two-seat Farkle game against an `expert` seat plays to the end (the two-player table is
 * built meanwhile, small target) and its audit bundle verifies, the expert's moves re-derived with
 * the two-player table; bad `expert` seats and levels are refused at creation, nothing stored.
 */
import { verifyBundle } from '@fairdice/core/fairness/verifier';
import { solveFarkleTwoPlayer } from '@fairdice/core/rules/advice';
import type { FarkleOptions } from '@fairdice/core/rules/farkle';
import { createTestApp, registerPlayer, type TestApp } from '../helpers/app';
import { chooseMove, countCreatedBy, poolOf, restClient } from '../helpers/games';
import { eventsOf, waitFor } from '../async/helpers';

jest.setTimeout(180_000);

/** A small target: the two-player table solves in a fraction of a second (no entry threshold: chooseMove ignores it). */
const SMALL = { target: 2000, entryThreshold: 0 };

describe('computer level expert', () => {
  let t: TestApp;
  let ada: { id: string; token: string };

  beforeAll(async () => {
    t = await createTestApp({ env: { JOBS_POLL_INTERVAL_MS: '50' } });
    ada = await registerPlayer(t, 'Ada');
  });
  afterAll(() => t?.close());

  it('a two-seat Farkle game against an expert seat plays to the end; the bundle verifies and re-derives its moves', async () => {
    const client = restClient(t);
    const created = await client.create(ada.token, {
      ruleSet: 'farkle',
      seats: 2,
      options: SMALL,
      computerSeats: [{ seat: 1, level: 'expert' }],
    });
    expect(created.seats[1]).toMatchObject({ seat: 1, playerId: null, computer: 'expert' });
    let v = await client.start(ada.token, created.id);
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
        `the expert's move after version ${at}`,
      );
    }
    expect(v.status).toBe('finished');
    const events = await eventsOf(poolOf(t), v.id);
    const turns = events.filter((e) => e.command?.type === 'computer');
    expect(turns.length).toBeGreaterThan(0);
    expect(turns.every((e) => e.command?.level === 'expert')).toBe(true);

    const bundle = (
      await t.http().get(`/v1/games/${v.id}/audit`).set('authorization', `Bearer ${ada.token}`).expect(200)
    ).body;
    const report = verifyBundle(bundle);
    expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(report.ok).toBe(true);
    // With the two-player table, every expert turn is re-derived: the same moves.
    const options = bundle.ruleSet.options as unknown as FarkleOptions;
    const withTable = verifyBundle(bundle, {
      optimalTables: () => ({ farkleTwoPlayer: solveFarkleTwoPlayer(options) }),
    });
    expect(withTable.checks.find((c) => c.name === 'service-moves')).toMatchObject({ status: 'pass' });
  });

  describe('bad expert seats and levels: 400 VALIDATION_FAILED, nothing stored', () => {
    it.each([
      [
        'an expert seat in a three-seat Farkle game',
        { seats: 3, options: SMALL, computerSeats: [{ seat: 1, level: 'expert' }] },
      ],
      [
        'an expert seat with exactTarget',
        { seats: 2, options: { ...SMALL, exactTarget: true }, computerSeats: [{ seat: 1, level: 'expert' }] },
      ],
      [
        'an expert seat with a three-farkle penalty',
        { seats: 2, options: { ...SMALL, threeFarklePenalty: 500 }, computerSeats: [{ seat: 1, level: 'expert' }] },
      ],
      [
        'an expert seat with a target above the two-player solver’s largest',
        { seats: 2, options: { target: 25_000 }, computerSeats: [{ seat: 1, level: 'expert' }] },
      ],
      [
        'computerLevel expert in a game that forbids advice',
        { seats: 2, advice: 'forbidden', computerLevel: 'expert' },
      ],
    ])('%s', async (_what, input) => {
      const before = await countCreatedBy(t, ada.id);
      const res = await t
        .http()
        .post('/v1/games')
        .set('authorization', `Bearer ${ada.token}`)
        .send({ ruleSet: 'farkle', ...input });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
      expect(await countCreatedBy(t, ada.id)).toEqual(before);
    });

    it('an expert computer seat is allowed in a game that forbids advice (an opponent)', async () => {
      await t
        .http()
        .post('/v1/games')
        .set('authorization', `Bearer ${ada.token}`)
        .send({
          ruleSet: 'farkle',
          seats: 2,
          options: SMALL,
          advice: 'forbidden',
          computerSeats: [{ seat: 1, level: 'expert' }],
        })
        .expect(201);
    });
  });
});
