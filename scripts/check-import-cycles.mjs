#!/usr/bin/env node
// Fails on any import cycle among the relative imports of src/, packages/*/src and web/src, counting
// `import type` too (import-x/no-cycle in eslint.config.mjs skips type-only imports, which vanish
// at compile time but still tie two modules into one). Part of `npm run lint` (issue 25 item 6).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROOTS = ['src', 'packages/core/src', 'packages/client/src', 'packages/verifier/src', 'web/src'];
const SKIP = new Set(['node_modules', 'dist', 'generated']);

const files = [];
const walk = (dir) => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (!SKIP.has(e.name)) walk(p);
    } else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) files.push(p);
  }
};
ROOTS.forEach((r) => walk(join(root, r)));
const known = new Set(files);
const resolveImport = (from, spec) => {
  const base = resolve(dirname(from), spec.replace(/\.js$/, ''));
  return [base + '.ts', base + '.tsx', join(base, 'index.ts'), join(base, 'index.tsx')].find((c) => known.has(c));
};
const graph = new Map(
  files.map((f) => [
    f,
    ts
      .preProcessFile(readFileSync(f, 'utf8'), true, true)
      .importedFiles.map((i) => i.fileName)
      .filter((s) => s.startsWith('.'))
      .map((s) => resolveImport(f, s))
      .filter((t) => t !== undefined),
  ]),
);

// Tarjan's strongly connected components: each component of more than one module is a cycle.
let next = 0;
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const cycles = [];
const visit = (v) => {
  index.set(v, next);
  low.set(v, next++);
  stack.push(v);
  onStack.add(v);
  for (const w of graph.get(v)) {
    if (!index.has(w)) {
      visit(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
  }
  if (low.get(v) !== index.get(v)) return;
  const component = [];
  let w;
  do {
    w = stack.pop();
    onStack.delete(w);
    component.push(relative(root, w));
  } while (w !== v);
  if (component.length > 1 || graph.get(v).includes(v)) cycles.push(component.sort());
};
for (const f of files) if (!index.has(f)) visit(f);

if (cycles.length > 0) {
  console.error(`${cycles.length} import cycle(s) (type-only imports included):`);
  for (const c of cycles) console.error('  ' + c.join(' <-> '));
  process.exit(1);
}
console.log(`no import cycles (${files.length} modules of ${ROOTS.join(', ')}, type-only imports included)`);
