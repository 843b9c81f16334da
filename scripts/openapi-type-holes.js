#!/usr/bin/env node
// Counts the holes in the TypeScript types openapi-typescript generates from an OpenAPI document:
// `unknown`, `any` and `Record<string, never>` (issue 14: a client's compiler should know every
// documented field). Comments are ignored, and so are two things that are not documented fields:
// - `[name: string]: unknown;` inside a response's `headers` (openapi-typescript adds this index
//   signature to every response, for headers the document does not list);
// - `$defs = Record<string, never>` (the document has no JSON Schema $defs) and the EmptyObject
//   schema (the body of a command without parameters: absent or {}).
// Usage: node scripts/openapi-type-holes.js [openapi.json]   (prints JSON; exit 0)
'use strict';
const { execFileSync } = require('node:child_process');
const { join } = require('node:path');

const HOLE = /\bunknown\b|\bany\b|Record<string, never>/g;

/** Generated TypeScript -> { total, byKind, lines } of holes in documented fields. */
function countTypeHoles(typescript) {
  const code = typescript.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  const lines = [];
  const byKind = { unknown: 0, any: 0, 'Record<string, never>': 0 };
  let headersDepth = null;
  let depth = 0;
  for (const line of code.split('\n')) {
    const trimmed = line.trim();
    if (/^headers\??: \{$/.test(trimmed)) headersDepth = depth;
    const inHeaders = headersDepth !== null;
    const opens = (line.match(/\{/g) || []).length;
    const closes = (line.match(/\}/g) || []).length;
    depth += opens - closes;
    if (headersDepth !== null && depth <= headersDepth) headersDepth = null;
    const ignored =
      (inHeaders && trimmed === '[name: string]: unknown;') ||
      /^export type \$defs = Record<string, never>;$/.test(trimmed) ||
      /^EmptyObject: Record<string, never>;$/.test(trimmed);
    if (ignored) continue;
    const found = trimmed.match(HOLE);
    if (!found) continue;
    for (const kind of found) byKind[kind]++;
    lines.push(trimmed);
  }
  return { total: lines.length ? Object.values(byKind).reduce((a, b) => a + b, 0) : 0, byKind, lines };
}

/** Runs openapi-typescript on `document` and returns the generated TypeScript. */
function generateTypes(document) {
  const cli = join(__dirname, '..', 'node_modules', 'openapi-typescript', 'bin', 'cli.js');
  return execFileSync(process.execPath, [cli, document], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

module.exports = { countTypeHoles, generateTypes };

if (require.main === module) {
  const document = process.argv[2] || join(__dirname, '..', 'openapi', 'openapi.json');
  const result = countTypeHoles(generateTypes(document));
  console.log(JSON.stringify({ document, ...result, lines: result.lines.slice(0, 50) }, null, 2));
}
