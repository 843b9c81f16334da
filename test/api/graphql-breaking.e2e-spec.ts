import { type FieldDefinitionNode, Kind, parse, print, visit } from 'graphql';
import {
  type AllowList,
  checkGraphqlBreaking,
  formatReport,
  readContracts,
} from '../../scripts/check-graphql-breaking';

/** The schema with `edit` applied to the field `type.field` (null removes it). */
function editField(
  sdl: string,
  type: string,
  field: string,
  edit: (f: FieldDefinitionNode) => FieldDefinitionNode | null,
): string {
  let found = false;
  const doc = visit(parse(sdl), {
    ObjectTypeDefinition(node) {
      if (node.name.value !== type) return undefined;
      return {
        ...node,
        fields: (node.fields ?? []).flatMap((f) => {
          if (f.name.value !== field) return [f];
          found = true;
          const out = edit(f);
          return out ? [out] : [];
        }),
      };
    },
  });
  if (!found) throw new Error(`${type}.${field} is not in the schema`);
  return print(doc);
}

const named = (name: string) => ({ kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: name } }) as const;
const nonNull = (name: string) => ({ kind: Kind.NON_NULL_TYPE, type: named(name) }) as const;

/** The GraphQL breaking-change check (contracts/README.md) as npm test runs it, and proof it can fail. */
describe('GraphQL breaking-change check', () => {
  const { released, current, list } = readContracts();
  const none: AllowList = { released: list.released, allowed: [] };

  it('the committed schema has no breaking change against the release beyond the allow-list', async () => {
    const report = await checkGraphqlBreaking(released, current, list);
    expect(formatReport(report)).toContain('0 unexplained breaking');
    expect(report.unexplained).toEqual([]);
    expect(report.stale).toEqual([]);
  });

  it('without the allow-list the deliberate changes of this release fail', async () => {
    const report = await checkGraphqlBreaking(released, current, none);
    const paths = report.unexplained.map((c) => `${c.type} ${c.path}`);
    expect(paths).toEqual(
      expect.arrayContaining([
        'FIELD_TYPE_CHANGED GameView.status',
        'INPUT_FIELD_TYPE_CHANGED CreateGameInput.ruleSet',
        'TYPE_REMOVED GameEventView',
      ]),
    );
  });

  it('fails on a removed field, even a deprecated one, and on a changed field type', async () => {
    let broken = editField(current, 'Query', 'gameHistory', () => null);
    broken = editField(broken, 'GameView', 'version', (f) => ({ ...f, type: nonNull('String') }));
    broken = editField(broken, 'Mutation', 'score', (f) => ({
      ...f,
      arguments: [
        ...(f.arguments ?? []),
        { kind: Kind.INPUT_VALUE_DEFINITION, name: { kind: Kind.NAME, value: 'reason' }, type: nonNull('String') },
      ],
    }));
    const report = await checkGraphqlBreaking(current, broken, none);
    expect(report.unexplained.map((c) => `${c.type} ${c.path}`).sort()).toEqual([
      'FIELD_ARGUMENT_ADDED Mutation.score.reason',
      'FIELD_REMOVED Query.gameHistory',
      'FIELD_TYPE_CHANGED GameView.version',
    ]);
    expect(formatReport(report)).toContain('FIELD_REMOVED Query.gameHistory');
  });

  it('passes additions and deprecations', async () => {
    let next = editField(current, 'GameView', 'chainHead', (f) => ({
      ...f,
      directives: [
        {
          kind: Kind.DIRECTIVE,
          name: { kind: Kind.NAME, value: 'deprecated' },
          arguments: [
            {
              kind: Kind.ARGUMENT,
              name: { kind: Kind.NAME, value: 'reason' },
              value: { kind: Kind.STRING, value: 'Use something else.' },
            },
          ],
        },
      ],
    }));
    next = next.replace('type GameView {', 'type GameView {\n  newField: Int\n');
    next += '\ntype BrandNew {\n  id: ID!\n}\n';
    const report = await checkGraphqlBreaking(current, next, none);
    expect(report.unexplained).toEqual([]);
    expect(report.dangerous).toEqual([]);
  });

  it('an allowance lets exactly its change through, and one matching nothing is reported stale', async () => {
    const broken = editField(current, 'GameView', 'chainHead', () => null);
    const allow: AllowList = {
      released: list.released,
      allowed: [
        { type: 'FIELD_REMOVED', paths: ['GameView.chainHead'], reason: 'test' },
        { type: 'FIELD_REMOVED', paths: ['GameView.commitment'], reason: 'test' },
      ],
    };
    const report = await checkGraphqlBreaking(current, broken, allow);
    expect(report.unexplained).toEqual([]);
    expect(report.allowed.map((c) => c.path)).toEqual(['GameView.chainHead']);
    expect(report.stale).toEqual([{ type: 'FIELD_REMOVED', path: 'GameView.commitment' }]);
  });
});
