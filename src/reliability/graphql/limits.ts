/**
 * GraphQL document limits, as validation rules: they run with graphql-js's own rules after
 * parsing and before anything executes, so a refused document costs no resolver and no query.
 *
 * - depth: the deepest nesting of fields (fragments followed); introspection subtrees (__schema,
 *   __type) have their own fixed ceiling so that GraphiQL's introspection keeps working;
 * - aliases: aliased fields in the whole document (stops "1,000 mutations in one request");
 * - cost: 1 per field, a list field multiplies its sub-selection by the literal `limit` argument
 *   of the field or of its parent (a page: games(limit: 50) { items { ... } }) or by DEFAULT_LIST_SIZE, a root mutation field costs
 *   MUTATION_COST. Introspection is not counted. Under an interface or union, fragments on distinct
 *   object types exclude each other (an item has one type): the most expensive type counts, not
 *   their sum (so a page of events may select every event type's fields).
 * Errors carry extensions.code = QUERY_TOO_COMPLEX (kept by formatError in app.module.ts).
 *
 * Every rule is linear in the document's size: depths and costs are memoized per selection-set
 * node (a fragment's body is measured once, however many paths spread it), so 13 levels of
 * fragments each spreading the next 4 times (4^13 paths) cost 13 bodies, not 67 million paths.
 * Before parsing, documentShapeError bounds tokens and bracket nesting (the parser recurses).
 */
import {
  type ASTVisitor,
  type FieldNode,
  getNamedType,
  getNullableType,
  GraphQLError,
  type GraphQLNamedType,
  type GraphQLObjectType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  Lexer,
  type OperationDefinitionNode,
  OperationTypeNode,
  type SelectionNode,
  type SelectionSetNode,
  Source,
  TokenKind,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

export const QUERY_TOO_COMPLEX = 'QUERY_TOO_COMPLEX';
/** Depth allowed inside __schema / __type (the standard introspection query needs about 13). */
export const INTROSPECTION_MAX_DEPTH = 20;
/** Assumed length of a list whose size no literal `limit` argument gives (server default page: 20). */
export const DEFAULT_LIST_SIZE = 20;
export const MUTATION_COST = 10;

export interface GraphqlLimits {
  maxDepth: number;
  maxCost: number;
  maxAliases: number;
}

const tooComplex = (message: string, node: OperationDefinitionNode | FieldNode, details: Record<string, unknown>) =>
  new GraphQLError(message, { nodes: [node], extensions: { code: QUERY_TOO_COMPLEX, status: 400, ...details } });

const isIntrospection = (field: FieldNode) => field.name.value.startsWith('__');

function fieldType(parent: GraphQLNamedType | undefined, field: FieldNode): GraphQLNamedType | undefined {
  const def =
    parent && (isObjectType(parent) || isInterfaceType(parent)) ? parent.getFields()[field.name.value] : undefined;
  return def ? getNamedType(def.type) : undefined;
}

function isListField(parent: GraphQLNamedType | undefined, field: FieldNode): boolean {
  const def =
    parent && (isObjectType(parent) || isInterfaceType(parent)) ? parent.getFields()[field.name.value] : undefined;
  return def ? isListType(getNullableType(def.type)) : false;
}

function rootType(context: ValidationContext, op: OperationDefinitionNode): GraphQLObjectType | undefined {
  const schema = context.getSchema();
  return (
    (op.operation === OperationTypeNode.MUTATION
      ? schema.getMutationType()
      : op.operation === OperationTypeNode.SUBSCRIPTION
        ? schema.getSubscriptionType()
        : schema.getQueryType()) ?? undefined
  );
}

type DepthMode = 'operation' | 'introspection';

/**
 * Depths of selection sets, memoized per selection-set node and mode. A fragment's body is one
 * node however many paths spread it, so each node is measured once: the work is linear in the
 * document's size (a document of nested fragments, each spreading the next 4 times, has 4^n
 * paths but n bodies).
 * - 'operation': introspection fields (__schema, __type, __typename) count 0 and are handed to
 *   `onIntrospection` (they have their own ceiling);
 * - 'introspection': every field counts.
 */
class DepthMeter {
  private readonly memo = { operation: new WeakMap<SelectionSetNode, number>(), introspection: new WeakMap() };
  private readonly active = new Set<SelectionSetNode>();

  constructor(
    private readonly context: ValidationContext,
    private readonly onIntrospection: (field: FieldNode) => void = () => undefined,
  ) {}

  /** The deepest field below `set`, its own fields at depth 1 (0 for none). */
  depth(set: SelectionSetNode, mode: DepthMode): number {
    const known = this.memo[mode].get(set);
    if (known !== undefined) return known;
    if (this.active.has(set)) return 0; // a fragment cycle: graphql-js reports it
    this.active.add(set);
    let deepest = 0;
    for (const selection of set.selections) {
      const d = this.selectionDepth(selection, mode);
      if (d > deepest) deepest = d;
    }
    this.active.delete(set);
    this.memo[mode].set(set, deepest);
    return deepest;
  }

  private selectionDepth(selection: SelectionNode, mode: DepthMode): number {
    if (selection.kind === Kind.FIELD) {
      if (mode === 'operation' && isIntrospection(selection)) {
        this.onIntrospection(selection);
        return 0;
      }
      return 1 + (selection.selectionSet ? this.depth(selection.selectionSet, mode) : 0);
    }
    if (selection.kind === Kind.INLINE_FRAGMENT) return this.depth(selection.selectionSet, mode);
    const fragment = this.context.getFragment(selection.name.value);
    return fragment ? this.depth(fragment.selectionSet, mode) : 0; // unknown fragment: graphql-js reports it
  }

  /** A field at depth `target` below `set` (following a deepest path), for the error's location. */
  fieldAt(set: SelectionSetNode, target: number, mode: DepthMode): FieldNode | undefined {
    for (const selection of set.selections) {
      if (this.selectionDepth(selection, mode) < target) continue;
      if (selection.kind === Kind.FIELD) {
        if (target <= 1 || !selection.selectionSet) return selection;
        return this.fieldAt(selection.selectionSet, target - 1, mode) ?? selection;
      }
      const inner =
        selection.kind === Kind.INLINE_FRAGMENT
          ? selection.selectionSet
          : this.context.getFragment(selection.name.value)?.selectionSet;
      if (inner && !this.active.has(inner)) {
        this.active.add(inner);
        const found = this.fieldAt(inner, target, mode);
        this.active.delete(inner);
        if (found) return found;
      }
    }
    return undefined;
  }
}

/** Maximum field depth (a top-level field has depth 1). */
export function depthLimitRule(maxDepth: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    const checked = new Set<FieldNode>();
    const meter: DepthMeter = new DepthMeter(context, (field) => {
      // Its own, fixed ceiling (recursive types: __Type.ofType.ofType...), checked once per field node.
      if (!field.selectionSet || checked.has(field)) return;
      checked.add(field);
      if (meter.depth(field.selectionSet, 'introspection') > INTROSPECTION_MAX_DEPTH)
        context.reportError(
          tooComplex(`The introspection selection is deeper than ${INTROSPECTION_MAX_DEPTH}`, field, {
            limit: 'depth',
            maximum: INTROSPECTION_MAX_DEPTH,
          }),
        );
    });
    return {
      OperationDefinition(op) {
        if (meter.depth(op.selectionSet, 'operation') > maxDepth) {
          const offender = meter.fieldAt(op.selectionSet, maxDepth + 1, 'operation') ?? op;
          context.reportError(
            tooComplex(`The query is deeper than the maximum depth of ${maxDepth}`, offender, {
              limit: 'depth',
              maximum: maxDepth,
            }),
          );
        }
        return false;
      },
    };
  };
}

/** Maximum number of aliased fields in the whole document (all operations and fragments). */
export function aliasLimitRule(maxAliases: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    let aliases = 0;
    let reported = false;
    return {
      Field(field) {
        if (!field.alias) return;
        aliases++;
        if (aliases > maxAliases && !reported) {
          reported = true;
          context.reportError(
            tooComplex(`The document uses more than ${maxAliases} aliases`, field, {
              limit: 'aliases',
              maximum: maxAliases,
            }),
          );
        }
      },
    };
  };
}

/** Costs above this are reported as this (far over any limit; keeps the figure printable). */
const COST_CEILING = Number.MAX_SAFE_INTEGER;

/** Estimated cost of each operation (see the file comment). */
export function costLimitRule(maxCost: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    const meter = new CostMeter(context);
    return {
      OperationDefinition(op) {
        const cost = meter.cost(
          op.selectionSet,
          rootType(context, op),
          op.operation === OperationTypeNode.MUTATION,
          DEFAULT_LIST_SIZE,
        );
        if (cost > maxCost)
          context.reportError(
            tooComplex(`The query's estimated cost ${cost} exceeds the maximum of ${maxCost}`, op, {
              limit: 'cost',
              maximum: maxCost,
              cost,
            }),
          );
        return false;
      },
    };
  };
}

/**
 * Cost of selection sets, memoized per selection-set node and (parent type, root, page size): a
 * fragment's body is costed once per distinct context, not once per path (linear work).
 */
class CostMeter {
  private readonly memo = new WeakMap<SelectionSetNode, Map<string, number>>();
  private readonly active = new Set<SelectionSetNode>();

  constructor(private readonly context: ValidationContext) {}

  cost(set: SelectionSetNode, parent: GraphQLNamedType | undefined, root: boolean, pageSize: number): number {
    const key = `${parent?.name ?? ''}\0${root ? 1 : 0}\0${pageSize}`;
    let byKey = this.memo.get(set);
    const known = byKey?.get(key);
    if (known !== undefined) return known;
    if (this.active.has(set)) return 0; // a fragment cycle: graphql-js reports it
    this.active.add(set);
    let total = 0;
    // Cost of fragments narrowing an abstract parent to one object type, by that type.
    const byObjectType = new Map<string, number>();
    const narrowed = (type: GraphQLNamedType | undefined, cost: number): boolean => {
      if (!type || !parent || type === parent || !isObjectType(type) || isObjectType(parent)) return false;
      byObjectType.set(type.name, (byObjectType.get(type.name) ?? 0) + cost);
      return true;
    };
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        if (isIntrospection(selection)) continue;
        let cost = root ? MUTATION_COST : 1;
        if (selection.selectionSet) {
          // A `limit` on a field sizes its own list, or the page's list below it (games(limit) { items }).
          const own = listSize(selection);
          const inner = this.cost(
            selection.selectionSet,
            fieldType(parent, selection),
            false,
            own ?? DEFAULT_LIST_SIZE,
          );
          cost += inner * (isListField(parent, selection) ? (own ?? pageSize) : 1);
        }
        total += cost;
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition
          ? (this.context.getSchema().getType(selection.typeCondition.name.value) ?? parent)
          : parent;
        const cost = this.cost(selection.selectionSet, type, root, pageSize);
        if (!narrowed(type, cost)) total += cost;
      } else {
        const fragment = this.context.getFragment(selection.name.value);
        if (!fragment) continue; // unknown fragment: graphql-js reports it
        const type = this.context.getSchema().getType(fragment.typeCondition.name.value) ?? parent;
        const cost = this.cost(fragment.selectionSet, type, root, pageSize);
        if (!narrowed(type, cost)) total += cost;
      }
      if (total >= COST_CEILING) break;
    }
    total += Math.max(0, ...byObjectType.values());
    total = Math.min(total, COST_CEILING);
    this.active.delete(set);
    if (!byKey) this.memo.set(set, (byKey = new Map()));
    byKey.set(key, total);
    return total;
  }
}

/** The size a field's literal `limit`/`first` argument asks for; undefined without one. */
function listSize(field: FieldNode): number | undefined {
  const arg = field.arguments?.find((a) => a.name.value === 'limit' || a.name.value === 'first');
  if (arg && arg.value.kind === Kind.INT) return Math.max(1, Number(arg.value.value));
  return undefined;
}

/** The three rules, for Apollo's validationRules. */
export const graphqlLimitRules = (limits: GraphqlLimits): ValidationRule[] => [
  depthLimitRule(limits.maxDepth),
  aliasLimitRule(limits.maxAliases),
  costLimitRule(limits.maxCost),
];

/** graphql-js parse option: documents with more tokens are refused before validation. */
export const GRAPHQL_MAX_TOKENS = 10_000;
export const isTokenLimitError = (message: string) => /Document contains more tha[nt] \d+ tokens/.test(message);

/** Deepest nesting of `{`, `[` and `(` allowed in a document (the standard introspection query needs 13). */
export const GRAPHQL_MAX_NESTING = 64;

/**
 * A linear pre-check of a document's source with graphql-js's own lexer, before it is parsed:
 * at most GRAPHQL_MAX_TOKENS tokens and GRAPHQL_MAX_NESTING levels of brackets. graphql-js's
 * parser is recursive: a few thousand nested `{` or `[` (which fit in the token limit) overflow
 * the stack. Returns the error to answer with, or null (syntax errors are left to the parser).
 */
export function documentShapeError(source: string): GraphQLError | null {
  const lexer = new Lexer(new Source(source));
  let tokens = 0;
  let nesting = 0;
  for (;;) {
    let kind: TokenKind;
    try {
      kind = lexer.advance().kind;
    } catch {
      return null; // a syntax error: the parser reports it
    }
    if (kind === TokenKind.EOF) return null;
    if (++tokens > GRAPHQL_MAX_TOKENS)
      return new GraphQLError(`The document has more than ${GRAPHQL_MAX_TOKENS} tokens`, {
        extensions: { code: QUERY_TOO_COMPLEX, status: 400, limit: 'tokens', maximum: GRAPHQL_MAX_TOKENS },
      });
    if (kind === TokenKind.BRACE_L || kind === TokenKind.BRACKET_L || kind === TokenKind.PAREN_L) {
      if (++nesting > GRAPHQL_MAX_NESTING)
        return new GraphQLError(`The document nests brackets deeper than ${GRAPHQL_MAX_NESTING}`, {
          extensions: { code: QUERY_TOO_COMPLEX, status: 400, limit: 'nesting', maximum: GRAPHQL_MAX_NESTING },
        });
    } else if (kind === TokenKind.BRACE_R || kind === TokenKind.BRACKET_R || kind === TokenKind.PAREN_R) nesting--;
  }
}

/** graphql-js aborts OverlappingFieldsCanBeMerged past its own work budget with this message. */
export const isValidationAborted = (message: string) => message === 'Validation aborted.';
