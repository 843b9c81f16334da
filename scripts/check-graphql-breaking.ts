/**
 * GraphQL breaking-change check (contracts/README.md): diffs the schema of the code (src/schema.gql)
 * against the last released one (contracts/released/schema.graphql) with @graphql-inspector/core.
 * Additions, deprecations and other non-breaking changes pass; a breaking change (a removal, a
 * type change, a new required argument...) fails unless contracts/graphql-breaking-allowed.json
 * lists it with the reason it is deliberate. An allowance no change uses fails too (stale list).
 * Usage: npm run contracts:graphql (also run by test/api/graphql-breaking.e2e-spec.ts in npm test).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema } from 'graphql';
import { type Change, CriticalityLevel, diff } from '@graphql-inspector/core';

/** A deliberate breaking change: every `path` with this change `type` (inspector's ChangeType). */
export interface Allowance {
  type: string;
  paths: string[];
  reason: string;
}

export interface AllowList {
  /** The version whose schema contracts/released/schema.graphql is. */
  released: string;
  allowed: Allowance[];
}

export interface BreakingReport {
  /** Breaking changes the allow-list does not explain: the check fails. */
  unexplained: Change[];
  /** Breaking changes the allow-list explains. */
  allowed: Change[];
  /** Dangerous changes (e.g. an enum value added): they pass, listed for the reviewer. */
  dangerous: Change[];
  /** Allowances matching no change: the check fails until they are removed. */
  stale: Array<{ type: string; path: string }>;
}

export async function checkGraphqlBreaking(
  released: string,
  current: string,
  list: AllowList,
): Promise<BreakingReport> {
  const changes = await diff(buildSchema(released), buildSchema(current));
  const allows = (c: Change) => list.allowed.some((a) => a.type === c.type && a.paths.includes(c.path ?? ''));
  const breaking = changes.filter((c) => c.criticality.level === CriticalityLevel.Breaking);
  const used = new Set(breaking.map((c) => `${c.type} ${c.path ?? ''}`));
  return {
    unexplained: breaking.filter((c) => !allows(c)),
    allowed: breaking.filter(allows),
    dangerous: changes.filter((c) => c.criticality.level === CriticalityLevel.Dangerous),
    stale: list.allowed.flatMap((a) =>
      a.paths.filter((path) => !used.has(`${a.type} ${path}`)).map((path) => ({ type: a.type, path })),
    ),
  };
}

export const ROOT = join(__dirname, '..', ...(__dirname.includes(`${join('dist', 'scripts')}`) ? ['..'] : []));

export function readContracts(root = ROOT): { released: string; current: string; list: AllowList } {
  return {
    released: readFileSync(join(root, 'contracts', 'released', 'schema.graphql'), 'utf8'),
    current: readFileSync(join(root, 'src', 'schema.gql'), 'utf8'),
    list: JSON.parse(readFileSync(join(root, 'contracts', 'graphql-breaking-allowed.json'), 'utf8')) as AllowList,
  };
}

export function formatReport(r: BreakingReport): string {
  const line = (c: Change) => `  ${c.type} ${c.path ?? ''}: ${c.message}`;
  return [
    `GraphQL schema vs the last release: ${r.unexplained.length} unexplained breaking, ${r.allowed.length} allowed, ${r.dangerous.length} dangerous, ${r.stale.length} stale allowances`,
    ...(r.unexplained.length
      ? ['Breaking changes not in contracts/graphql-breaking-allowed.json:', ...r.unexplained.map(line)]
      : []),
    ...(r.stale.length
      ? ['Allowances matching no change (remove them):', ...r.stale.map((s) => `  ${s.type} ${s.path}`)]
      : []),
    ...(r.dangerous.length ? ['Dangerous (passing; check clients cope):', ...r.dangerous.map(line)] : []),
  ].join('\n');
}

async function main() {
  const { released, current, list } = readContracts();
  const report = await checkGraphqlBreaking(released, current, list);
  console.log(formatReport(report));
  if (report.unexplained.length > 0 || report.stale.length > 0) process.exit(1);
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
