/**
 * Ends a test run with the slowest test files (where the suite's time goes: import, setup and
 * tests of each file), then one plain line, `N passed, N failed, N skipped`, that any CI log reader
 * understands, after vitest's own summary.
 */
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest files are listed. */
const SLOWEST = 12;

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        else skipped += 1;
      }
    }
    const timed = testModules
      .map((module) => {
        const d = module.diagnostic();
        return { file: relative(process.cwd(), module.moduleId), ms: d.collectDuration + d.setupDuration + d.duration };
      })
      .sort((a, b) => b.ms - a.ms)
      .slice(0, SLOWEST);
    if (timed.length > 1) {
      process.stdout.write(`\nSlowest test files (import + setup + tests):\n`);
      for (const { file, ms } of timed) process.stdout.write(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}\n`);
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
