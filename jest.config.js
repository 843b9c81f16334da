// @swc/jest transforms TypeScript and the ESM-only NestJS packages to CommonJS
// (plain ts-jest cannot load Nest 12). swc does not type-check: `npm test` runs tsc first.
const esmOnly = [
  '@nestjs',
  'file-type',
  'load-esm',
  'uid',
  'es-toolkit',
  'strtok3',
  'token-types',
  '@tokenizer',
  '@noble',
  'uint8array-extras',
  '@borewit',
  'content-disposition',
  'cookie',
];

const transform = {
  // The web client's components (test/web/*.spec.tsx render them with react-dom/server).
  '^.+\\.tsx$': [
    '@swc/jest',
    {
      jsc: {
        target: 'es2022',
        parser: { syntax: 'typescript', tsx: true },
        transform: { react: { runtime: 'automatic' } },
      },
      module: { type: 'commonjs' },
    },
  ],
  '^.+\\.ts$': [
    '@swc/jest',
    {
      jsc: {
        target: 'es2022',
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
        keepClassNames: true,
      },
      module: { type: 'commonjs' },
    },
  ],
  '^.+\\.m?js$': [
    '@swc/jest',
    {
      jsc: { target: 'es2022', parser: { syntax: 'ecmascript' }, keepClassNames: true },
      module: { type: 'commonjs' },
    },
  ],
};

const common = {
  transform,
  // jest-runtime with V8's code cache per worker: a file after the first skips parsing the
  // modules the worker has compiled before (test/helpers/code-caching-runtime.js; decision 0161).
  runtime: '<rootDir>/test/helpers/code-caching-runtime.js',
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnly.join('|')})/)`],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
  testEnvironment: 'node',
  // dist/ holds the build (and a copy of package.json); tests import the sources.
  modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/packages/[^/]+/dist/'],
  // @fairdice/core from its TypeScript sources (as tsconfig.json's `paths` does), so tests never
  // run a stale packages/core/dist. Directory modules (rules/game, ...) resolve to their index.ts.
  moduleNameMapper: {
    '^@fairdice/core$': '<rootDir>/packages/core/src/index.ts',
    '^@fairdice/core/(.*)$': '<rootDir>/packages/core/src/$1',
    '^@fairdice/client$': '<rootDir>/packages/client/src/index.ts',
  },
};

module.exports = {
  // A failure's bound, not a speed check: unit suites also build real advice tables in worker
  // threads, and on a 2-core CI machine running two Jest workers and Chromium a few seconds of
  // solving can take far longer than Jest's default 5 s (a global option: projects cannot set it).
  testTimeout: 30_000,
  // A worker whose memory passed 1 GB after a test file is replaced by a fresh one (same
  // JEST_WORKER_ID, so the same database). Each e2e file's module registry stays reachable after
  // it ends (about 70 MB a file: 2.3 GB after 29 files in one worker), and collecting ever larger
  // heaps made the last files of a run up to 8 times slower than alone. Decision 0161.
  workerIdleMemoryLimit: '1GB',
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: [
        '<rootDir>/src/**/*.spec.ts',
        '<rootDir>/packages/*/src/**/*.spec.ts',
        '<rootDir>/test/web/**/*.spec.tsx',
      ],
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/helpers/global-setup.ts',
      globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
      // Each worker on its own database of the run (global-setup.ts creates one per worker).
      setupFiles: ['<rootDir>/test/helpers/worker-database.ts'],
      // Every REST response of the e2e apps is checked against openapi/openapi.json.
      setupFilesAfterEnv: ['<rootDir>/test/helpers/contract-setup.ts'],
    },
  ],
};
