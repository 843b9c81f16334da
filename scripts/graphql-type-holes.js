#!/usr/bin/env node
// Counts the holes a GraphQL code generator leaves in the types of src/schema.gql: fields,
// arguments and input fields whose type is a scalar with no TypeScript type of its own (`JSON`,
// which graphql-codegen makes `unknown` or `any`). The built-in scalars and `DateTime` (mapped to
// `string`, docs/api.md) are typed. Deprecated fields are left out: each has a typed replacement
// (issue 14: a client's compiler should know every documented field).
// Usage: node scripts/graphql-type-holes.js [schema.gql]   (prints JSON; exit 0)
'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const {
  buildSchema,
  getNamedType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isScalarType,
} = require('graphql');

const TYPED_SCALARS = new Set(['String', 'Int', 'Float', 'Boolean', 'ID', 'DateTime']);

/** SDL -> { total, holes: ['Type.field: Scalar', ...] } */
function countGraphqlTypeHoles(sdl) {
  const schema = buildSchema(sdl);
  const holes = [];
  const check = (where, type, deprecated) => {
    const named = getNamedType(type);
    if (!deprecated && isScalarType(named) && !TYPED_SCALARS.has(named.name)) holes.push(`${where}: ${named.name}`);
  };
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        const deprecated = field.deprecationReason != null;
        check(`${type.name}.${field.name}`, field.type, deprecated);
        for (const arg of field.args) check(`${type.name}.${field.name}(${arg.name})`, arg.type, deprecated);
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        check(`${type.name}.${field.name}`, field.type, field.deprecationReason != null);
      }
    }
  }
  return { total: holes.length, holes };
}

module.exports = { countGraphqlTypeHoles };

if (require.main === module) {
  const file = process.argv[2] || join(__dirname, '..', 'src', 'schema.gql');
  console.log(JSON.stringify({ schema: file, ...countGraphqlTypeHoles(readFileSync(file, 'utf8')) }, null, 2));
}
