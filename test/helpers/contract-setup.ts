/**
 * Jest setup of the e2e project: a test fails when a response its apps sent does not match
 * openapi/openapi.json (test/helpers/contract.ts records them).
 */
import { takeViolations } from './contract';

// End-to-end hooks start apps and databases: on a loaded CI machine that can take far more than
// Jest's default 5 s. (`testTimeout` in a project of jest.config.js is ignored: it is a global
// option.) Suites that need more set their own.
jest.setTimeout(30_000);

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
