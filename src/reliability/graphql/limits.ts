/**
 * GraphQL document limits, as validation rules: they run with graphql-js's own rules after
 * parsing and before anything executes, so a refused document costs no resolver and no query.
 *
 * - depth: the deepest nesting of fields (fragments followed); introspection subtrees (__schema,
 *   __type) have their own fixed ceiling so that GraphiQL's introspection keeps working;
 * - aliases: aliased fields in the whole document (stops "1,000 mutations in one request");
 * - cost: 1 per field, a list field multiplies its sub-selection by the literal `limit` argument
 *   of the field or of its parent (a page: games(limit: 50) { items { ... } }) or by DEFAULT_LIST_SIZE, a root mutation field costs
 *   MUTATION_COST. Introspection is not counted.
 * Errors carry extensions.code = QUERY_TOO_COMPLEX (kept by formatError in app.module.ts).
 */
import {
  type ASTVisitor,
  type FieldNode,
  type FragmentDefinitionNode,
  getNamedType,
  getNullableType,
  GraphQLError,
  type GraphQLNamedType,
  type GraphQLObjectType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  OperationTypeNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
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

/** Calls `visit(field, depth, parentType)` for every field reachable from `set`, fragments followed once per path. */
function walk(
  context: ValidationContext,
  set: SelectionSetNode,
  parent: GraphQLNamedType | undefined,
  depth: number,
  visit: (field: FieldNode, depth: number, parent: GraphQLNamedType | undefined) => boolean,
  seen: Set<string> = new Set(),
): void {
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      if (!visit(selection, depth, parent)) continue;
      if (selection.selectionSet)
        walk(context, selection.selectionSet, fieldType(parent, selection), depth + 1, visit, seen);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const type = selection.typeCondition
        ? (context.getSchema().getType(selection.typeCondition.name.value) ?? parent)
        : parent;
      walk(context, selection.selectionSet, type, depth, visit, seen);
    } else {
      const name = selection.name.value;
      const fragment: FragmentDefinitionNode | null | undefined = context.getFragment(name);
      if (!fragment || seen.has(name)) continue; // unknown or cyclic fragments: graphql-js reports them
      seen.add(name);
      walk(
        context,
        fragment.selectionSet,
        context.getSchema().getType(fragment.typeCondition.name.value) ?? parent,
        depth,
        visit,
        seen,
      );
      seen.delete(name);
    }
  }
}

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

/** Maximum field depth (a top-level field has depth 1). */
export function depthLimitRule(maxDepth: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(op) {
      let deepest = 0;
      let offender: FieldNode | undefined;
      walk(context, op.selectionSet, rootType(context, op), 1, (field, depth) => {
        if (isIntrospection(field)) {
          // Its own, fixed ceiling (recursive types: __Type.ofType.ofType...).
          let inner = 0;
          if (field.selectionSet)
            walk(
              context,
              field.selectionSet,
              undefined,
              1,
              (_f, d) => ((inner = Math.max(inner, d)), inner <= INTROSPECTION_MAX_DEPTH),
            );
          if (inner > INTROSPECTION_MAX_DEPTH)
            context.reportError(
              tooComplex(`The introspection selection is deeper than ${INTROSPECTION_MAX_DEPTH}`, field, {
                limit: 'depth',
                maximum: INTROSPECTION_MAX_DEPTH,
              }),
            );
          return false;
        }
        if (depth > deepest) deepest = depth;
        if (depth > maxDepth && !offender) offender = field;
        return depth <= maxDepth; // no need to go further down
      });
      if (offender)
        context.reportError(
          tooComplex(`The query is deeper than the maximum depth of ${maxDepth}`, offender, {
            limit: 'depth',
            maximum: maxDepth,
          }),
        );
      return false;
    },
  });
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

/** Estimated cost of each operation (see the file comment). */
export function costLimitRule(maxCost: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(op) {
      const cost = selectionCost(
        context,
        op.selectionSet,
        rootType(context, op),
        op.operation === OperationTypeNode.MUTATION,
        new Set(),
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
  });
}

function selectionCost(
  context: ValidationContext,
  set: SelectionSetNode,
  parent: GraphQLNamedType | undefined,
  root: boolean,
  seen: Set<string>,
  pageSize = DEFAULT_LIST_SIZE,
): number {
  let total = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      if (isIntrospection(selection)) continue;
      let cost = root ? MUTATION_COST : 1;
      if (selection.selectionSet) {
        // A `limit` on a field sizes its own list, or the page's list below it (games(limit) { items }).
        const size = listSize(selection) ?? pageSize;
        const inner = selectionCost(
          context,
          selection.selectionSet,
          fieldType(parent, selection),
          false,
          seen,
          listSize(selection) ?? DEFAULT_LIST_SIZE,
        );
        cost += inner * (isListField(parent, selection) ? size : 1);
      }
      total += cost;
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const type = selection.typeCondition
        ? (context.getSchema().getType(selection.typeCondition.name.value) ?? parent)
        : parent;
      total += selectionCost(context, selection.selectionSet, type, root, seen, pageSize);
    } else {
      const name = selection.name.value;
      const fragment = context.getFragment(name);
      if (!fragment || seen.has(name)) continue;
      seen.add(name);
      total += selectionCost(
        context,
        fragment.selectionSet,
        context.getSchema().getType(fragment.typeCondition.name.value) ?? parent,
        root,
        seen,
        pageSize,
      );
      seen.delete(name);
    }
    if (total > Number.MAX_SAFE_INTEGER / 1000) return total; // already far over any limit
  }
  return total;
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
