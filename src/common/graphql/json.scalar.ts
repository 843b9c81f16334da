import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';

/** As for JSON bodies (src/reliability/http/json-body.ts): bounded nesting, numbers JSON carries exactly. */
const MAX_DEPTH = 32;

function number(text: string, value: number): number {
  if (!Number.isFinite(value) || Math.abs(value) > Number.MAX_SAFE_INTEGER)
    throw new GraphQLError(`JSON number ${text.slice(0, 40)} is not finite or beyond ±(2^53 - 1)`);
  return value;
}

function literal(ast: ValueNode, variables: Record<string, unknown> | null | undefined, depth: number): unknown {
  if (depth > MAX_DEPTH) throw new GraphQLError(`JSON nested deeper than ${MAX_DEPTH} levels is not accepted`);
  switch (ast.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return ast.value;
    case Kind.INT:
      return number(ast.value, parseInt(ast.value, 10));
    case Kind.FLOAT:
      return number(ast.value, parseFloat(ast.value));
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return ast.values.map((v) => literal(v, variables, depth + 1));
    case Kind.OBJECT:
      return Object.fromEntries(ast.fields.map((f) => [f.name.value, literal(f.value, variables, depth + 1)]));
    case Kind.VARIABLE:
      return variables?.[ast.name.value];
    default:
      return undefined;
  }
}

/** Arbitrary JSON, for rule-set options whose shape depends on the family. */
export const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value (used for rule-set options, whose shape depends on the game family).',
  serialize: (value) => value,
  // Variables arrive in a JSON body that was already checked for depth and numbers.
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => literal(ast, variables, 0),
});
