// `npm run test:faults`: fault-injection tests that STOP and START the local PostgreSQL server
// (pg_ctlcluster). They run only against PostgreSQL (DATABASE_URL, default 127.0.0.1:5432),
// serially, outside the ordinary suite. See test/reliability/faults.
const base = require('./jest.config.js');
const e2e = base.projects.find((p) => p.displayName === 'e2e');

process.env.DATABASE_URL = process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';

module.exports = {
  ...e2e,
  displayName: 'faults',
  testMatch: ['<rootDir>/test/reliability/faults/**/*.faults-spec.ts'],
  maxWorkers: 1,
  testTimeout: 180_000,
};
