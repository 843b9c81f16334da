/**
 * Install hygiene on Node 20 (issue 11, item 10; docs/decisions/0012-node-20-dependency-pins.md).
 *
 * 1. Every installed package's `engines.node` accepts the running Node, except the one listed in
 *    ALLOWED with its reason: a dependency update that brings back an EBADENGINE warning fails here.
 * 2. The versions pinned by package.json "overrides" (older majors that support Node 20) work in
 *    the way their parent packages call them.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

// semver is in the tree (npm's own range logic) without typings here: only satisfies() is used.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- semver (a transitive dependency) ships no types here
const semver = require('semver') as { satisfies(version: string, range: string, options?: object): boolean };

const root = join(__dirname, '..', '..');

/** Packages allowed to declare an engine that excludes Node 20, and why (decision 0012). */
const ALLOWED: Record<string, string> = {
  '@prisma/streams-local': "prisma CLI's `prisma dev` only (never run here); `prisma generate` works without it",
};

function* packageJsons(dir: string): Generator<string> {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.name.startsWith('@')) {
      yield* packageJsons(path);
      continue;
    }
    if (existsSync(join(path, 'package.json'))) yield join(path, 'package.json');
    yield* packageJsons(join(path, 'node_modules'));
  }
}

describe('dependencies on Node 20', () => {
  it(`every installed package accepts Node ${process.version} (EBADENGINE-free), apart from the documented exception`, () => {
    const refusing: string[] = [];
    let checked = 0;
    for (const file of packageJsons(join(root, 'node_modules'))) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as {
        name?: string;
        version?: string;
        engines?: { node?: string };
      };
      const range = pkg.engines?.node;
      if (!pkg.name || typeof range !== 'string') continue;
      checked++;
      if (!semver.satisfies(process.version, range, { includePrerelease: true }) && !(pkg.name in ALLOWED))
        refusing.push(`${pkg.name}@${pkg.version} wants node ${range}`);
    }
    expect(checked).toBeGreaterThan(100);
    expect(refusing).toEqual([]);
  });

  it('content-disposition 2 (pinned under @fastify/static): reply.download() names the file', async () => {
    const fastify = (await import('fastify')).default();
    const dir = mkdtempSync(join(tmpdir(), 'fairdice-static-'));
    writeFileSync(join(dir, 'audit bundle.json'), '{}');
    await fastify.register((await import('@fastify/static')).default, { root: dir, serve: false });
    fastify.get('/file', (_req, reply) => reply.download('audit bundle.json'));
    const res = await fastify.inject({ method: 'GET', url: '/file' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="audit bundle.json"');
    await fastify.close();
  });

  it("cookie 1 (pinned under light-my-request, Fastify's inject): Set-Cookie headers are parsed", async () => {
    const inject = (await import('light-my-request')).default;
    const res = await inject(
      (_req, res) => {
        res.setHeader('set-cookie', ['a=1; Path=/; HttpOnly', 'b=two']);
        res.end('ok');
      },
      { method: 'GET', url: '/' },
    );
    expect(res.cookies.map((c) => [c.name, c.value])).toEqual([
      ['a', '1'],
      ['b', 'two'],
    ]);
  });

  it("file-type 21 (pinned under @nestjs/common): Nest's FileTypeValidator recognises a PNG (plain Node, as in production)", () => {
    // Nest loads file-type with import(), which Jest's module sandbox cannot run: check it in a child process.
    const script = `
      const { FileTypeValidator } = require('@nestjs/common');
      const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
      new FileTypeValidator({ fileType: 'image/png' })
        .isValid({ mimetype: 'image/png', size: png.length, buffer: png })
        .then((ok) => process.stdout.write(String(ok)), (e) => { console.error(e); process.exit(1); });`;
    const result = spawnSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('true');
  });

  it('@whatwg-node/promise-helpers 1 (pinned under @graphql-tools/utils 12.1): the helpers GraphQL execution uses', async () => {
    const utils = await import('@graphql-tools/utils');
    async function* numbers() {
      yield await Promise.resolve(1);
      yield await Promise.resolve(2);
    }
    const doubled: number[] = [];
    for await (const n of utils.mapAsyncIterator(numbers(), (n: number) => n * 2)) doubled.push(n);
    expect(doubled).toEqual([2, 4]);
    expect(await utils.mapMaybePromise(Promise.resolve(20), (n: number) => n + 1)).toBe(21);
  });
});
