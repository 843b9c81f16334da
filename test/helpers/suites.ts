/**
 * Suites that CI runs once per run (browser, fuzz, multi-instance), against PostgreSQL: `.ci/run`
 * sets FAIRDICE_SKIP_ONCE_SUITES=1 for its second, embedded-database pass of `npm test`.
 * A plain `npm test` (a fresh clone, no variable) runs them.
 */
export const skipOnceSuites = process.env.FAIRDICE_SKIP_ONCE_SUITES === '1';

/** `describe` for a suite that runs once per CI run (see above). */
export const describeOnce: jest.Describe = skipOnceSuites ? describe.skip : describe;
