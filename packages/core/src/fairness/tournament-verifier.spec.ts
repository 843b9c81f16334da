/**
 * verifyTournamentBundle's replay of the tournament's commands (issue 24 item 4, docs/fairness.md
 * §11.2 `tournament-commands`) on a bundle built as the service builds it: a tournament cancelled
 * before its start (no games), made by the tournament decider and hash-chained. Forged copies are
 * re-linked, as a forger would, so only the command replay can catch them.
 */
import { computeStandings, decideTournament, emptyTournament, evolveTournament } from '../rules/tournament';
import type { TournamentCommand } from '../rules/tournament/types';
import { isRuleError } from '../rules/core/errors';
import { bytesToHex, hexToBytes, sha256Hex } from './bytes';
import { canonicalJson } from './canonical';
import { appendEvent } from './hash-chain';
import { gamesRoot, TOURNAMENT_AUDIT_FORMAT, verifyTournamentBundle } from './tournament-verifier';

const id = '5f0c6c4e-9a37-4c1e-8d2a-3b4c5d6e7f81';
const seed = bytesToHex(new Uint8Array(32).fill(9));
const at = '2026-12-01T10:00:00.000Z';

function cancelledTournament() {
  let state = emptyTournament(id);
  const rows: Array<{ type: string; data: unknown; command: TournamentCommand | null }> = [];
  const run = (command: TournamentCommand) => {
    const events = decideTournament(state, command);
    if (isRuleError(events)) throw new Error(`${command.type}: ${events.code} ${events.message}`);
    events.forEach((e, i) => {
      rows.push({ type: e.type, data: e.data, command: i === 0 ? command : null });
      state = evolveTournament(state, e);
    });
  };
  run({
    type: 'create',
    tournamentId: id,
    organizerId: 'org',
    commitment: sha256Hex(hexToBytes(seed)),
    at,
    settings: {
      name: 'Cup',
      ruleSet: 'simple',
      options: {},
      format: 'duplicate',
      visibility: 'public',
      maxEntrants: 4,
      rounds: 1,
      gamesPerRound: 1,
      tableSizeMin: 1,
      tableSizeMax: 1,
      turnTimeLimitSeconds: null,
      entryClosesAt: null,
      startsAt: null,
    },
  });
  run({ type: 'register', playerId: 'ann', clientSeed: 'ann-seed', clientSeedGenerated: false, at });
  run({ type: 'register', playerId: 'bob', clientSeed: 'bob-seed', clientSeedGenerated: false, at });
  run({ type: 'withdraw', playerId: 'bob', entrantPlayerId: 'bob', reason: 'busy' });
  run({ type: 'cancel', playerId: 'org', reason: 'too few', tournamentSeed: seed });
  return { state, rows };
}

const honest = cancelledTournament();

/** The bundle of these rows, hash-chained from the tournament's commitment (standings: the honest tournament's). */
function bundleOf(rows: typeof honest.rows) {
  const { state } = honest;
  let prev = state.commitment;
  const events = rows.map((r, i) => {
    const h = appendEvent(prev, {
      gameId: id,
      version: i + 1,
      type: r.type,
      seat: null,
      data: JSON.parse(JSON.stringify(r.data)),
      rollNumber: null,
      command: r.command === null ? null : JSON.parse(JSON.stringify(r.command)),
    });
    prev = h.hash;
    return {
      version: i + 1,
      type: r.type,
      dataJson: canonicalJson(h.data),
      commandJson: h.command === null ? null : canonicalJson(h.command),
      prevHash: h.prevHash,
      hash: h.hash,
    };
  });
  return {
    format: TOURNAMENT_AUDIT_FORMAT,
    formatVersion: 1,
    tournamentId: id,
    commitment: state.commitment,
    tournamentSeed: seed,
    events,
    games: [],
    standings: computeStandings(state),
    gamesRoot: gamesRoot([]),
  };
}

describe('verifyTournamentBundle: tournament-commands', () => {
  const { rows } = honest;

  it('passes the tournament the decider made, and the commitment and heads written down', () => {
    const b = bundleOf(rows);
    const report = verifyTournamentBundle(b, { commitment: b.commitment, heads: [b.events[2].hash] });
    expect(report.failure).toBeNull();
    expect(report.checks.map((c) => c.name)).toEqual(
      expect.arrayContaining(['tournament-commands', 'expected-commitment', 'published-head']),
    );
  });

  it('fails swapped registrations, re-linked, naming the first event out of order', () => {
    const swapped = [rows[0], rows[2], rows[1], ...rows.slice(3)];
    const report = verifyTournamentBundle(bundleOf(swapped));
    expect(report.failure?.name).toBe('tournament-commands');
    expect(report.failure?.detail).toMatch(/^event 2: re-running the register command/);
  });

  it('fails a command the rules refuse there: a withdrawal made by someone else than the entrant or the organizer', () => {
    const forged = rows.map((r) =>
      r.command?.type === 'withdraw' ? { ...r, command: { ...r.command, playerId: 'ann' } } : r,
    );
    const report = verifyTournamentBundle(bundleOf(forged));
    expect(report.failure?.name).toBe('tournament-commands');
    expect(report.failure?.detail).toContain('NOT_ORGANIZER');
  });

  it('fails an event no command yields, and a first event without the create command', () => {
    const extra = [...rows.slice(0, 2), { ...rows[1], command: null }, ...rows.slice(2)];
    expect(verifyTournamentBundle(bundleOf(extra)).failure?.name).toBe('tournament-commands');
    const noCreate = [{ ...rows[0], command: null }, ...rows.slice(1)];
    expect(verifyTournamentBundle(bundleOf(noCreate)).failure).toMatchObject({
      name: 'tournament-commands',
      detail: 'event 1 starts a batch but carries no command',
    });
  });
});
