/**
 * The `fairdice` binary as users run it: `node dist/src/fairness/cli.js verify <file>` (after
 * `npm run build`; rebuilt here when the compiled CLI or @fairdice/core is older than its sources). Exit 0 on a good
 * bundle, 1 naming the event on a tampered one, 3 (0 with --allow-unrevealed) before the reveal,
 * 2 on bad input. It loads nothing from @nestjs, @prisma, src/database or src/games.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { attachLogProof, cloneBundle, relinkBundle, simulateGame } from '@fairdice/core/fairness/bundle-fixtures';
import {
  bundleOf,
  simulateServiceGame,
  swapLastTwoBoxes,
  versionOfCommand,
} from '@fairdice/core/fairness/service-move-fixtures';
import { fromHex, logPublicKey, toHex } from '@fairdice/core/fairness/transparency-log';
import { solveFiveDice } from '@fairdice/core/rules/advice';
import { RULE_SETS } from '@fairdice/core/rules/registry';

jest.setTimeout(300_000);

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'src', 'fairness', 'cli.js');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts'))
      newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

function run(args: string[]) {
  const res = spawnSync(process.execPath, ['-r', join(dir, 'guard.js'), CLI, ...args], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: res.status, out: res.stdout, err: res.stderr };
}

let dir: string;

beforeAll(() => {
  let built = 0;
  try {
    built = statSync(CLI).mtimeMs;
  } catch {
    built = 0;
  }
  let builtCore = 0;
  try {
    builtCore = statSync(join(ROOT, 'packages', 'core', 'dist', 'index.js')).mtimeMs;
  } catch {
    builtCore = 0;
  }
  const sources = Math.max(
    newestSource(join(ROOT, 'src', 'fairness')),
    newestSource(join(ROOT, 'packages', 'core', 'src')),
  );
  if (Math.min(built, builtCore) < sources) {
    execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'pipe', timeout: 280_000 });
  }
  dir = mkdtempSync(join(tmpdir(), 'fairdice-cli-'));
  // Fails the process if the CLI loads anything it must not depend on.
  writeFileSync(
    join(dir, 'guard.js'),
    `const M = require('module'); const load = M._load;
     M._load = function (request, parent, isMain) {
       const banned = /^@nestjs\\/|^@prisma\\/|[\\\\/]src[\\\\/](database|games|event-store|audit)[\\\\/]|^pg$/;
       if (banned.test(request) || (parent && banned.test(String(parent.filename)) )) { console.error('BANNED IMPORT ' + request); process.exit(99); }
       return load.apply(this, arguments);
     };`,
  );
});

describe('fairdice verify (compiled CLI)', () => {
  const game = simulateGame({
    ruleSet: 'farkle',
    seats: 2,
    options: { target: 2000, entryThreshold: 0 },
    organizerSeed: 'org',
  }).bundle;

  it('exits 0 on a good bundle and prints the summary', () => {
    const file = join(dir, 'good.json');
    writeFileSync(file, JSON.stringify(game));
    const r = run(['verify', file]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain(`game      ${game.gameId}`);
    expect(r.out).toContain('rule set  farkle (farkle), status finished');
    expect(r.out).toContain(`head      ${game.chainHead}`);
    expect(r.out).toMatch(/ranking {3}1\. seat \d/);
    expect(r.out).toContain('VERIFIED');
    expect(run(['verify', file, '--head', game.chainHead]).code).toBe(0);
    const json = run(['verify', file, '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out)).toMatchObject({
      exitCode: 0,
      ok: true,
      diceChecked: true,
      summary: { gameId: game.gameId },
    });
  });

  it('exits 1 naming the version of a tampered event', () => {
    const forged = cloneBundle(game);
    const i = forged.events.findIndex((e) => e.type === 'banked');
    forged.events[i].data.points = (forged.events[i].data.points as number) + 50;
    relinkBundle(forged);
    const file = join(dir, 'forged.json');
    writeFileSync(file, JSON.stringify(forged));
    const r = run(['verify', file]);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`FAILED: event version ${i + 1} does not check out`);
    expect(JSON.parse(run(['verify', file, '--json']).out)).toMatchObject({
      exitCode: 1,
      ok: false,
      firstBadVersion: i + 1,
    });
  });

  it('--commitment, repeatable --head and the --json claims of an organizer', () => {
    const good = join(dir, 'good2.json');
    writeFileSync(good, JSON.stringify(game));
    // heads published during play are versions of the log: accepted, but completeness is not proved
    const mid = run(['verify', good, '--head', game.events[5].hash, '--head', game.events[9].hash, '--json']);
    expect(mid.code).toBe(0);
    const midReport = JSON.parse(mid.out);
    expect(midReport.summary.publishedHeads).toEqual([
      { head: game.events[5].hash, version: 6 },
      { head: game.events[9].hash, version: 10 },
    ]);
    expect(midReport.claims).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: 'log-matches-published-heads', status: 'proved' }),
        expect.objectContaining({ id: 'log-complete', status: 'not-proved' }),
        expect.objectContaining({ id: 'commitment-announced', status: 'not-proved' }),
      ]),
    );
    // the commitment written down before play, and the final head
    const full = run(['verify', good, `--commitment=${game.commitment.toUpperCase()}`, '--head', game.chainHead]);
    expect(full.code).toBe(0);
    expect(full.out).toMatch(/PROVED +This is the game whose commitment was written down before play/);
    expect(full.out).toMatch(/PROVED +The log is complete/);
    // a head that is not in the log, a wrong commitment: exit 1
    const stranger = run(['verify', good, '--head', 'cd'.repeat(32)]);
    expect(stranger.code).toBe(1);
    expect(stranger.out).toMatch(/FAIL {2}published-head.*not the hash of any version/);
    const wrong = run(['verify', good, '--commitment', 'ef'.repeat(32)]);
    expect(wrong.code).toBe(1);
    expect(wrong.out).toMatch(/FAIL {2}expected-commitment/);
    // malformed options: exit 2
    expect(run(['verify', good, '--head', 'xyz']).code).toBe(2);
    expect(run(['verify', good, '--commitment']).code).toBe(2);
    expect(run(['verify', good, '--commitment', game.commitment, '--commitment', game.commitment]).code).toBe(2);
  });

  it('a member outside the hashed envelope (an unhashed "note") is refused', () => {
    const noted = cloneBundle(game) as unknown as { events: Array<Record<string, unknown>> };
    noted.events[3].note = 'the server says this roll was fine';
    const file = join(dir, 'noted.json');
    writeFileSync(file, JSON.stringify(noted));
    const r = run(['verify', file]);
    expect(r.code).toBe(1);
    expect(r.out).toContain('FAILED: event version 4 does not check out (chain: unknown envelope member "note"');
  });

  it('exits 3 before the reveal (0 with --allow-unrevealed), 2 on bad input', () => {
    const open = simulateGame({ ruleSet: 'simple', seats: 2, maxCommands: 8 }).bundle;
    const file = join(dir, 'open.json');
    writeFileSync(file, JSON.stringify(open));
    const r = run(['verify', file]);
    expect(r.code).toBe(3);
    expect(r.out).toContain('cannot be checked yet');
    expect(run(['verify', file, '--allow-unrevealed']).code).toBe(0);
    expect(run(['verify', join(dir, 'missing.json')]).code).toBe(2);
    writeFileSync(join(dir, 'bad.json'), '{not json');
    expect(run(['verify', join(dir, 'bad.json')]).code).toBe(2);
    expect(run(['frobnicate']).code).toBe(2);
    expect(run(['verify']).code).toBe(2);
  });

  it('--log-key: 0 with the log proof signed by that key, 1 with another key or no proof, 2 on a malformed key', () => {
    const priv = fromHex('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60');
    const key = toHex(logPublicKey(priv));
    const logged = join(dir, 'logged.json');
    writeFileSync(logged, JSON.stringify(attachLogProof(cloneBundle(game), priv)));
    const ok = run(['verify', logged, '--log-key', key]);
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/PASS {2}log-inclusion: created and ended leaf in the log of size 10/);
    expect(ok.out).toMatch(/PASS {2}log-signature: tree head of size 10/);
    expect(run(['verify', logged, `--log-key=${key.toUpperCase()}`]).code).toBe(0);
    const other = run(['verify', logged, '--log-key', toHex(logPublicKey(new Uint8Array(32).fill(1)))]);
    expect(other.code).toBe(1);
    expect(other.out).toContain('FAILED: log-signature');
    const plain = join(dir, 'plain.json');
    writeFileSync(plain, JSON.stringify(game));
    expect(run(['verify', plain, '--log-key', key]).code).toBe(1);
    expect(run(['verify', plain]).out).toMatch(/SKIP {2}log-signature/);
    expect(run(['verify', logged, '--log-key', 'abc']).code).toBe(2);
  });

  it('re-derives the moves of a computer seat at level optimal (solving its table) and names the first that differs', () => {
    // A forger swaps the boxes of the computer's last two turns, re-scores and re-hashes the log.
    const tables = { fiveDice: solveFiveDice(RULE_SETS.simple.options) };
    const game = simulateServiceGame({ ruleSet: 'simple', computerSeat: 'optimal', tables });
    const { commands, earlier } = swapLastTwoBoxes(game.commands, 'computer');
    const forged = bundleOf(commands);
    const from = versionOfCommand(forged, earlier);
    const version = forged.events.find((e) => e.version >= from && e.type === 'scored')!.version;
    const file = join(dir, 'computer-forged.json');
    writeFileSync(file, JSON.stringify(forged));
    const r = run(['verify', file]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(
      new RegExp(`FAIL {2}service-moves \\[event version ${version}\\]: move \\d+ of the turn: level optimal plays`),
    );
    expect(r.out).toMatch(/FAILED +Every move the service chose/);
    expect(r.out).toContain(`FAILED: event version ${version} does not check out (service-moves: `);
    expect(r.err).toContain('solving the five-dice table of level optimal');
  });
});
