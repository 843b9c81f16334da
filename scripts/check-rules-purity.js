#!/usr/bin/env node
// Keeps @fairdice/core (packages/core/src) pure and browser-safe. Run by `npm run lint:rules` (part of `npm test`).
//  - The whole package: imports only its own files and @noble/hashes, @noble/curves (audited, zero-dependency,
//    browser-safe); so no node:*, no @nestjs, no @prisma, no I/O. No Node-only globals (Buffer, process,
//    require, __dirname, setImmediate, ...), which do not exist in a browser.
//  - packages/core/src/rules, the rules engine: imports only files under rules/; no clock, no randomness
//    (time and randomness enter as data).
// tsconfig.rules.json type-checks the same files without Node's types, which catches what this scan misses.
const fs = require('node:fs');
const path = require('node:path');

const pkg = path.join(__dirname, '..', 'packages', 'core', 'src');
const rules = path.join(pkg, 'rules');
const allowedPackages = /^@noble\/(hashes|curves)(\/|$)/;
const offenders = [];
const importRe =
  /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;
const nodeOnly =
  /\b(Buffer|process|require|module\.exports|__dirname|__filename|setImmediate|clearImmediate|global)\b(?!:)/;
const clockOrRandom = /\b(Math\.random|Date\.now|new Date\(|performance\.|crypto\.|setTimeout|setInterval)\b/;

const inside = (dir, file) => file === dir || file.startsWith(dir + path.sep);

function walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) check(full);
  }
}

function check(file) {
  const rel = path.relative(process.cwd(), file);
  const isRules = inside(rules, file);
  const text = fs.readFileSync(file, 'utf8');
  for (const m of text.matchAll(importRe)) {
    const spec = m[1] ?? m[2] ?? m[3] ?? m[4];
    if (spec.startsWith('.')) {
      const resolved = path.resolve(path.dirname(file), spec);
      if (!inside(isRules ? rules : pkg, resolved))
        offenders.push(`${rel}: imports '${spec}' (outside ${isRules ? 'the rules' : 'the package'})`);
    } else if (isRules || !allowedPackages.test(spec)) {
      offenders.push(`${rel}: imports '${spec}'`);
    }
  }
  let inBlockComment = false;
  text.split('\n').forEach((line, i) => {
    const t = line.trim();
    if (inBlockComment || t.startsWith('/*')) {
      inBlockComment = !t.includes('*/');
      return;
    }
    if (t.startsWith('//') || t.startsWith('*')) return;
    const code = line.replace(/\/\/.*$/, '').replace(/'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`|"(?:[^"\\]|\\.)*"/g, "''");
    const node = code.match(nodeOnly);
    if (node) offenders.push(`${rel}:${i + 1}: uses ${node[0]} (a Node-only global: the package must run in browsers)`);
    const cr = isRules && code.match(clockOrRandom);
    if (cr) offenders.push(`${rel}:${i + 1}: uses ${cr[0]} (time and randomness enter the rules as data)`);
  });
}

walk(pkg);
if (offenders.length) {
  console.error('packages/core must stay pure and browser-safe:\n  ' + offenders.join('\n  '));
  process.exit(1);
}
console.log(
  'packages/core is pure: imports only itself and @noble/*, no Node-only globals; its rules: no clock, no randomness',
);
