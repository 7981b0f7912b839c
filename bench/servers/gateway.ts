/**
 * The gateway as `gateway serve` runs it (startGateway with the environment's configuration:
 * PORT=0, HOST=127.0.0.1, DATABASE_URL=sqlite:<fresh file>, LOG_LEVEL as the orchestrator says),
 * plus a merchant created through the opened services, whose per-minute limit is raised so the
 * limiter never answers 429 during a run. Prints its URL and test key as one JSON line.
 */
import { loadConfig } from '../../gateway/config.js';
import { createMerchant, setRateLimit } from '../../gateway/merchants/merchant.service.js';
import { startGateway } from '../../gateway/runtime/start.js';
import { announceReady, stopOnSignal } from './common.js';

/** Far above what one benchmark run can send in a minute. */
const BENCH_RATE_LIMIT_PER_MINUTE = 100_000_000;

const gateway = await startGateway({ config: loadConfig() });
stopOnSignal(() => gateway.close());
const merchant = await createMerchant(gateway.deps, { name: 'Bench Shop' });
await setRateLimit(gateway.deps, merchant.merchant_id, BENCH_RATE_LIMIT_PER_MINUTE);
const key = merchant.keys[0]?.key;
if (key === undefined) throw new Error('createMerchant returned no key');
announceReady({ url: gateway.url, key, merchant_id: merchant.merchant_id });
