#!/usr/bin/env node
/**
 * Builds the reference web client (run by the root `npm run build`) with esbuild, like the verifier
 * page (packages/verifier/build.js): web/src/main.tsx (React 18, @fairdice/client, and
 * @fairdice/core's verifier from its TypeScript sources) into
 *   web/dist/index.html             the page, naming the two assets below
 *   web/dist/assets/app-<hash>.js   one minified ES module
 *   web/dist/assets/app-<hash>.css  the style sheet
 *   web/dist/sw.js                  the service worker (web/src/sw.ts): a fixed name at the root,
 *                                   so its scope is the whole client; served with no-cache
 * Content-hashed names: the service serves assets as immutable and the page with no-cache.
 * No network at run time: no CDN, no web font. See docs/decisions/0065-web-client.md.
 */
import * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const dist = join(here, 'dist');
const hash = (text) => createHash('sha256').update(text).digest('base64url').slice(0, 10);

const result = await esbuild.build({
  entryPoints: [join(here, 'src', 'main.tsx')],
  bundle: true,
  write: false,
  minify: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  jsx: 'automatic',
  alias: { '@fairdice/core': join(root, 'packages', 'core', 'src') },
  define: { 'process.env.NODE_ENV': '"production"' },
  legalComments: 'none',
  logLevel: 'warning',
});
const script = result.outputFiles[0].contents;
// The service worker: a classic script (not a module, which older browsers cannot register).
const worker = await esbuild.build({
  entryPoints: [join(here, 'src', 'sw.ts')],
  bundle: true,
  write: false,
  minify: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  legalComments: 'none',
  logLevel: 'warning',
});
const style = readFileSync(join(here, 'src', 'styles.css'));
const js = `app-${hash(script)}.js`;
const css = `app-${hash(style)}.css`;
rmSync(dist, { recursive: true, force: true });
mkdirSync(join(dist, 'assets'), { recursive: true });
writeFileSync(join(dist, 'assets', js), script);
writeFileSync(join(dist, 'assets', css), style);
writeFileSync(join(dist, 'sw.js'), worker.outputFiles[0].contents);
const html = readFileSync(join(here, 'index.html'), 'utf8')
  .replace('{{SCRIPT}}', `/assets/${js}`)
  .replace('{{STYLE}}', `/assets/${css}`);
writeFileSync(join(dist, 'index.html'), html);
