import { GraphQLSchemaHost } from '@nestjs/graphql';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { buildOpenApiDocument } from './app.factory';

/** The two committed API descriptions, rendered from a running (initialised) app. */
export function renderApiSchemas(app: NestFastifyApplication): { graphql: string; openapi: string } {
  const { schema } = app.get(GraphQLSchemaHost);
  const graphql =
    '# ------------------------------------------------------\n' +
    '# THIS FILE WAS GENERATED FROM THE CODE (npm run schema:generate)\n' +
    '# ------------------------------------------------------\n\n' +
    printSchema(lexicographicSortSchema(schema)) +
    '\n';
  const openapi = JSON.stringify(buildOpenApiDocument(app), null, 2) + '\n';
  return { graphql, openapi };
}
