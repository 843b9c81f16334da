// ESLint flat config: typescript-eslint's type-checked rules over every TypeScript file of the
// service, its tests, benchmarks, scripts and packages/. `npm run lint` (part of `npm test`).
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

// The layers of src/ (docs/architecture.md), bottom first. Each module may import itself and
// the modules listed for it, nothing else of src/ (and never the app files src/*.ts). Under all
// of them: @fairdice/core (packages/core), which every layer may import and which imports none.
const core = ['fairness'];
const foundation = [...core, 'config', 'generated', 'database', 'common', 'keys', 'metrics'];
const persistence = [...foundation, 'event-store', 'reliability'];
const layering = {
  // core: the service side of fairness (seed generation from the CSPRNG, the verify CLI)
  fairness: [],
  // foundation: configuration, database access, cross-cutting errors/logging/DTO helpers
  config: [],
  generated: [],
  database: ['config'],
  common: [...core, 'config'],
  // the service's keys and the seed vault (sealing server seeds at rest)
  keys: ['config', 'database'],
  // Prometheus metrics: recorded by every layer above, read from the pool and the job table
  metrics: ['config', 'database'],
  // persistence: the event store and the request-reliability machinery; neither imports the other
  'event-store': foundation,
  reliability: foundation,
  // the one command handler of every aggregate (load → authorize → decide → append → publish)
  commands: persistence,
  // features: Nest modules over one service each; players < games < audit, async
  players: persistence,
  scoring: persistence,
  health: persistence,
  graphiql: persistence,
  'verify-page': persistence,
  // the reference web client's static files (web/dist) at / and /assets
  'web-app': persistence,
  'service-info': persistence,
  games: [...persistence, 'players', 'commands'],
  transparency: [...persistence, 'players'],
  audit: [...persistence, 'players', 'games', 'transparency'],
  // async may use the advice tables: computer seats at level optimal (src/async/computer)
  async: [...persistence, 'players', 'games', 'advice'],
  // tournaments run rounds of games (games), schedule through the job queue (async), and put
  // their games' audit bundles into the tournament's (audit)
  tournaments: [...persistence, 'commands', 'players', 'games', 'async', 'audit'],
  // the per-player event stream and Web Push: stores what commands raise (async's job queue), streams it
  'player-events': [...persistence, 'players', 'games', 'async'],
  // ratings apply finished rated games (a job of the queue: async) and extend public profiles (players)
  ratings: [...persistence, 'players', 'async'],
  // optimal advice: the solved tables (worker threads, disk cache), the advice API, post-game analysis
  advice: [...persistence, 'players', 'games', 'scoring'],
  // seeks and the matchmaker: the seek aggregate (commands) pairs into games it creates and starts (games)
  matchmaking: [...persistence, 'commands', 'players', 'games'],
  // accounts: usernames, passwords, passkeys, sessions of the players (docs/accounts.md)
  accounts: [...persistence, 'commands', 'players'],
  // OAuth for third-party apps: clients, consent, tokens (access tokens are sessions rows: players)
  oauth: [...persistence, 'players'],
  // challenges: an aggregate on the one handler; an acceptance starts a game (games), the expiry is a job (async)
  challenges: [...persistence, 'commands', 'players', 'games', 'async'],
};
// Fail closed: a new directory under src/ has no place in the layering until it is given one here
// (and in docs/architecture.md), so its imports cannot go unchecked.
const srcDir = new URL('./src/', import.meta.url);
const unplaced = readdirSync(srcDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !(entry.name in layering))
  .filter((entry) => readdirSync(new URL(entry.name, srcDir), { recursive: true }).some((f) => f.endsWith('.ts')))
  .map((entry) => `src/${entry.name}`);
if (unplaced.length > 0) {
  throw new Error(
    `${unplaced.join(', ')}: not in the layering table of eslint.config.mjs; add it there and to docs/architecture.md`,
  );
}
const layerZones = Object.entries(layering).map(([module, allowed]) => ({
  target: `./src/${module}`,
  from: './src',
  except: [module, ...allowed].map((m) => `./${m}`),
  message: `src/${module} may import only ${allowed.length ? allowed.join(', ') : 'itself'} (layering: docs/architecture.md)`,
}));

// Import boundaries: each zone forbids `target` files to import from `from`.
const boundaries = [
  ...layerZones,
  {
    target: './packages/core/src/rules',
    from: './packages/core/src',
    except: ['./rules'],
    message: 'the rules engine is pure: it imports nothing outside rules/',
  },
  {
    target: './src',
    from: ['./test', './bench', './scripts'],
    message: 'the service never imports tests, benchmarks or scripts',
  },
  {
    target: './packages',
    from: ['./src', './test', './bench', './scripts'],
    message: 'packages/ stand alone: they never import the service',
  },
  {
    target: './web',
    from: ['./src', './test', './bench', './scripts'],
    message:
      'the web client talks to the service only through the public API (@fairdice/client): it imports no code of the service',
  },
];

export default tseslint.config(
  {
    // Generated or vendored: written by tools, not by us.
    ignores: [
      'dist/',
      '**/dist/',
      'node_modules/',
      'coverage/',
      'data/',
      'src/generated/',
      'packages/client/src/generated/',
      'bench/results/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.d.ts', '.js', '.json'] })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: boundaries }],
      // No import cycles among our own modules (issue 25). The rule skips `import type` (erased at
      // compile time), so two type-only cycles of src/ were broken by hand; scripts/check-import-cycles.mjs
      // (below) counts those too. Packages are not followed (ignoreExternal): their cycles are theirs.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // A promise nobody awaits is a lost error or an unhandled rejection in a Node service.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // A new event, command or rule set must be handled by every switch over its union.
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false },
      ],
      // `import type` for what is only a type; typescript-eslint reads emitDecoratorMetadata from
      // tsconfig.json and leaves alone the imports that Nest's constructor injection needs at run time.
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-import-type-side-effects': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/no-unused-expressions': 'error',
      'no-unused-private-class-members': 'error',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      // Values that arrive untyped at a boundary (pg rows of raw SQL, JSON bodies in tests,
      // Fastify's request bag) may be used without a cast (decision 0008), so the no-unsafe-* rules
      // stay off; but an explicit `any` is refused in src/, packages/ and web/ (block below; issue 25).
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // No explicit `any` in the service, the packages and the web client; tests, benchmarks and
    // scripts may keep it (JSON bodies, probes).
    files: ['src/**/*.ts', 'packages/*/src/**/*.ts', 'web/src/**/*.ts', 'web/src/**/*.tsx'],
    ignores: ['**/*.spec.ts', '**/*.spec.tsx'],
    rules: { '@typescript-eslint/no-explicit-any': 'error' },
  },
  {
    // The service loads no Prisma client at run time (decision 0162): it queries through its pg
    // pool; Prisma is the schema and the migrations, and tests may use the generated client.
    files: ['src/**/*.ts'],
    ignores: ['**/*.spec.ts', 'src/generated/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@prisma/*', '**/generated/prisma/**', '**/generated/prisma'],
              message: 'the service queries through PG_POOL; no Prisma client at run time (decision 0162)',
            },
          ],
        },
      ],
    },
  },
  {
    // Files another change of issue 25 is rewriting (typed events and rows: item 4): their `any`s
    // (raw event and row mappers, the family registry's AnyFamily) go with that change. Remove then.
    files: ['packages/core/src/rules/registry.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // @fairdice/core proper (not its tests) runs in browsers too: no node:* module and no package
    // but @noble/* (scripts/check-rules-purity.js also bans Node-only globals, and the clock and
    // randomness under rules/).
    files: ['packages/core/src/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...boundaries,
            {
              target: './packages/core',
              from: './node_modules',
              except: ['./@noble'],
              message: '@fairdice/core imports no package but @noble/hashes and @noble/curves',
            },
          ],
        },
      ],
      'import-x/no-nodejs-modules': 'error',
    },
  },
  {
    // Plain JavaScript (config files, scripts, fixtures): no type information.
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        __dirname: 'readonly',
        console: 'readonly',
        setTimeout: 'readonly',
        URL: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { sourceType: 'module' },
  },
);
