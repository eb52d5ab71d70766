import { defineConfig } from 'vitest/config';

/**
 * One Vitest run for the whole repo: contracts, the web app (jsdom), and the API on embedded PGlite,
 * plus the API again on PostgreSQL when DATABASE_URL is set (as .ci/run does), then the tests that start
 * real processes (the compiled server, several instances behind HAProxy; the PostgreSQL ones skip without it), and
 * last the fault tests, which start and break servers of their own (skipped, saying why, without initdb or redis-server).
 */
const apiOn = (db: 'pglite' | 'postgres') => ({
  extends: './apps/api/vitest.config.ts',
  root: './apps/api',
  test: { name: `api (${db})`, env: { TEST_DB: db } },
});

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'contracts', root: './packages/contracts', include: ['src/**/*.test.ts'] } },
      './apps/web/vitest.config.ts',
      apiOn('pglite'),
      ...(process.env.DATABASE_URL ? [apiOn('postgres')] : []),
      { extends: './apps/api/vitest.processes.config.ts', root: './apps/api' },
      { extends: './apps/api/vitest.faults.config.ts', root: './apps/api' },
    ],
  },
});
