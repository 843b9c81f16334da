// Which suites CI's second pass (against the embedded database, PGlite) leaves out, and why.
//
// CI (.ci/run) runs `npm test` twice. The first pass, against fresh PostgreSQL databases, runs
// EVERYTHING: the static checks, every unit test and every e2e suite. The second pass
// (FAIRDICE_SKIP_ONCE_SUITES=1, no DATABASE_URL: the embedded database) runs again only the e2e
// suites whose outcome can differ on the embedded database, so every suite runs at least once
// and the database-specific ones twice.
//
// What differs on the embedded database is not SQL (PGlite is PostgreSQL itself, compiled to
// WebAssembly) but how it is reached: ONE session serves every connection one exchange at a
// time (the pool has one connection, so a path that needs a second connection while holding
// the first waits, then answers 503), notifications (LISTEN/NOTIFY) through the socket server,
// and migrations applied to a PGlite data directory. So the second pass keeps every suite that
// drives those paths: the database layer and migrations (test/database), the command pipeline
// and its retries, idempotency and group commit (test/reliability/commands, full games in
// test/e2e/games-*), background jobs and their effects (test/async, test/computer: deadlines,
// inactivity, computer turns, webhooks' deliveries), tournaments (their commands read on the
// command's own transaction), the transparency log and its sequencer, the seeds at rest, the
// live streams (test/e2e/push, stream-permission), the rate limiter's counters (one upsert per
// request when it is on) and readiness (the pool's waits).
//
// It leaves out (each still runs in the first pass):
// - suites that touch no database or choose their own: the contracts and generated schemas
//   (test/api), the package installs (test/install), the docs' walk-throughs and the example
//   programs, the built server as a process, the verifier CLIs and pages;
// - the once-only suites (describeOnce, test/helpers/suites.ts: browser, fuzz, several
//   processes, the advice presets' computation, embedded-concurrency which starts its own PGlite);
// - suites of the HTTP and GraphQL surface, where the database only stores what a request
//   needs: validation and refusals, contracts of responses, headers and caching, pagination
//   and read models' shapes, hardening, metrics, advice, the SDK. A refusal stores
//   nothing on either database: that is decided before any statement runs.
// A new e2e suite runs in both passes unless it is added here with its reason.
export const embeddedPassIgnores = [
  // database-free, or a database of their own
  '/test/(api|install|docs|examples)/',
  '/test/process/',
  '/test/fairness/(cli|verifiers)\\.',
  // once-only (describeOnce)
  '/test/(web|fuzz)/',
  '/test/async/(multi-instance|scale-out)\\.',
  '/test/advice/advice-presets\\.',
  '/test/database/embedded-concurrency\\.',
  // the HTTP and GraphQL surface
  '/test/e2e/(graphql-contract|graphql-cache-control|compact-response|foundation|pagination|player-stats|players-around|scoring)\\.',
  '/test/reliability/(hardening|inputs|graphql-validation|metrics|live-connection-limits)\\.',
  '/test/async/webhook-ssrf\\.',
  '/test/advice/',
  '/test/client/',
  '/test/fairness/(entropy-order|seed-secrecy)\\.',
];
