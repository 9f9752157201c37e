import { defineConfig } from 'vitest/config';

/**
 * The tests `npm run mutation` (stryker.config.mjs) runs against each mutant of the request binder
 * and the access policy: the binder's own tests (the real binder over real Fastify on loopback) and
 * the policy's direct tests (the real repositories on in-memory PGlite). Both answer in well under a
 * second, so every mutant is tried; the security suites that attack the same rules through the whole
 * server (*.security.test.ts) take seconds per run and stay in `npm test`.
 */
export default defineConfig({
  test: {
    include: ['apps/server/src/http/bind-routes.test.ts', 'apps/server/src/modules/policy/access-policy.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
