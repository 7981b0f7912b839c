/**
 * `npm run bench:account-sync`: what the per-request account check costs (docs/decisions.md
 * "Account changes"). Every authenticated request first calls `AccountCache.sync()`, which reads
 * the account version (one prepared single-row read) and forgets cached accounts when it moved.
 * The check is a few microseconds against a few hundred for a whole request, well below what
 * `npm run bench` can tell apart run to run, so it is timed here on its own, next to a baseline
 * measured in the same run: the same loop awaiting a resolved promise, which is what a request
 * would pay without any check.
 *
 * It prints the CPU microseconds per call of each and their difference; compare that difference
 * with `srv CPU us/req` of `get-payment` and `create-payment` in `npm run bench` on the same machine.
 * Environment: BENCH_CALLS (default 200000, 10000..5000000).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccountCache } from '../gateway/merchants/account-cache.js';
import { accountVersionReader } from '../storage/account-version.repository.js';
import { openDatabase } from '../storage/connect.js';
import { migrateToLatest } from '../storage/migrate.js';

const raw = Number(process.env.BENCH_CALLS ?? 200_000);
const calls = Number.isInteger(raw) ? Math.min(Math.max(raw, 10_000), 5_000_000) : 200_000;

/** CPU microseconds per call of `step`, after a warm-up of a tenth as many calls. */
async function cpuPerCall(step: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < calls / 10; i++) await step();
  const started = process.cpuUsage();
  for (let i = 0; i < calls; i++) await step();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / calls;
}

const dir = mkdtempSync(join(tmpdir(), 'bench-account-sync-'));
const database = openDatabase(`sqlite:${join(dir, 'gateway.sqlite')}`);
try {
  await migrateToLatest(database.db);
  const cache = new AccountCache(() => performance.now(), accountVersionReader(database));
  const baseline = await cpuPerCall(() => Promise.resolve());
  const sync = await cpuPerCall(() => cache.sync());
  console.log(`calls                 ${calls}`);
  console.log(`baseline CPU us/call  ${baseline.toFixed(2)}`);
  console.log(`sync() CPU us/call    ${sync.toFixed(2)}`);
  console.log(`check costs us/req    ${(sync - baseline).toFixed(2)}`);
} finally {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
}
