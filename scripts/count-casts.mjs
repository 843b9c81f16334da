#!/usr/bin/env node
/**
 * Counts type assertions (`x as T`, `<T>x`) and explicit `any` in hand-written non-test TypeScript
 * under src/ and packages/*\/src (issue 25's figure). Generated code (src/generated) and tests
 * (*.spec.ts, *.test.ts) are left out. `as const` is not a cast and is not counted.
 *
 *   node scripts/count-casts.mjs            totals
 *   node scripts/count-casts.mjs --files    plus a per-file table, most casts first
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const root = new URL('..', import.meta.url).pathname;
const roots = ['src', ...readdirSync(join(root, 'packages')).map((p) => join('packages', p, 'src'))];

function* walk(dir) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'generated') continue;
    if (statSync(path).isDirectory()) yield* walk(path);
    else if (/\.tsx?$/.test(name) && !/\.(spec|test)\.tsx?$/.test(name) && !name.endsWith('.d.ts')) yield path;
  }
}

const perFile = [];
let casts = 0;
let anys = 0;
for (const r of roots) {
  for (const path of walk(join(root, r))) {
    const text = readFileSync(path, 'utf8');
    const kind = path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
    const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
    let c = 0;
    let a = 0;
    const visit = (node) => {
      if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) {
        const t = node.type;
        const isConst = ts.isTypeReferenceNode(t) && t.typeName.getText(sf) === 'const';
        if (!isConst) c++;
      }
      if (node.kind === ts.SyntaxKind.AnyKeyword) a++;
      ts.forEachChild(node, visit);
    };
    visit(sf);
    casts += c;
    anys += a;
    if (c || a) perFile.push({ file: relative(root, path), casts: c, any: a });
  }
}
if (process.argv.includes('--files')) {
  perFile.sort((x, y) => y.casts - x.casts || y.any - x.any);
  for (const f of perFile) console.log(`${String(f.casts).padStart(4)} ${String(f.any).padStart(3)}  ${f.file}`);
}
console.log(`as casts: ${casts}\nexplicit any: ${anys}`);
