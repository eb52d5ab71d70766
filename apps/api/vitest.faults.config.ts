import { defineProject } from 'vitest/config';

/**
 * Fault tests: each starts the servers it breaks (a PostgreSQL cluster of its own made with initdb, redis-server, a
 * bucket, an SMTP sink) and the compiled server, then kills, restarts or cuts them off on purpose. One file at a time,
 * after every other project (the processes project included), since each loads a 2-core machine on its own.
 */
export default defineProject({
  test: {
    name: 'faults',
    include: ['test/faults/**/*.test.ts'],
    globalSetup: ['test/faults/global-setup.ts'],
    environment: 'node',
    fileParallelism: false,
    sequence: { groupOrder: 2 },
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
