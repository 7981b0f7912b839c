/**
 * The gateway as `gateway serve` runs it (startGateway with the environment's configuration:
 * PORT=0, HOST=127.0.0.1, DATABASE_URL=sqlite:<fresh file>, LOG_LEVEL as the orchestrator says),
 * plus a merchant created through the opened services, whose per-minute limit is raised so the
 * limiter never answers 429 during a run. Prints its URL and test key as one JSON line.
 *
 * Its code is what `npm start` runs: the compiled JavaScript of dist/ when it was built from the
 * sources as they are (bin/launch.mjs), else the TypeScript sources through tsx, which cost more
 * per request (the orchestrator says which in its header).
 */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from '../../bin/launch.mjs';
import { announceReady, stopOnSignal } from './common.js';

const ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const { loadConfig } = (await launch(ROOT, 'gateway/config')) as typeof import('../../gateway/config.js');
const { createMerchant, setRateLimit } = (await launch(
  ROOT,
  'gateway/merchants/merchant.service',
)) as typeof import('../../gateway/merchants/merchant.service.js');
const { startGateway } = (await launch(
  ROOT,
  'gateway/runtime/start',
)) as typeof import('../../gateway/runtime/start.js');

/** Far above what one benchmark run can send in a minute. */
const BENCH_RATE_LIMIT_PER_MINUTE = 100_000_000;

const gateway = await startGateway({ config: loadConfig() });
stopOnSignal(() => gateway.close());
const merchant = await createMerchant(gateway.deps, { name: 'Bench Shop' });
await setRateLimit(gateway.deps, merchant.merchant_id, BENCH_RATE_LIMIT_PER_MINUTE);
const key = merchant.keys[0]?.key;
if (key === undefined) throw new Error('createMerchant returned no key');
announceReady({ url: gateway.url, key, merchant_id: merchant.merchant_id });
