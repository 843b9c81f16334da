#!/usr/bin/env node
// Keeps src/rules pure: its files may import only other files under src/rules.
// No node:*, no @nestjs, no @prisma, no npm packages, no I/O. Run by `npm run lint:rules` (part of `npm test`).
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..', 'src', 'rules');
const offenders = [];
const importRe =
  /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;
const banned = /\b(Math\.random|Date\.now|new Date\(|process\.|crypto\.|setTimeout|setInterval)\b/;

function walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) check(full);
  }
}

function check(file) {
  const text = fs.readFileSync(file, 'utf8');
  for (const m of text.matchAll(importRe)) {
    const spec = m[1] ?? m[2] ?? m[3] ?? m[4];
    const resolved = spec.startsWith('.') ? path.resolve(path.dirname(file), spec) : null;
    if (!resolved || !resolved.startsWith(root))
      offenders.push(`${path.relative(process.cwd(), file)}: imports '${spec}'`);
  }
  text.split('\n').forEach((line, i) => {
    if (!line.trim().startsWith('//') && !line.trim().startsWith('*') && banned.test(line)) {
      offenders.push(
        `${path.relative(process.cwd(), file)}:${i + 1}: uses ${line.match(banned)[0]} (time and randomness enter as data)`,
      );
    }
  });
}

walk(root);
if (offenders.length) {
  console.error('src/rules must stay pure:\n  ' + offenders.join('\n  '));
  process.exit(1);
}
console.log('src/rules is pure (imports only src/rules, no clock, no randomness, no process)');
