/**
 * docs/api.md's walk-throughs are real scripts (docs/examples/*.sh, curl + jq). This runs them
 * against the real app, so the documented requests cannot drift from the API.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyBundle } from '@fairdice/core/fairness/verifier';
import { verifyTournamentBundle } from '@fairdice/core/fairness/tournament-verifier';
import { createTestApp, type TestApp } from '../helpers/app';

const examples = join(__dirname, '..', '..', 'docs', 'examples');

function runScript(
  script: string,
  base: string,
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', [join(examples, script)], { cwd, env: { ...process.env, BASE: base } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('docs/api.md walk-throughs', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    const address = t.app.getHttpServer().address() as { port: number };
    base = `http://127.0.0.1:${address.port}`;
  });
  afterAll(() => t.close());

  it('the REST script plays a two-player game to the end and downloads a bundle that verifies', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fairdice-walkthrough-'));
    const { code, stdout, stderr } = await runScript('rest-walkthrough.sh', base, dir);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const final = JSON.parse(
      stdout
        .trim()
        .split('\n')
        .find((l) => l.startsWith('{'))!,
    );
    expect(final.status).toBe('finished');
    expect(final.standings.map((s: { displayName: string }) => s.displayName).sort()).toEqual(['Ada', 'Bob']);
    expect(final.serverSeedRevealed).toBe(true);
    const bundleFile = readdirSync(dir).find((f) => f.startsWith('fairdice-'))!;
    const bundle = JSON.parse(readFileSync(join(dir, bundleFile), 'utf8'));
    // The players supplied their own seeds after the commitment (none generated).
    expect(bundle.players.map((p: { clientSeedGenerated: boolean }) => p.clientSeedGenerated)).toEqual([false, false]);
    expect(bundle.events.filter((e: { type: string }) => e.type === 'seedSet')).toHaveLength(1);
    const report = verifyBundle(bundle, { commitment: final.commitment });
    expect(report).toMatchObject({ ok: true, diceChecked: true });
    expect(report.claims.find((c) => c.id === 'entropy-after-commitment')).toMatchObject({ status: 'proved' });
  }, 120_000);

  it('the GraphQL script plays the same game to the end', async () => {
    const { code, stdout, stderr } = await runScript('graphql-walkthrough.sh', base, tmpdir());
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const final = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(final.status).toBe('finished');
    expect(final.standings).toHaveLength(2);
    expect(final.standings[0].rank).toBe(1);
    const gameId = /game ([0-9a-f-]{36}) started/.exec(stdout)![1];
    const bundle = (await t.http().get(`/v1/games/${gameId}/audit`).expect(200)).body;
    expect(bundle.players.map((p: { clientSeedGenerated: boolean }) => p.clientSeedGenerated)).toEqual([false, false]);
    expect(verifyBundle(bundle, { commitment: final.commitment })).toMatchObject({ ok: true, diceChecked: true });
  }, 120_000);

  it('the tournament script runs a duplicate tournament to the end and downloads a bundle that verifies', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fairdice-tournament-walkthrough-'));
    const { code, stdout, stderr } = await runScript('tournament-walkthrough.sh', base, dir);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const standings = JSON.parse(
      stdout
        .trim()
        .split('\n')
        .find((l) => l.startsWith('{'))!,
    );
    expect(standings.status).toBe('finished');
    expect(standings.rows.map((r: { displayName: string }) => r.displayName).sort()).toEqual(['Ada', 'Bob']);
    const bundleFile = readdirSync(dir).find((f) => f.startsWith('fairdice-tournament-'))!;
    const bundle = JSON.parse(readFileSync(join(dir, bundleFile), 'utf8'));
    expect(bundle.games).toHaveLength(2);
    expect(verifyTournamentBundle(bundle)).toMatchObject({ ok: true, failure: null });
  }, 180_000);

  it('the tournament GraphQL script runs the same tournament to the end; its bundle verifies', async () => {
    const { code, stdout, stderr } = await runScript('tournament-graphql-walkthrough.sh', base, tmpdir());
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const standings = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(standings.status).toBe('finished');
    expect(standings.rows.map((r: { displayName: string }) => r.displayName).sort()).toEqual(['Ada', 'Bob']);
    const id = /tournament ([0-9a-f-]{36})/.exec(stdout)![1];
    const bundle = (await t.http().get(`/v1/tournaments/${id}/audit`).expect(200)).body;
    expect(verifyTournamentBundle(bundle)).toMatchObject({ ok: true, failure: null });
  }, 180_000);
});
