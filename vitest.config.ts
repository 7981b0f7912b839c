import { defineConfig } from 'vitest/config';
import LongFilesFirst from './test/support/long-files-first.js';

/**
 * Test files that replace a module for themselves (`vi.mock`): each runs in a module graph of its
 * own, so the replacement never reaches another file.
 */
const OWN_MODULES = [
  'test/connector/gateway-client/webhook-verification.test.ts',
  'test/api/idempotency-prune-race.test.ts',
];

/**
 * Test files that drive Chromium through whole journeys: each test may take longer than the others'
 * 30 s on a machine whose two cores the other files share (its waits are bounded on their own,
 * test/support/browser.ts).
 */
const BROWSER = ['test/**/*-browser.test.ts', 'test/plugins/browser-sdk/sdk-*.test.ts'];

export default defineConfig({
  test: {
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
    sequence: { sequencer: LongFilesFirst },
    projects: [
      {
        extends: true,
        // The other files share each worker's modules: the gateway, the connector and the contract
        // check's compiled schemas are loaded once per worker instead of once per file (a few
        // seconds of CPU a file). Every file starts and stops its own servers and databases.
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: [...OWN_MODULES, ...BROWSER],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'browser', include: BROWSER, isolate: false, testTimeout: 90_000 } },
      { extends: true, test: { name: 'own-modules', include: OWN_MODULES, isolate: true } },
    ],
  },
});
