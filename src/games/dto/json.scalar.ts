/** The one JSON scalar of the schema (shared with the scoring module). */
export { JSONScalar } from '../../common/graphql/json.scalar';
