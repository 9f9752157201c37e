import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          include: [
            'apps/server/src/**/*.test.ts',
            'apps/agent/src/**/*.test.ts',
            'packages/contracts/src/**/*.test.ts',
            'packages/tunnel/src/**/*.test.ts',
            'deploy/**/*.test.ts',
          ],
          environment: 'node',
          // Before any file loads ssh2: its packets' padding comes from a pool (ssh2-padding.ts).
          setupFiles: ['apps/server/src/test/setup-ssh2.ts'],
          // A worker keeps the modules it loaded from one file to the next: a file of the server
          // imports ~4 s of modules (fastify, ssh2, PGlite, the AWS SDK…), which with isolation cost
          // every one of ~230 files again: this project's files took 22 min isolated and 16 without
          // on a machine of CI's kind (2026-11-27, all 1,723 tests passing both ways). Files still get
          // their own servers, databases and schemas; the one test that sets process.env puts it back
          // in afterAll.
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
    ],
  },
});
