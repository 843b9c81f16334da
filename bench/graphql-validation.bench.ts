/**
 * Micro-benchmark of GraphQL validation (issue 11, item 1): graphql-js's specified rules plus the
 * project's limit rules (src/reliability/graphql/limits.ts) with the default limits, against the
 * committed schema (src/schema.gql), on documents parsed once beforehand:
 * - a trivial query (`{ serviceInfo { name } }`), the baseline;
 * - the 13-level nested-fragment document (each level spreads the next 4 times: 4^13 paths),
 *   which the old rules walked path by path (~5 s); the ratio to the baseline shows the work is
 *   proportional to the document, not to its paths;
 * - 2,400 repeated identical fields (9,602 tokens): graphql-js's OverlappingFieldsCanBeMerged
 *   is quadratic until its own work budget aborts it (the slowest document of up to the token
 *   limit we found; reported for information).
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/graphql-validation.bench.js
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildSchema, type DocumentNode, parse, specifiedRules, validate } from 'graphql';
import { GRAPHQL_MAX_TOKENS, graphqlLimitRules } from '../src/reliability/graphql/limits';

export interface ValidationBenchResult {
  name: string;
  opsPerSec: number;
  usPerOp: number;
}

export function nestedFragmentDocument(levels = 13, fanout = 4): string {
  const parts = ['query { ...F0 }'];
  for (let i = 0; i < levels; i++)
    parts.push(
      `fragment F${i} on Query { ${Array(fanout)
        .fill(`...F${i + 1}`)
        .join(' ')} }`,
    );
  parts.push(`fragment F${levels} on Query { serviceInfo { name } }`);
  return parts.join('\n');
}

function measure(name: string, body: () => unknown, ms: number): ValidationBenchResult {
  let sink: unknown;
  for (let i = 0; i < 20; i++) sink = body();
  let calls = 0;
  let batch = 1;
  const t0 = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let i = 0; i < batch; i++) sink = body();
    calls += batch;
    elapsed = performance.now() - t0;
    if (elapsed < ms / 10) batch *= 2;
  }
  if (sink === Symbol.for('never')) console.log(sink);
  const usPerOp = (elapsed * 1000) / calls;
  return { name, opsPerSec: Math.round(1e6 / usPerOp), usPerOp: Math.round(usPerOp * 1000) / 1000 };
}

export const TRIVIAL = 'validate: trivial query';
export const NESTED = 'validate: 13-level nested fragments (4^13 paths)';
export const REPEATED = 'validate: 2,400 repeated fields (graphql-js budget)';

export function runGraphqlValidationMicroBenchmarks(options: { durationMs?: number } = {}): ValidationBenchResult[] {
  const ms = options.durationMs ?? 500;
  const schema = buildSchema(readFileSync(join(__dirname, '..', '..', 'src', 'schema.gql'), 'utf8'));
  const rules = [...specifiedRules, ...graphqlLimitRules({ maxDepth: 10, maxCost: 5000, maxAliases: 20 })];
  const doc = (source: string): DocumentNode => parse(source, { maxTokens: GRAPHQL_MAX_TOKENS });
  const trivial = doc('{ serviceInfo { name } }');
  const nested = doc(nestedFragmentDocument());
  const repeated = doc(`{ ${'serviceInfo { name } '.repeat(2400)} }`);
  if (validate(schema, nested, rules).length === 0) throw new Error('the nested document should be refused');
  return [
    measure(TRIVIAL, () => validate(schema, trivial, rules), ms),
    measure(NESTED, () => validate(schema, nested, rules), ms),
    measure(REPEATED, () => validate(schema, repeated, rules), Math.max(ms, 1000)),
  ];
}

if (require.main === module) {
  const rows = runGraphqlValidationMicroBenchmarks();
  for (const r of rows) console.log(`${r.name.padEnd(55)} ${r.usPerOp.toFixed(1).padStart(12)} µs`);
  const [t, n, r] = rows;
  console.log(
    `nested ÷ trivial: ${(n.usPerOp / t.usPerOp).toFixed(1)}   repeated ÷ trivial: ${(r.usPerOp / t.usPerOp).toFixed(1)}`,
  );
}
