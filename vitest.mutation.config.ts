import { defineConfig } from 'vitest/config';

/**
 * The tests `npm run mutation` (stryker.config.mjs) runs against each mutant of the request binder
 * and the access policy: the binder's own tests, re-authorization, and the policy's security suites.
 * Kept narrow on purpose; the whole suite is `npm test`.
 */
export default defineConfig({
  test: {
    include: [
      'apps/server/src/http/bind-routes.test.ts',
      'apps/server/src/modules/auth/reauthorization*.test.ts',
      'apps/server/src/modules/policy/**/*.test.ts',
    ],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
