import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/postgres-global-setup.ts'],
    setupFiles: ['test/support/contract-setup.ts'],
    pool: 'forks',
    // Three test files at once: most of a test's time is spent waiting on real servers, databases
    // and a browser, so three files keep two cores busy (vitest's default here would be one).
    // TEST_WORKERS overrides it (1 runs the files one after another).
    maxWorkers: Number(process.env.TEST_WORKERS ?? 3),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
