/**
 * The verifier re-derives every move the service chose (service-moves.ts): games played as the
 * service plays them verify; the same games with the boxes of the last two service-made turns
 * swapped (legal, re-scored, the chain re-hashed by the forger) fail at the first differing move.
 */
import { solveFarkle, solveFarkleTwoPlayer, solveFiveDice } from '../rules/advice';
import type { OptimalTables } from '../rules/computer';
import { COMPUTER_LEVELS, type GameCommand } from '../rules/game';
import { RULE_SETS } from '../rules/registry';
import type { AuditBundle } from './audit-bundle';
import { type OptimalTablesFor, solvedTables } from './service-moves';
import {
  bundleOf,
  lastBoxOf,
  planAt,
  type ServiceGame,
  simulateServiceGame,
  stateAfter,
  swapLastTwoBoxes,
  versionOfCommand,
} from './service-move-fixtures';
import { verifyBundle, type VerifyReport } from './verifier';

jest.setTimeout(120_000);

// The cheapest rule sets: five dice without joker or bonus, a short Farkle game.
const FARKLE_SHORT = { target: 3000, entryThreshold: 300 };
let fiveDice: OptimalTables;
let farkle: OptimalTables;
const tables: OptimalTablesFor = (state) => (state.family === 'five-dice' ? fiveDice : farkle);

beforeAll(() => {
  fiveDice = { fiveDice: solveFiveDice(RULE_SETS.simple.options) };
  const options = { ...RULE_SETS.farkle.options, ...FARKLE_SHORT };
  farkle = { farkle: solveFarkle(options), farkleTwoPlayer: solveFarkleTwoPlayer(options) };
});

const check = (r: VerifyReport) => r.checks.find((c) => c.name === 'service-moves');
const claim = (r: VerifyReport) => r.claims.find((c) => c.id === 'service-moves');

/** The forged bundle and the version of the first event the forged turn's box changed. */
function forge(game: ServiceGame, kind: 'computer' | 'autoScore' | 'timeout') {
  const { commands, earlier } = swapLastTwoBoxes(game.commands, kind);
  const bundle: AuditBundle = bundleOf(commands);
  const from = versionOfCommand(bundle, earlier);
  const scored = bundle.events.find((e) => e.version >= from && e.type === 'scored')!;
  return {
    bundle,
    version: scored.version,
    found: lastBoxOf(commands[earlier]),
    was: lastBoxOf(game.commands[earlier]),
  };
}

function expectForgeryNamed(game: ServiceGame, kind: 'computer' | 'autoScore' | 'timeout', level: string) {
  const forged = forge(game, kind);
  // The forgery is legal: every other check passes (the chain re-hashed, the game re-scored).
  const r = verifyBundle(forged.bundle, { optimalTables: tables });
  expect(r.checks.filter((c) => c.status === 'fail').map((c) => c.name)).toEqual(['service-moves']);
  expect(r.ok).toBe(false);
  expect(r.firstBadVersion).toBe(forged.version);
  expect(r.failure).toMatchObject({ name: 'service-moves', version: forged.version });
  expect(r.failure!.detail).toContain(`level ${level}`);
  expect(r.failure!.detail).toMatch(
    kind === 'autoScore'
      ? `: level ${level} enters them in ${forged.was}, the log has ${forged.found}`
      : new RegExp(
          `^move \\d+ of the turn: level ${level} plays \\{"box":"${forged.was}",.*the log has \\{"box":"${forged.found}"`,
        ),
  );
  expect(claim(r)).toMatchObject({ status: 'failed' });
  expect(claim(r)!.detail).toContain(`event version ${forged.version}`);
}

describe.each(COMPUTER_LEVELS)('a five-dice computer seat at level %s', (level) => {
  let game: ServiceGame;
  beforeAll(() => {
    game = simulateServiceGame({ ruleSet: 'simple', computerSeat: level, tables: fiveDice });
  });

  it('verifies, every computer turn re-derived', () => {
    const r = verifyBundle(game.bundle, { optimalTables: tables });
    expect(r.ok).toBe(true);
    expect(r.diceChecked).toBe(true);
    const turns = game.commands.filter((c) => c.type === 'computer').length;
    expect(turns).toBe(13);
    expect(check(r)).toMatchObject({
      status: 'pass',
      detail: `${turns} service-made command(s) re-derived, each the one its level makes`,
    });
    expect(claim(r)).toMatchObject({ status: 'proved' });
  });

  it('names the first differing move when the boxes of its last two turns are swapped', () => {
    expectForgeryNamed(game, 'computer', level);
  });
});

describe.each(COMPUTER_LEVELS)('five dice with auto-score at level %s', (level) => {
  let game: ServiceGame;
  beforeAll(() => {
    game = simulateServiceGame({
      ruleSet: 'simple',
      options: { autoScoreAfterMs: 3000 },
      computerLevel: level,
      autoScore: true,
      tables: fiveDice,
    });
  });

  it('verifies, every auto-score re-derived', () => {
    const r = verifyBundle(game.bundle, { optimalTables: tables });
    expect(r.ok).toBe(true);
    expect(game.commands.filter((c) => c.type === 'autoScore').length).toBeGreaterThanOrEqual(2);
    expect(check(r)).toMatchObject({ status: 'pass' });
  });

  it('names the first differing auto-score when the boxes of the last two are swapped', () => {
    expectForgeryNamed(game, 'autoScore', level);
  });
});

describe('five-dice timeouts at a level other than standard (moves listed in the command)', () => {
  it.each(['beginner', 'optimal'] as const)('level %s: verifies; a swapped box is named', (level) => {
    const game = simulateServiceGame({ ruleSet: 'simple', computerLevel: level, timeoutEvery: 2, tables: fiveDice });
    expect(verifyBundle(game.bundle, { optimalTables: tables })).toMatchObject({ ok: true });
    expectForgeryNamed(game, 'timeout', level);
  });
});

describe.each(COMPUTER_LEVELS)('a Farkle computer seat at level %s', (level) => {
  it('verifies, every computer turn re-derived; a turn played at another level is named', () => {
    const game = simulateServiceGame({ ruleSet: 'farkle', options: FARKLE_SHORT, computerSeat: level, tables: farkle });
    const r = verifyBundle(game.bundle, { optimalTables: tables });
    expect(r.ok).toBe(true);
    expect(check(r)).toMatchObject({ status: 'pass' });
    // The forger replays the computer's last turn that another level plays differently (legal, re-hashed).
    const other = level === 'standard' ? 'beginner' : 'standard';
    let forged: GameCommand[] | null = null;
    for (let at = game.commands.length - 1; at >= 0 && !forged; at--) {
      const c = game.commands[at];
      if (c.type !== 'computer') continue;
      const moves = planAt(stateAfter(game.commands.slice(0, at)), other);
      if (JSON.stringify(moves) !== JSON.stringify(c.moves)) forged = [...game.commands.slice(0, at), { ...c, moves }];
    }
    expect(forged).not.toBeNull();
    const bad = verifyBundle(bundleOf(forged!), { optimalTables: tables });
    expect(bad.checks.filter((c) => c.status === 'fail').map((c) => c.name)).toEqual(['service-moves']);
    expect(bad.failure!.detail).toMatch(new RegExp(`^move \\d+ of the turn: level ${level} plays`));
    expect(bad.firstBadVersion).toBeGreaterThan(versionOfCommand(bundleOf(forged!), forged!.length - 1) - 1);
  });
});

describe('without the solved tables', () => {
  it('reports the moves of level optimal as not checked, with the reason; other levels are checked', () => {
    const optimal = simulateServiceGame({ ruleSet: 'simple', computerSeat: 'optimal', tables: fiveDice });
    const r = verifyBundle(optimal.bundle);
    expect(r.ok).toBe(true);
    expect(check(r)).toMatchObject({ status: 'skipped' });
    expect(check(r)!.detail).toContain(
      '13 not checked: level optimal plays from the solved tables, which were not given',
    );
    expect(claim(r)).toMatchObject({ status: 'not-proved' });
    // even a forgery passes unchecked then: the claim says so
    expect(verifyBundle(forge(optimal, 'computer').bundle)).toMatchObject({ ok: true });

    const beginner = simulateServiceGame({ ruleSet: 'simple', computerSeat: 'beginner' });
    expect(check(verifyBundle(beginner.bundle))).toMatchObject({ status: 'pass' });
    expect(verifyBundle(forge(beginner, 'computer').bundle).failure).toMatchObject({ name: 'service-moves' });
  });

  it('a game without service-made moves passes the check', () => {
    const game = simulateServiceGame({ ruleSet: 'simple' });
    const r = verifyBundle(game.bundle);
    expect(check(r)).toMatchObject({ status: 'pass', detail: 'the service made no move of its own choosing' });
  });
});

describe('level expert in two-seat Farkle', () => {
  let game: ServiceGame;
  beforeAll(() => {
    game = simulateServiceGame({ ruleSet: 'farkle', options: FARKLE_SHORT, computerSeat: 'expert', tables: farkle });
  });

  it('plays from the two-player table, which the verifier needs: without it the moves are not checked, with the reason', () => {
    const withoutTwoPlayer = verifyBundle(game.bundle, { optimalTables: () => ({ farkle: farkle.farkle }) });
    expect(withoutTwoPlayer.ok).toBe(true);
    expect(check(withoutTwoPlayer)).toMatchObject({ status: 'skipped' });
    expect(check(withoutTwoPlayer)!.detail).toContain('not checked: level expert needs the two-player Farkle table');
    expect(check(verifyBundle(game.bundle))!.detail).toContain(
      'not checked: level expert plays from the solved tables, which were not given',
    );
  });

  it('plays differently from optimal: the same game replayed at level optimal is named', () => {
    let forged: GameCommand[] | null = null;
    for (let at = game.commands.length - 1; at >= 0 && !forged; at--) {
      const c = game.commands[at];
      if (c.type !== 'computer') continue;
      const moves = planAt(stateAfter(game.commands.slice(0, at)), 'optimal', farkle);
      if (JSON.stringify(moves) !== JSON.stringify(c.moves)) forged = [...game.commands.slice(0, at), { ...c, moves }];
    }
    expect(forged).not.toBeNull();
    const bad = verifyBundle(bundleOf(forged!), { optimalTables: tables });
    expect(bad.failure!.detail).toMatch(/^move \d+ of the turn: level expert plays/);
  });

  it('solvedTables (fairdice verify) solves the two-player table when a bundle needs it, once', () => {
    const built: string[] = [];
    const r = verifyBundle(game.bundle, { optimalTables: solvedTables((t) => built.push(t)) });
    expect(check(r)).toMatchObject({ status: 'pass' });
    expect(built).toEqual(['farkle', 'two-player Farkle']);
  });
});
