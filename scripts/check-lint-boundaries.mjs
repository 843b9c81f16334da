#!/usr/bin/env node
// Tests the lint's import boundaries (eslint.config.mjs) on probe files that are never written to
// disk: each forbidden import must be reported, each allowed one must not. An import the resolver
// cannot resolve is silently allowed by import-x/no-restricted-paths, so without this check a
// broken resolver or a mistyped zone would turn the layering off unnoticed. Part of `npm run lint`.
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

// [file, import specifier, must it be reported?]
const probes = [
  // the layering of src/ (docs/architecture.md)
  ['src/event-store/probe.ts', '../reliability', true],
  ['src/reliability/probe.ts', '../players/players.service', true],
  ['src/reliability/probe.ts', '../event-store/event-store.service', true],
  ['src/common/probe.ts', '../players/players.service', true],
  ['src/common/probe.ts', '../database/unit-of-work', true],
  ['src/database/probe.ts', '../common/errors', true],
  ['src/games/probe.ts', '../async/jobs/job-queue.service', true],
  ['src/players/probe.ts', '../games/games.service', true],
  ['src/fairness/probe.ts', '../games/games.service', true],
  ['src/games/probe.ts', '../app.module', true],
  ['src/games/probe.ts', '../../test/helpers/app', true],
  ['src/games/probe.ts', '../event-store/event-store.service', false],
  ['src/games/probe.ts', '../players/auth.guard', false],
  ['src/async/probe.ts', '../games/games.service', false],
  ['src/event-store/probe.ts', '../database/unit-of-work', false],
  ['src/games/probe.ts', '@fairdice/core/rules/game', false],
  ['src/probe.ts', './async/async.module', false],
  // no Prisma client in the service at run time (decision 0162); the tests may use it
  ['src/players/probe.ts', '../generated/prisma/client', true],
  ['src/database/probe.ts', '@prisma/adapter-pg', true],
  ['src/database/probe.ts', 'pg', false],
  ['test/helpers/probe.ts', '../../src/generated/prisma/client', false],
  // @fairdice/core: pure, standalone, browser-safe
  ['packages/core/src/rules/probe.ts', '../fairness/canonical', true],
  ['packages/core/src/fairness/probe.ts', '../../../../src/config/config', true],
  ['packages/core/src/fairness/probe.ts', 'zod', true],
  ['packages/core/src/fairness/probe.ts', 'node:crypto', true],
  ['packages/core/src/fairness/probe.ts', '@noble/hashes/sha2.js', false],
  ['packages/core/src/fairness/probe.ts', '../rules/registry', false],
  // the web client: the public API only (docs/web.md)
  ['web/src/probe.ts', '../../src/games/games.service', true],
  ['web/src/probe.ts', '@fairdice/client', false],
];

// Type information is not needed for import rules, and probe files are not in any tsconfig.
const eslint = new ESLint({ overrideConfig: [tseslint.configs.disableTypeChecked] });
const failures = [];
for (const [filePath, specifier, forbidden] of probes) {
  const text = `import * as probe from '${specifier}';\n\nexport const used = probe;\n`;
  const [result] = await eslint.lintText(text, { filePath });
  const reported = result.messages.filter(
    (m) =>
      m.ruleId === 'import-x/no-restricted-paths' ||
      m.ruleId === 'import-x/no-nodejs-modules' ||
      m.ruleId === 'no-restricted-imports',
  );
  const other = result.messages.filter((m) => !reported.includes(m));
  if (other.length > 0) failures.push(`${filePath} → '${specifier}': ${other.map((m) => m.message).join('; ')}`);
  else if (forbidden && reported.length === 0) failures.push(`${filePath} → '${specifier}' should be refused, was not`);
  else if (!forbidden && reported.length > 0)
    failures.push(`${filePath} → '${specifier}' should be allowed: ${reported[0].message}`);
}
if (failures.length > 0) {
  console.error('The import boundaries of eslint.config.mjs do not hold:\n  ' + failures.join('\n  '));
  process.exit(1);
}
console.log(`import boundaries hold (${probes.length} probe imports, eslint.config.mjs)`);
