/**
 * Jest setup of the e2e project: a test fails when a response its apps sent does not match
 * openapi/openapi.json (test/helpers/contract.ts records them).
 */
import { takeViolations } from './contract';

const fail = (when: string) => {
  const found = takeViolations();
  if (found.length === 0) return;
  const unique = [...new Set(found)];
  throw new Error(
    `${unique.length} response(s) ${when} do not match openapi/openapi.json:\n  ${unique.slice(0, 20).join('\n  ')}`,
  );
};

afterEach(() => fail('of this test'));
afterAll(() => fail('after the last test of this file'));
