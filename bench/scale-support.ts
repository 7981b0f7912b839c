/**
 * What the scale benchmarks share (`bench:scale`, `bench:dashboard`): the table of ten merchants'
 * payments over 90 days loaded into a fresh database of each dialect, timing of one request, and
 * the plans of statements. See bench/payments-scale.ts for the shape of the data.
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
import { type Gateway, startGateway } from '../gateway/runtime/start.js';
import type { Database, DialectName } from '../storage/database.js';
import type { PaymentRow } from '../storage/payment.table.js';
import { freePort } from '../test/support/ports.js';
import { startEmbeddedPostgres } from '../test/support/postgres-global-setup.js';

export const SECRET = 'scale-bench-secret-0123456789abcdefghijklmnop';
export const DAY_MS = 24 * 3600 * 1000;
export const SPAN_DAYS = 90;
export const MERCHANTS = 10;
const BATCH = 500;
const STATUSES = ['completed', 'completed', 'completed', 'completed', 'expired', 'failed', 'pending', 'refunded'];
const PROCESSORS = ['sandbox', 'idram', 'arca', 'telcell', 'ameria', 'fastshift'];

export const sizes = (process.env.BENCH_SIZES ?? '10000,1000000').split(',').map(Number);
export const dialects = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',') as DialectName[];
export const requests = Math.min(Math.max(Number(process.env.BENCH_REQUESTS ?? 200) || 200, 20), 5000);

export interface Figure {
  readonly median: number;
  readonly p95: number;
}
export type Figures = Record<string, Figure>;

/** The measured merchant's share: payment i is its test payment when i % 20 < 8. */
export const isMeasured = (i: number) => i % 20 < 8;

export function rowFor(
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
    // Searched by the dashboard benchmark: one payment in ten has an email, paid ones an RRN.
    customer_email: i % 10 === 0 ? `Buyer${i}@Scale.example` : null,
    rrn: status === 'completed' || status === 'refunded' ? String(100_000_000_000 + i) : null,
    created_at: created,
    updated_at: created,
    // Open payments expire after the run, so the gateway's expiry does not change them meanwhile.
    expires_at: new Date(status === 'pending' ? startMs + 365 * DAY_MS : createdMs + 20 * 60_000).toISOString(),
    completed_at: status === 'completed' || status === 'refunded' ? created : null,
    refunded_at: status === 'refunded' ? created : null,
    refunded_amount: status === 'refunded' ? 1000 : 0,
  } as PaymentRow;
}

export async function timed(url: string, headers: Record<string, string>): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return performance.now() - started;
}

export async function measure(urls: () => string, headers: Record<string, string>): Promise<Figure> {
  for (let i = 0; i < 20; i++) await timed(urls(), headers);
  const times: number[] = [];
  for (let i = 0; i < requests; i++) times.push(await timed(urls(), headers));
  times.sort((a, b) => a - b);
  return {
    median: times[Math.floor(times.length / 2)] ?? Number.NaN,
    p95: times[Math.floor(times.length * 0.95)] ?? Number.NaN,
  };
}

export async function explain(
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

/** A loaded database: the running gateway, the ten merchants (the first is the measured one). */
export interface Loaded {
  readonly gateway: Gateway;
  readonly merchants: ReadonlyArray<{ id: string; domainId: string; key: string }>;
  readonly big: { id: string; domainId: string; key: string };
  readonly startMs: number;
  /** Some of the measured merchant's test payments. */
  readonly ids: ReadonlyArray<{ id: string; order_id: string }>;
  readonly loadSeconds: number;
}

/** Starts a gateway on `databaseUrl` and loads `size` payments; the caller closes the gateway. */
export async function startLoaded(databaseUrl: string, size: number): Promise<Loaded> {
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
    return { gateway, merchants, big, startMs, ids, loadSeconds };
  } catch (error) {
    await gateway.close();
    throw error;
  }
}

/** Fresh databases for each run: SQLite files in a temp directory, or databases on one PostgreSQL. */
export function scaleDatabases() {
  let postgres: { adminUrl: string; stop: () => Promise<void> } | undefined;
  return {
    async fresh(dialect: DialectName): Promise<{ url: string; drop: () => Promise<void> }> {
      if (dialect === 'sqlite') {
        const dir = mkdtempSync(join(tmpdir(), 'bench-scale-'));
        return {
          url: `sqlite:${join(dir, 'gateway.sqlite')}`,
          drop: async () => rmSync(dir, { recursive: true, force: true }),
        };
      }
      const external = process.env.TEST_DATABASE_URL;
      postgres ??= external ? { adminUrl: external, stop: async () => {} } : await startEmbeddedPostgres();
      const name = `scale_${randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: postgres.adminUrl });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      const parsed = new URL(postgres.adminUrl);
      parsed.pathname = `/${name}`;
      const adminUrl = postgres.adminUrl;
      return {
        url: parsed.toString(),
        drop: async () => {
          const client = new pg.Client({ connectionString: adminUrl });
          await client.connect();
          await client.query(`drop database if exists ${name} with (force)`);
          await client.end();
        },
      };
    },
    async stop(): Promise<void> {
      await postgres?.stop();
    },
  };
}

/** Prints each query's median (p95) at the smallest and largest size and their ratio; answers how many exceed `limit`. */
export function printRatios(results: Record<string, Record<number, Figures>>, limit: number): number {
  const [small, large] = [Math.min(...sizes), Math.max(...sizes)];
  let slow = 0;
  for (const dialect of dialects) {
    console.log(`\n${dialect}: median ms (p95) at ${small} and ${large} payments, and the ratio of the medians`);
    const byQuery = results[dialect] as Record<number, Figures>;
    for (const query of Object.keys(byQuery[small] ?? {})) {
      const a = byQuery[small]?.[query] as Figure;
      const b = byQuery[large]?.[query] as Figure;
      const ratio = b.median / a.median;
      if (ratio > limit) slow += 1;
      console.log(
        `  ${query.padEnd(30)} ${a.median.toFixed(2).padStart(7)} (${a.p95.toFixed(2)})  ${b.median.toFixed(2).padStart(7)} (${b.p95.toFixed(2)})  ${ratio.toFixed(2)}${ratio > limit ? '  SLOW' : ''}`,
      );
    }
  }
  return slow;
}

/** What one run at one size on one database answers: its figures and its queries' plans. */
export type RunOne = (
  dialect: DialectName,
  size: number,
  databaseUrl: string,
) => Promise<{ figures: Figures; plans: string[] }>;

/**
 * Runs `runOne` on a fresh database for each dialect and size, prints the ratios and the plans, and
 * sets exit code 1 when a ratio of largest to smallest size is above `limit`.
 */
export async function runScaleBenchmark(runOne: RunOne, limit: number): Promise<void> {
  const databases = scaleDatabases();
  const results: Record<string, Record<number, Figures>> = {};
  const plans: string[] = [];
  try {
    for (const dialect of dialects) {
      results[dialect] = {};
      for (const size of sizes) {
        const { url, drop } = await databases.fresh(dialect);
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
    await databases.stop();
  }
  const slow = printRatios(results, limit);
  console.log(`\nPlans:\n${plans.join('\n')}`);
  if (slow > 0) process.exitCode = 1;
}
