import { cloneBundle, simulateGame } from './bundle-fixtures';
import { runVerifyCommand, verdictLine, verifyUsage } from './verify-command';
import { verifyBundle } from './verifier';

const game = simulateGame({ ruleSet: 'farkle', seats: 2, options: { target: 2000, entryThreshold: 0 } }).bundle;

async function run(argv: string[], files: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runVerifyCommand(
    argv,
    {
      load: (source) => (source in files ? Promise.resolve(files[source]) : Promise.reject(new Error('ENOENT'))),
      out: (s) => out.push(s),
      err: (s) => err.push(s),
    },
    'fairdice-verify',
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('runVerifyCommand (the verify command line without its I/O)', () => {
  it('verifies a bundle: exit 0, the text report ends with the verdict line', async () => {
    const r = await run(['verify', 'g.json'], { 'g.json': JSON.stringify(game) });
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out.split('\n').at(-1)).toBe('VERIFIED: every check passed.');
    expect(r.out).toContain(`head      ${game.chainHead}`);
  });

  it('names the first event at fault (exit 1), in the report and in --json', async () => {
    const b = cloneBundle(game);
    const i = b.events.findIndex((e) => e.type === 'rolled');
    (b.events[i].data.dice as number[])[0] = ((b.events[i].data.dice as number[])[0] % 6) + 1;
    const files = { 'b.json': JSON.stringify(b) };
    const r = await run(['verify', 'b.json'], files);
    expect(r.code).toBe(1);
    expect(r.out.split('\n').at(-1)).toBe(
      `FAILED: event version ${i + 1} does not check out (chain: stored hash does not match the recomputed hash)`,
    );
    const j = await run(['verify', 'b.json', '--json'], files);
    expect(JSON.parse(j.out)).toMatchObject({
      exitCode: 1,
      ok: false,
      firstBadVersion: i + 1,
      failure: { name: 'chain' },
    });
    expect(verdictLine(verifyBundle(b))).toBe(r.out.split('\n').at(-1));
  });

  it('usage and input errors exit 2 with the program name; --help prints the usage', async () => {
    expect(await run(['--help'])).toMatchObject({ code: 0, out: verifyUsage('fairdice-verify') });
    expect(verifyUsage('fairdice-verify')).toMatch(/^usage: fairdice-verify verify <file-or-url>/);
    expect(await run(['verify'])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^fairdice-verify: missing <file-or-url>/),
    });
    expect(await run(['verify', 'x.json', '--head', 'abc'])).toMatchObject({ code: 2 });
    expect(await run(['verify', 'missing.json'])).toMatchObject({
      code: 2,
      err: 'fairdice-verify: cannot read missing.json: ENOENT',
    });
    expect(await run(['verify', 'n.json'], { 'n.json': '{not json' })).toMatchObject({ code: 2 });
  });
});
