import { defineProject } from 'vitest/config';

/**
 * Tests that start real processes: the compiled server (one or two instances), HAProxy, an S3-compatible server,
 * PostgreSQL. One file at a time, after the other projects, since each starts servers on a 2-core machine.
 */
export default defineProject({
  test: {
    name: 'processes',
    include: ['test/processes/**/*.test.ts'],
    globalSetup: ['test/processes/global-setup.ts'],
    environment: 'node',
    fileParallelism: false,
    sequence: { groupOrder: 1 },
    testTimeout: 120_000,
    hookTimeout: 240_000,
  },
});
