/**
 * Relay cursor connections (https://relay.dev/graphql/connections.htm) over the service's
 * cursor pages (src/common/pagination/cursor.ts): `edges { cursor node }` and `pageInfo`, paged
 * forward with `first` / `after` (decision 0025).
 */
import type { Type } from '@nestjs/common';
import { Field, ObjectType } from '@nestjs/graphql';
import type { CursorPage } from '../pagination/cursor';

@ObjectType({ description: 'Where a page of a connection sits (Relay). Paging is forward only: first / after.' })
export class PageInfo {
  @Field({ description: 'Another page follows: pass endCursor as `after`.' })
  hasNextPage: boolean;
  @Field({ description: 'True when `after` was given (items came before this page); backward paging is not offered.' })
  hasPreviousPage: boolean;
  @Field(() => String, { nullable: true, description: "The first edge's cursor; null on an empty page." })
  startCursor: string | null;
  @Field(() => String, {
    nullable: true,
    description: "The last edge's cursor (pass as `after` for the next page); null on an empty page.",
  })
  endCursor: string | null;
}

export interface Edge<T> {
  cursor: string;
  node: T;
}
export interface Connection<T> {
  edges: Edge<T>[];
  pageInfo: PageInfo;
}

/**
 * The `<Name>Connection` and `<Name>Edge` object types for nodes of `nodeType` (an object or
 * interface type). Declare `@ObjectType('<Name>Connection') class X extends connectionOf(...) {}`.
 */
export function connectionOf<T>(nodeType: Type<T> | object, name: string, description: string) {
  @ObjectType(`${name}Edge`, { description: `One ${description} with its cursor.` })
  class EdgeType {
    @Field({ description: 'Opaque: pass as `after` to continue after this node.' })
    cursor: string;
    @Field(() => nodeType as Type<T>)
    node: T;
  }

  @ObjectType({ isAbstract: true })
  abstract class ConnectionType {
    @Field(() => [EdgeType])
    edges: Edge<T>[];
    @Field(() => PageInfo)
    pageInfo: PageInfo;
  }
  return ConnectionType;
}

/** A connection from a cursor page; `after` is the cursor the page was asked with. */
export function toConnection<T>(page: CursorPage<T>, after: string | null | undefined): Connection<T> {
  const edges = page.items.map((node, i) => ({ cursor: page.cursors[i], node }));
  return {
    edges,
    pageInfo: {
      hasNextPage: page.nextCursor !== null,
      hasPreviousPage: after !== undefined && after !== null,
      startCursor: page.cursors[0] ?? null,
      endCursor: page.cursors[page.cursors.length - 1] ?? null,
    },
  };
}
