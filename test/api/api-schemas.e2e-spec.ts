import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderApiSchemas } from '../../src/api-schemas';
import { createTestApp, type TestApp } from '../helpers/app';

/** The committed API descriptions must match the code. Fix with: npm run schema:generate */
describe('committed API schemas', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('src/schema.gql is up to date', () => {
    const { graphql } = renderApiSchemas(t.app);
    const committed = readFileSync(join(__dirname, '..', '..', 'src', 'schema.gql'), 'utf8');
    expect(committed).toBe(graphql);
  });

  it('openapi/openapi.json is up to date and is OpenAPI 3.1', () => {
    const { openapi } = renderApiSchemas(t.app);
    const committed = readFileSync(join(__dirname, '..', '..', 'openapi', 'openapi.json'), 'utf8');
    expect(JSON.parse(committed).openapi).toBe('3.1.0');
    expect(committed).toBe(openapi);
  });
});
