/**
 * docs/rules.md is the rules reference (issue 14): the rule sets it names, with their option
 * values, are exactly those `GET /v1/rule-sets` serves, and it depends on no text outside the
 * repository.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestApp, type TestApp } from '../helpers/app';

const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'rules.md'), 'utf8');

/** The rows of the "## Rule sets" table: name, family and the options JSON. */
function documentedRuleSets() {
  const section = doc.slice(doc.indexOf('\n## Rule sets\n'), doc.indexOf('\n### Options at a glance'));
  return [...section.matchAll(/^\| `([a-zA-Z]+)` \| ([^|]+) \| `(\{.*\})` \|/gm)].map((m) => ({
    name: m[1],
    family: m[2].trim() === 'five dice' ? 'five-dice' : m[2].trim().toLowerCase(),
    options: JSON.parse(m[3]) as unknown,
  }));
}

describe('docs/rules.md', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t?.close());

  it('lists exactly the rule sets of GET /v1/rule-sets, with the same families and option values', async () => {
    const served = (await t.http().get('/v1/rule-sets').expect(200)).body as Array<{
      name: string;
      family: string;
      options: unknown;
    }>;
    const documented = documentedRuleSets();
    expect(documented.length).toBeGreaterThan(0);
    expect(documented).toEqual(served.map(({ name, family, options }) => ({ name, family, options })));
  });

  it('every rule set it mentions by name in backticks as a `ruleSet` exists', async () => {
    const served = new Set(
      ((await t.http().get('/v1/rule-sets').expect(200)).body as Array<{ name: string }>).map((r) => r.name),
    );
    // "rule set `x`", "`x` rule set", "preset `x`", "ruleSet: 'x'" / "\"ruleSet\":\"x\""
    const named = [
      ...doc.matchAll(/(?:rule set|preset) `([a-zA-Z]+)`/gi),
      ...doc.matchAll(/`([a-zA-Z]+)` (?:rule set|preset)/gi),
      ...doc.matchAll(/ruleSet["']?\s*:\s*["']([a-zA-Z]+)["']/g),
    ].map((m) => m[1]);
    expect(named.filter((n) => !served.has(n))).toEqual([]);
  });

  it('refers to no file outside the repository (such as the brief on a developer machine)', () => {
    expect(doc).not.toMatch(/\/work\/|\/home\/|\/shared\/brief|[0-9]{3}_[0-9a-f]{16}\.txt/);
  });
});
