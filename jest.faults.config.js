// `npm run test:faults`: fault-injection tests that STOP and START PostgreSQL. They run against a
// private throw-away cluster that their global setup creates (initdb into a temporary directory,
// a free port; test/reliability/faults/private-cluster.ts) and their teardown deletes; any
// DATABASE_URL is ignored, so the machine's shared PostgreSQL is never touched. Serially, outside
// the ordinary suite.
const base = require('./jest.config.js');
const e2e = base.projects.find((p) => p.displayName === 'e2e');

module.exports = {
  ...e2e,
  displayName: 'faults',
  testMatch: ['<rootDir>/test/reliability/faults/**/*.faults-spec.ts'],
  globalSetup: '<rootDir>/test/reliability/faults/global-setup.ts',
  globalTeardown: '<rootDir>/test/reliability/faults/global-teardown.ts',
  // One worker on the private cluster's one database (not the e2e project's per-worker ones).
  setupFiles: [],
  maxWorkers: 1,
  testTimeout: 180_000,
};
