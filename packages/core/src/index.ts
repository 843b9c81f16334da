/**
 * @fairdice/core: the pure rules engine (rules/) and the fairness code (fairness/) that the
 * service, the verifier package, the HTML verifier page and web clients share. Subpaths such as
 * `@fairdice/core/rules/game` or `@fairdice/core/fairness/hash-chain` reach single modules.
 */
export * from './fairness/bytes';
export * from './fairness/canonical';
export * from './fairness/seeds';
export * from './fairness/derivation';
export * from './fairness/hash-chain';
export * from './fairness/audit-bundle';
export * from './fairness/verifier';
export * from './fairness/transparency-log';
export * from './fairness/log-proof';
export * from './rules/core';
export * from './rules/game';
export * from './rules/registry';
