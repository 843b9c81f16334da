/**
 * Every verifier a user can get agrees on real games: the service's command line (`fairdice verify`,
 * dist/src/fairness/cli.js), the `fairdice-verify` package (npm pack, installed offline into an
 * empty directory, run with npx) and the HTML page in headless Chromium (served at GET /verify with
 * its hash-only Content-Security-Policy, and saved to disk and opened from file://). They accept the
 * same real bundles and reject the same tampered ones, naming the same check and event, and show the same transparency log checks (given the log's
 * public key: a wrong key fails log-signature, a tampered inclusion proof fails log-inclusion).
 *
 * A matrix: VERIFIERS × CASES. Add a case to CASES (or a verifier to VERIFIERS) and every pair runs.
 * The browser verifiers run once per CI run (describeOnce).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { cloneBundle, relinkBundle } from '@fairdice/core/fairness/bundle-fixtures';
import type { AuditBundle } from '@fairdice/core/fairness/audit-bundle';
import { logPublicKey, toHex } from '@fairdice/core/fairness/transparency-log';
import { TransparencyLogService } from '../../src/transparency/transparency-log.service';
import { createTestApp, registerPlayer, type TestApp } from '../helpers/app';
import { ensureBuilt, ROOT } from '../helpers/build';
import { chooseMove, playToEnd, restClient } from '../helpers/games';
import { describeOnce } from '../helpers/suites';

jest.setTimeout(300_000);

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// ---------------------------------------------------------------------------------------- outcomes

type Verdict = 'verified' | 'failed' | 'incomplete';

/** What a verifier concluded, in the same terms for all of them. */
interface Outcome {
  verdict: Verdict | 'error';
  /** The check the verifier names as the (first) failure. */
  check: string | null;
  /** The event it names as the first at fault (its required version), or null. */
  version: number | null;
  /** Every check that failed, in the verifier's order. */
  failed: string[];
  /** The transparency log checks as shown, name → pass | fail | skipped. */
  log: Record<string, string>;
  /** The sentence the verifier shows a person about the outcome. */
  text: string;
}

/** What the organizer knows independently of the bundle (each verifier's own way of taking it). */
interface Given {
  commitment?: string;
  heads?: string[];
  /** The transparency log's public key (docs/fairness.md §9.4). */
  logKey?: string;
}

type Expected =
  | { verdict: 'verified'; log?: Record<string, string> }
  | { verdict: 'incomplete' }
  | { verdict: 'failed'; check: string; version: number | null; alsoFailed?: string[]; log?: Record<string, string> };

// ---------------------------------------------------------------------------------------- real games

interface Games {
  penta: AuditBundle;
  farkle: AuditBundle;
  playing: AuditBundle;
  /** The log's public key as the service serves it (GET /v1/transparency/tree-head). */
  logKey: string;
}

let t: TestApp;
let games: Games;
let work: string;

async function playRealGames(): Promise<Games> {
  const alice = await registerPlayer(t, 'Alice');
  const bob = await registerPlayer(t, 'Bob');
  const tokenOf = (id: string) => (id === alice.id ? alice.token : bob.token);
  const client = restClient(t);
  const audit = async (id: string) => (await t.http().get(`/v1/games/${id}/audit`).expect(200)).body as AuditBundle;
  // Seeds after the commitment (docs/fairness.md §2): the creator reads the commitment, then sets
  // the organizer seed and her own; Bob joins with his.
  const start = async (input: Record<string, unknown>) => {
    const view = await client.create(alice.token, { seats: 2, ...input });
    const auth = { authorization: `Bearer ${alice.token}` };
    await t
      .http()
      .put(`/v1/games/${view.id}/seeds`)
      .set(auth)
      .send({ organizer: true, clientSeed: 'cup-2026' })
      .expect(200);
    await t.http().put(`/v1/games/${view.id}/seeds`).set(auth).send({ clientSeed: 'alice:lucky#7' }).expect(200);
    await client.join(bob.token, view.id, { clientSeed: 'bob-picks-this' });
    return client.start(alice.token, view.id);
  };
  const penta = await playToEnd(t, client, await start({ ruleSet: 'penta' }), tokenOf);
  const farkle = await playToEnd(
    t,
    client,
    await start({ ruleSet: 'farkle', options: { target: 2000, entryThreshold: 0 } }),
    tokenOf,
  );
  let playing = await start({ ruleSet: 'simple' });
  for (let i = 0; i < 5; i++)
    playing = await client.move(tokenOf(playing.currentPlayerId), playing.id, chooseMove(playing));
  // The games' leaves (commitment, final head) integrated into a signed tree head before the bundles
  // are fetched, so that they carry both inclusion proofs (as in test/transparency).
  await t.app.get(TransparencyLogService).integrate({ wait: true });
  const treeHead = (await t.http().get('/v1/transparency/tree-head').expect(200)).body as { publicKey: string };
  const out = {
    penta: await audit(penta.id),
    farkle: await audit(farkle.id),
    playing: await audit(playing.id),
    logKey: treeHead.publicKey,
  };
  expect([out.penta.status, out.farkle.status, out.playing.status]).toEqual(['finished', 'finished', 'playing']);
  expect(out.penta.transparencyLog?.entries).toHaveLength(2); // the commitment and the final head
  return out;
}

// ---------------------------------------------------------------------------------------- the cases

const indexOf = (b: AuditBundle, pred: (e: AuditBundle['events'][number]) => boolean): number => {
  const i = b.events.findIndex(pred);
  if (i < 0) throw new Error('the game has no such event');
  return i;
};
/** The third roll of all five dice (nothing held): its faces are exactly the roll. */
const aFullRoll = (b: AuditBundle) => {
  const rolls = b.events
    .map((e, i) => [e, i] as const)
    .filter(([e]) => e.type === 'rolled' && (!Array.isArray(e.data.held) || e.data.held.length === 0));
  return rolls[Math.min(2, rolls.length - 1)][1];
};
const firstRoll = (b: AuditBundle) => indexOf(b, (e) => e.rollNumber !== null);
const seatTaken = (b: AuditBundle, seat: number) => indexOf(b, (e) => e.type === 'seatTaken' && e.seat === seat);
const changeDie = (b: AuditBundle, i: number) => {
  const dice = b.events[i].data.dice as number[];
  dice[0] = (dice[0] % 6) + 1;
};

interface Case {
  name: string;
  /** The bundle to verify (a tampered copy of a real one). */
  bundle: (g: Games) => AuditBundle;
  given?: (g: Games) => Given;
  expected: (g: Games, b: AuditBundle) => Expected;
}

const CASES: Case[] = [
  { name: 'a finished penta game', bundle: (g) => g.penta, expected: () => ({ verdict: 'verified' }) },
  { name: 'a finished farkle game', bundle: (g) => g.farkle, expected: () => ({ verdict: 'verified' }) },
  {
    name: 'a game still in play (seed not revealed: everything but the dice)',
    bundle: (g) => g.playing,
    expected: () => ({ verdict: 'incomplete' }),
  },
  {
    name: 'a finished game against the head the organizer noted',
    bundle: (g) => g.farkle,
    given: (g) => ({ heads: [g.farkle.chainHead] }),
    expected: () => ({ verdict: 'verified' }),
  },
  {
    name: 'a changed die (hash left as is)',
    bundle: (g) => {
      const b = cloneBundle(g.penta);
      changeDie(b, aFullRoll(b));
      return b;
    },
    expected: (_g, b) => ({ verdict: 'failed', check: 'chain', version: aFullRoll(b) + 1 }),
  },
  {
    name: 'a changed die (chain re-linked by a forger)',
    bundle: (g) => {
      const b = cloneBundle(g.farkle);
      changeDie(b, aFullRoll(b));
      return relinkBundle(b);
    },
    expected: (_g, b) => ({ verdict: 'failed', check: 'dice', version: aFullRoll(b) + 1 }),
  },
  {
    name: "a changed client seed (the bundle's player list)",
    bundle: (g) => {
      const b = cloneBundle(g.penta);
      b.players[1].clientSeed = 'not-what-bob-chose';
      return b;
    },
    expected: (_g, b) => ({ verdict: 'failed', check: 'seeds', version: seatTaken(b, 1) + 1 }),
  },
  {
    name: 'a changed client seed (in the log, chain re-linked by a forger)',
    bundle: (g) => {
      const b = cloneBundle(g.penta);
      const seat = seatTaken(b, 1);
      b.events[seat].data.clientSeed = 'not-what-bob-chose';
      (b.events[seat].command as { clientSeed: string }).clientSeed = 'not-what-bob-chose';
      const started = indexOf(b, (e) => e.type === 'gameStarted');
      const seeds = b.events[started].data.clientSeeds as string[] | undefined;
      if (seeds) seeds[1] = 'not-what-bob-chose';
      b.players[1].clientSeed = 'not-what-bob-chose';
      b.clientSeeds![2] = 'not-what-bob-chose';
      return relinkBundle(b);
    },
    expected: (_g, b) => ({ verdict: 'failed', check: 'dice', version: firstRoll(b) + 1 }),
  },
  {
    name: 'the commitment the organizer wrote down, and a head published during play',
    bundle: (g) => g.penta,
    given: (g) => ({ commitment: g.penta.commitment, heads: [g.penta.events[20].hash, g.penta.chainHead] }),
    expected: () => ({ verdict: 'verified' }),
  },
  {
    name: 'a bundle of another game than the commitment written down',
    bundle: (g) => g.farkle,
    given: (g) => ({ commitment: g.penta.commitment }),
    // Named at version 1, the event that carries the commitment.
    expected: () => ({ verdict: 'failed', check: 'expected-commitment', version: 1 }),
  },
  {
    name: 'a head published during play that is not in the log',
    bundle: (g) => g.penta,
    given: (g) => ({ heads: [g.farkle.events[5].hash] }),
    // Not the hash of any version: the verifier names the last event it has.
    expected: (_g, b) => ({ verdict: 'failed', check: 'published-head', version: b.events.length }),
  },
  {
    name: 'a dropped event',
    bundle: (g) => {
      const b = cloneBundle(g.farkle);
      b.events.splice(aFullRoll(b) + 1, 1);
      return b;
    },
    expected: (g) => ({ verdict: 'failed', check: 'chain', version: aFullRoll(g.farkle) + 2 }),
  },
  {
    name: 'a wrong revealed server seed',
    bundle: (g) => {
      const b = cloneBundle(g.penta);
      b.serverSeed = 'ab'.repeat(32);
      return b;
    },
    expected: (_g, b) => ({ verdict: 'failed', check: 'dice', version: firstRoll(b) + 1, alsoFailed: ['commitment'] }),
  },
  {
    name: 'a changed final ranking',
    bundle: (g) => {
      const b = cloneBundle(g.farkle);
      b.finalStandings![0].score += 50;
      return b;
    },
    expected: (_g, b) => ({ verdict: 'failed', check: 'standings', version: b.events.length }),
  },
  {
    name: 'a log cut short of the head the organizer noted',
    bundle: (g) => {
      const b = cloneBundle(g.farkle);
      b.events = b.events.slice(0, -3);
      b.chainHead = b.events[b.events.length - 1].hash;
      return b;
    },
    given: (g) => ({ heads: [g.farkle.chainHead] }),
    // The chain does not reach the noted head: the verifier names the last event it has.
    expected: (_g, b) => ({ verdict: 'failed', check: 'published-head', version: b.events.length }),
  },
  {
    name: "a finished game with the transparency log's public key",
    bundle: (g) => g.penta,
    given: (g) => ({ logKey: g.logKey }),
    expected: () => ({ verdict: 'verified', log: { 'log-inclusion': 'pass', 'log-signature': 'pass' } }),
  },
  {
    name: "a finished game with another log's public key",
    bundle: (g) => g.farkle,
    given: () => ({ logKey: toHex(logPublicKey(new Uint8Array(32).fill(7))) }),
    // Not about one event: the signed tree head does not verify under the key given.
    expected: () => ({
      verdict: 'failed',
      check: 'log-signature',
      version: null,
      log: { 'log-inclusion': 'pass', 'log-signature': 'fail' },
    }),
  },
  {
    name: 'a tampered log inclusion proof (with the right key)',
    bundle: (g) => {
      const b = cloneBundle(g.farkle);
      const entry = b.transparencyLog!.entries[0];
      if (entry.inclusionProof.length === 0) entry.leafIndex += 1;
      else entry.inclusionProof[0] = 'ff'.repeat(32);
      return b;
    },
    given: (g) => ({ logKey: g.logKey }),
    expected: () => ({
      verdict: 'failed',
      check: 'log-inclusion',
      version: null,
      log: { 'log-inclusion': 'fail', 'log-signature': 'pass' },
    }),
  },
];

// ---------------------------------------------------------------------------------------- the verifiers

interface Verifier {
  name: string;
  /** Runs once per CI run (browser). */
  once?: boolean;
  setup?: () => void | Promise<void>;
  teardown?: () => void | Promise<void>;
  verify: (file: string, given: Given) => Promise<Outcome>;
}

const VERDICT_OF_EXIT: Record<number, Verdict> = { 0: 'verified', 1: 'failed', 3: 'incomplete' };

/** A command-line verifier: the JSON report for the outcome, the text report for the sentence. */
function commandLine(run: (args: string[]) => { code: number | null; out: string; err: string }) {
  return (file: string, given: Given): Promise<Outcome> => {
    const args = [
      'verify',
      file,
      ...(given.commitment ? ['--commitment', given.commitment] : []),
      ...(given.heads ?? []).flatMap((h) => ['--head', h]),
      ...(given.logKey ? ['--log-key', given.logKey] : []),
    ];
    const json = run([...args, '--json']);
    const text = run(args);
    expect(json.err).toBe('');
    expect(text.code).toBe(json.code);
    const report = JSON.parse(json.out);
    expect(report.exitCode).toBe(json.code);
    return Promise.resolve({
      verdict: VERDICT_OF_EXIT[json.code ?? -1] ?? 'error',
      check: report.failure?.name ?? null,
      version: report.firstBadVersion,
      failed: report.checks.filter((c: { status: string }) => c.status === 'fail').map((c: { name: string }) => c.name),
      log: Object.fromEntries(
        (report.checks as Array<{ name: string; status: string }>)
          .filter((c) => c.name.startsWith('log-'))
          .map((c) => [c.name, c.status]),
      ),
      text: text.out.trim().split('\n').at(-1) ?? '',
    });
  };
}

const spawn = (cmd: string, args: string[], cwd?: string) => {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

let installDir: string;

/** The page in a browser: picks the bundle with the file input, reads the verdict the page shows. */
function inBrowser(url: () => string) {
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  return {
    setup: async () => {
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
      page = await browser.newPage();
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
      });
      page.on('request', (r) => {
        if (r.url() !== url()) problems.push(`request: ${r.url()}`);
      });
    },
    teardown: async () => {
      await browser?.close();
      // No CSP violation, no script error, no network request beyond the page itself.
      expect(problems).toEqual([]);
    },
    verify: async (file: string, given: Given): Promise<Outcome> => {
      await page.goto(url());
      await page.waitForSelector('body[data-ready="true"]');
      await page.fill('#commitment', given.commitment ?? '');
      await page.fill('#heads', (given.heads ?? []).join('\n'));
      await page.fill('#log-key', given.logKey ?? '');
      await page.setInputFiles('#file', file);
      const verdict = page.locator('#verdict[data-status]');
      await verdict.waitFor();
      const data = (await verdict.evaluate((el) => ({
        ...(el as unknown as { dataset: Record<string, string> }).dataset,
        text: el.textContent ?? '',
      }))) as { status: string; failedCheck?: string; firstBadVersion?: string; text: string };
      const failed = await page.$$eval('#checks tr[data-status="fail"]', (rows) =>
        rows.map((r) => (r as unknown as { dataset: Record<string, string> }).dataset.check ?? ''),
      );
      const log = await page.$$eval('#checks tr[data-check^="log-"]', (rows) =>
        rows.map((r) => {
          const d = (r as unknown as { dataset: Record<string, string> }).dataset;
          return [d.check ?? '', d.status ?? ''] as const;
        }),
      );
      return {
        verdict: data.status as Verdict,
        check: data.failedCheck ?? null,
        version: data.firstBadVersion === undefined ? null : Number(data.firstBadVersion),
        failed,
        log: Object.fromEntries(log),
        text: data.text,
      };
    },
  };
}

let serverUrl = '';
let savedPage = '';
const served = inBrowser(() => `${serverUrl}/verify`);
const saved = inBrowser(() => pathToFileURL(savedPage).href);

const VERIFIERS: Verifier[] = [
  {
    name: 'service CLI (fairdice verify)',
    verify: commandLine((args) => spawn(process.execPath, [join(ROOT, 'dist', 'src', 'fairness', 'cli.js'), ...args])),
  },
  {
    name: 'fairdice-verify tarball (installed offline, npx)',
    setup: () => {
      const packDir = mkdtempSync(join(tmpdir(), 'fairdice-pack-'));
      execFileSync('npm', ['pack', '--silent', '--pack-destination', packDir], {
        cwd: join(ROOT, 'packages', 'verifier'),
        stdio: 'pipe',
      });
      const [tarball] = readdirSync(packDir).filter((f) => f.endsWith('.tgz'));
      installDir = mkdtempSync(join(tmpdir(), 'fairdice-install-'));
      writeFileSync(
        join(installDir, 'package.json'),
        JSON.stringify({ name: 'organizer', version: '1.0.0', private: true }),
      );
      execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', join(packDir, tarball)], {
        cwd: installDir,
        stdio: 'pipe',
      });
      // The tarball brought nothing else: one package, no dependencies.
      expect(readdirSync(join(installDir, 'node_modules')).filter((f) => !f.startsWith('.'))).toEqual([
        'fairdice-verify',
      ]);
    },
    verify: commandLine((args) => spawn('npx', ['--offline', 'fairdice-verify', ...args], installDir)),
  },
  { name: 'HTML page served at GET /verify (Chromium)', once: true, ...served },
  { name: 'HTML page saved to disk, opened from file:// (Chromium)', once: true, ...saved },
];

// ---------------------------------------------------------------------------------------- the matrix

/** outcomes[case][verifier] */
const outcomes = new Map<string, Map<string, Outcome>>();

beforeAll(async () => {
  ensureBuilt();
  t = await createTestApp({ listen: true });
  serverUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  games = await playRealGames();
  work = mkdtempSync(join(tmpdir(), 'fairdice-verifiers-'));
  savedPage = join(work, 'fairdice-verify.html');
  writeFileSync(savedPage, (await t.http().get('/verify').expect(200)).text);
});
afterAll(() => t?.close());

const fileFor = (c: Case) => {
  const file = join(work, `${CASES.indexOf(c)}.json`);
  writeFileSync(file, JSON.stringify(c.bundle(games), null, 2));
  return file;
};

for (const v of VERIFIERS) {
  (v.once ? describeOnce : describe)(v.name, () => {
    if (v.setup) beforeAll(() => v.setup!());
    if (v.teardown) afterAll(() => v.teardown!());

    it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
      const bundle = c.bundle(games);
      const outcome = await v.verify(fileFor(c), c.given?.(games) ?? {});
      const expected = c.expected(games, bundle);
      if (!outcomes.has(c.name)) outcomes.set(c.name, new Map());
      outcomes.get(c.name)!.set(v.name, outcome);

      expect(outcome.verdict).toBe(expected.verdict);
      // Every verifier shows the transparency log checks (skipped signature without a key).
      expect(outcome.log).toEqual(
        'log' in expected && expected.log
          ? expected.log
          : { 'log-inclusion': expect.any(String), 'log-signature': c.given?.(games).logKey ? 'pass' : 'skipped' },
      );
      if (expected.verdict === 'verified') {
        expect(outcome).toMatchObject({ check: null, version: null, failed: [] });
        expect(outcome.text).toBe('VERIFIED: every check passed.');
      } else if (expected.verdict === 'incomplete') {
        expect(outcome.failed).toEqual([]);
        expect(outcome.text).toMatch(/^NOT COMPLETE: .*server seed is not revealed yet/);
      } else {
        expect({ check: outcome.check, version: outcome.version }).toEqual({
          check: expected.check,
          version: expected.version,
        });
        expect(outcome.failed).toEqual(expect.arrayContaining([expected.check, ...(expected.alsoFailed ?? [])]));
        // The sentence a person reads names the event at fault and the check.
        expect(outcome.text).toContain(
          expected.version !== null
            ? `FAILED: event version ${expected.version} does not check out (${expected.check}: `
            : `FAILED: ${expected.check}: `,
        );
      }
    });
  });
}

describe('agreement', () => {
  it('every verifier that ran reached the same outcome on every case (verdict, named check and event, failed checks)', () => {
    expect([...outcomes.keys()].sort()).toEqual(CASES.map((c) => c.name).sort());
    for (const [name, byVerifier] of outcomes) {
      const distinct = new Set(
        [...byVerifier.values()].map((o) => JSON.stringify({ ...o, text: o.text.replace(/\s+/g, ' ') })),
      );
      expect({ case: name, verifiers: byVerifier.size, distinct: distinct.size }).toEqual({
        case: name,
        verifiers: VERIFIERS.filter((v) => !v.once || process.env.FAIRDICE_SKIP_ONCE_SUITES !== '1').length,
        distinct: 1,
      });
    }
  });
});

describe('GET /verify', () => {
  it('serves the page with a policy that admits its one inline script and style by SHA-256, and nothing else', async () => {
    const res = await t.http().get('/verify').expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = res.text;
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1];
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1];
    const hash = (s: string) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;
    const csp = res.headers['content-security-policy'];
    expect(csp.split('; ')).toEqual([
      "default-src 'none'",
      `script-src ${hash(script)}`,
      `style-src ${hash(style)}`,
      "img-src 'none'",
      "connect-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ]);
    // The copy saved to disk carries the same policy (less frame-ancestors, which a <meta> cannot set).
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)![1];
    expect(meta).toBe(csp.replace("; frame-ancestors 'none'", ''));
    expect(html.match(/<script|<link|<img|<iframe|src=|href="http/g)).toEqual(['<script']);
    // A revalidation (304) carries the same policy: a browser updates its stored headers with it.
    const again = await t.http().get('/verify').set('if-none-match', res.headers.etag).expect(304);
    expect(again.headers['content-security-policy']).toBe(csp);
    // The API keeps its strict policy.
    expect((await t.http().get('/health').expect(200)).headers['content-security-policy']).toMatch(
      /^default-src 'none'; frame-ancestors/,
    );
  });
});
