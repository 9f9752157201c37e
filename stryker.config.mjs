// Mutation testing of the request binder and the access policy (issue 14): `npm run mutation`.
// Not part of `npm test` or CI: it is CPU heavy (every mutant re-runs the tests that cover it).
// The figures and the surviving mutants are written up in docs/SECURITY.md, "Mutation testing".

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  // Only the tests that exercise these files (vitest.mutation.config.ts), not the whole suite.
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  mutate: [
    'apps/server/src/http/bind-routes.ts',
    'apps/server/src/modules/policy/**/*.ts',
    '!apps/server/src/modules/policy/**/*.test.ts',
  ],
  coverageAnalysis: 'perTest',
  // Two cores shared with everything else: one mutant at a time.
  concurrency: 1,
  timeoutMS: 60_000,
  // The sandbox needs the server, its packages and the shared configs; not the console or e2e.
  ignorePatterns: ['apps/web', 'e2e', 'docs', 'reports', 'coverage', '**/dist', '**/.data*', 'test-results'],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 80, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
