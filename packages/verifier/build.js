#!/usr/bin/env node
/**
 * Builds the verifier package from @fairdice/core's sources with esbuild (run by `npm run build`):
 *   dist/cli.js       `fairdice-verify`: src/fairness/cli.ts + @fairdice/core + @noble/hashes in one
 *                     CommonJS file for Node >= 18, requiring only Node built-ins (checked below)
 *   dist/verify.html  the self-contained verifier page: one inline <style>, one inline <script>
 *                     (src/page.ts + @fairdice/core + @noble/hashes), a Content-Security-Policy
 *                     <meta> that admits exactly those two by SHA-256 and nothing else (no network)
 * Neither file is minified, so that an organizer can read what runs. See docs/decisions/0018.
 */
const esbuild = require('esbuild');
const { createHash } = require('node:crypto');
const { builtinModules } = require('node:module');
const fs = require('node:fs');
const path = require('node:path');

const here = __dirname;
const root = path.join(here, '..', '..');
const dist = path.join(here, 'dist');
const core = JSON.parse(fs.readFileSync(path.join(root, 'packages', 'core', 'package.json'), 'utf8'));
// The TypeScript sources, as tsconfig.json's `paths` and Jest map them (no stale packages/core/dist).
const alias = { '@fairdice/core': path.join(root, 'packages', 'core', 'src') };

const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The page's Content-Security-Policy (also sent by the service at GET /verify, with frame-ancestors). */
function pageCsp(script, style) {
  return [
    "default-src 'none'",
    `script-src ${sha256(script)}`,
    `style-src ${sha256(style)}`,
    "img-src 'none'",
    "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

async function buildCli() {
  const result = await esbuild.build({
    entryPoints: [path.join(here, 'src', 'cli.ts')],
    outfile: path.join(dist, 'cli.js'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node18',
    alias,
    banner: { js: '#!/usr/bin/env node' },
    legalComments: 'inline',
    metafile: true,
    logLevel: 'warning',
    logOverride: { 'commonjs-variable-in-esm': 'silent' },
  });
  const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
  for (const [file, out] of Object.entries(result.metafile.outputs)) {
    const foreign = out.imports.filter((i) => i.external && !builtins.has(i.path)).map((i) => i.path);
    if (foreign.length) throw new Error(`${file} requires modules that are not Node built-ins: ${foreign.join(', ')}`);
  }
  fs.chmodSync(path.join(dist, 'cli.js'), 0o755);
}

async function buildPage() {
  const result = await esbuild.build({
    entryPoints: [path.join(here, 'src', 'page.ts')],
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    alias,
    legalComments: 'inline',
    logLevel: 'warning',
  });
  const script = result.outputFiles[0].text;
  const style = fs.readFileSync(path.join(here, 'src', 'page.css'), 'utf8');
  if (/<\/script/i.test(script) || /<\/style/i.test(style))
    throw new Error('inline code must not contain </script or </style');
  const html = fs
    .readFileSync(path.join(here, 'src', 'page.html'), 'utf8')
    .replace('{{CSP}}', pageCsp(script, style))
    .replace('{{CORE_VERSION}}', core.version)
    .replace(/<style>[\s\S]*?<\/style>/, () => `<style>${style}</style>`)
    .replace(/<script>[\s\S]*?<\/script>/, () => `<script>${script}</script>`);
  // The hashes cover exactly the text between the tags; the template has one of each.
  if ((html.match(/<script/g) ?? []).length !== 1 || (html.match(/<style/g) ?? []).length !== 1)
    throw new Error('the page template must hold exactly one <script> and one <style>');
  fs.writeFileSync(path.join(dist, 'verify.html'), html);
}

async function main() {
  fs.mkdirSync(dist, { recursive: true });
  await Promise.all([buildCli(), buildPage()]);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
