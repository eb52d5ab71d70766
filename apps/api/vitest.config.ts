import { configDefaults, defineProject } from 'vitest/config';

/** API tests run on embedded PGlite, and again on PostgreSQL when TEST_DB=postgres (see the root config). */
export default defineProject({
  test: {
    name: process.env.TEST_DB === 'postgres' ? 'api (postgres)' : 'api (pglite)',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Those start real processes: their own projects (vitest.processes.config.ts, vitest.faults.config.ts).
    exclude: [...configDefaults.exclude, 'test/processes/**', 'test/faults/**'],
    globalSetup: ['test/global-setup.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
