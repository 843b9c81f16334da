import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';

/**
 * Starts the table worker. From the build (dist/) it is table-worker.js beside this file. From the
 * TypeScript sources (jest, which never builds) there is no .js: a small loader compiles the
 * worker and @fairdice/core's sources on require with @swc/core (a devDependency, as for jest),
 * resolving @fairdice/core to packages/core/src like jest's moduleNameMapper does.
 */
export function startTableWorker(): Worker {
  const built = join(__dirname, 'table-worker.js');
  if (existsSync(built)) return new Worker(built);
  return new Worker(TS_LOADER, {
    eval: true,
    workerData: {
      entry: join(__dirname, 'table-worker.ts'),
      coreSrc: resolve(__dirname, '../../packages/core/src'),
    },
  });
}

const TS_LOADER = `
const Module = require('node:module');
const fs = require('node:fs');
const path = require('node:path');
const { workerData } = require('node:worker_threads');
const { transformSync } = require('@swc/core');
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === '@fairdice/core' || request.startsWith('@fairdice/core/')) {
    const base = path.join(workerData.coreSrc, request.slice('@fairdice/core'.length) || 'index');
    for (const candidate of [base + '.ts', path.join(base, 'index.ts')])
      if (fs.existsSync(candidate)) return candidate;
  }
  return resolveFilename.call(this, request, ...rest);
};
Module._extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: { target: 'es2022', parser: { syntax: 'typescript' } },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
require(workerData.entry);
`;
