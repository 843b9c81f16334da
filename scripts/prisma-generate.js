#!/usr/bin/env node
// Runs `prisma generate` with the local Prisma CLI on a machine without internet access.
//
// Prisma 7's CLI insists on a native schema engine binary before it generates, and tries to
// download one when it is missing. `generate` never executes it, so pointing
// PRISMA_SCHEMA_ENGINE_BINARY at any existing file (here: the node binary itself) is enough.
// An engine path the user already set is kept. Extra arguments are passed through.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
let cli;
try {
  cli = require.resolve('prisma/build/index.js', { paths: [root] });
} catch {
  console.warn('[prisma-generate] prisma CLI not installed; skipping client generation');
  process.exit(0);
}

const env = { ...process.env };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY || !fs.existsSync(env.PRISMA_SCHEMA_ENGINE_BINARY)) {
  env.PRISMA_SCHEMA_ENGINE_BINARY = process.execPath;
}
env.PRISMA_HIDE_UPDATE_MESSAGE = '1';
env.CHECKPOINT_DISABLE = '1';

const result = spawnSync(process.execPath, [cli, 'generate', ...process.argv.slice(2)], {
  cwd: root,
  env,
  stdio: 'inherit',
});
if (result.error) {
  console.error('[prisma-generate]', result.error);
  process.exit(1);
}
process.exit(result.status ?? 1);
