/**
 * What the gateway's own INSERT into `payments` costs the database, with no HTTP, no
 * authentication and no gateway code around it: the floor under `pg-create-payment` and
 * `create-payment` (bench/README.md "The insert's floor").
 *
 * It makes one payment through a gateway on each database (so the row is the gateway's, every
 * column as a create writes it), then inserts copies of that row (new id, order id and checkout
 * token) in turn with the baseline's row of `bench/servers/baseline-*-insert.ts` (the same
 * 8-column table with its primary key only), each variant on a copy of the migrated database:
 *
 * - `gateway` – the payments table as migrated (its indexes, triggers and foreign keys);
 * - `without <index>` – the same, one of the indexes the row enters dropped (PostgreSQL);
 * - `without triggers` – its row triggers (the payment counts, the customer's totals) dropped;
 * - `without foreign keys` – its references to merchants and domains not checked;
 * - `bare` – all of the above gone: the wide row with its primary key and unique keys only.
 *
 * PostgreSQL: a `pg` Pool of 10, 50 inserts at once, one named prepared statement, for
 * FLOOR_SECONDS (5) after a second of warm-up; durable commits as in `npm run bench` (fsync on,
 * synchronous_commit=on). Printed: inserts a second, the server's CPU per insert (embedded server
 * only) and the ratio to the baseline run just before it. SQLite: one prepared better-sqlite3
 * statement, each insert its own transaction, in WAL with synchronous=NORMAL as both servers open
 * it, FLOOR_SECONDS each, then the gateway's row again ten inserts a transaction (as its group commit
 * shares one among concurrent creates); printed: microseconds per insert (the process is busy the
 * whole time, so that is its CPU) and the baseline's over the gateway's. BENCH_DIALECTS picks the databases
 * (default both); FLOOR_ONLY=word,… runs only the variants whose name holds one of the words.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { UuidV7Sequence } from '../gateway/domain/ids.js';
import { type BenchPostgres, createFreshDatabase, startBenchPostgres, withClient } from './bench-postgres.js';

const SECONDS = Number(process.env.FLOOR_SECONDS ?? 5);
const WARM_UP_MS = 1000;
const CONCURRENCY = 50;
const POOL_SIZE = 10;
/** SQLite inserts a transaction in the grouped runs. */
const GROUP = 10;

interface Figure {
  readonly perSecond: number;
  /** Database CPU per insert, µs; null for a server not started here. */
  readonly dbMicros: number | null;
}

/** Inserts `values()` rows with `text` through a fresh pool, 50 at once, for SECONDS after a warm-up. */
async function measure(postgres: BenchPostgres, url: string, text: string, values: () => unknown[]): Promise<Figure> {
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE });
  try {
    const loop = async (until: number, counted: { n: number }) => {
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (performance.now() < until) {
            await pool.query({ name: 'floor_insert', text, values: values() });
            counted.n += 1;
          }
        }),
      );
    };
    await loop(performance.now() + WARM_UP_MS, { n: 0 });
    const cpuBefore = postgres.cpuSeconds();
    const start = performance.now();
    const counted = { n: 0 };
    await loop(start + SECONDS * 1000, counted);
    const seconds = (performance.now() - start) / 1000;
    const cpuAfter = postgres.cpuSeconds();
    return {
      perSecond: counted.n / seconds,
      dbMicros: cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) / counted.n) * 1e6,
    };
  } finally {
    await pool.end();
  }
}

/** The rows `text` answers on `url`. */
function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  return withClient(url, async (client) => (await client.query<T>(text)).rows);
}

/** One payment made by a gateway on `databaseUrl` (migrated at its start): the row the floor copies. */
async function makeGatewayPayment(databaseUrl: string): Promise<void> {
  process.env.DATABASE_URL = databaseUrl;
  process.env.GATEWAY_SECRET = 'floor-bench-secret-0123456789abcdefghijklmnopq';
  process.env.PORT = '0';
  process.env.HOST = '127.0.0.1';
  process.env.LOG_LEVEL = 'silent';
  const { loadConfig } = await import('../gateway/config.js');
  const { startGateway } = await import('../gateway/runtime/start.js');
  const { createMerchant } = await import('../gateway/merchants/merchant.service.js');
  const gateway = await startGateway({ config: loadConfig() });
  try {
    const merchant = await createMerchant(gateway.deps, { name: 'Floor Shop' });
    const made = await fetch(`${gateway.url}/api/v1/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Service-Key': merchant.keys[0]?.key ?? '' },
      body: JSON.stringify({
        amount: 5000,
        currency: 'AMD',
        order_id: 'floor-1',
        return_url: 'https://shop.example/back',
      }),
    });
    if (made.status !== 201) throw new Error(`the gateway answered ${made.status}: ${await made.text()}`);
  } finally {
    await gateway.close();
  }
}

const uuids = new UuidV7Sequence();

/**
 * The INSERT of copies of `row` (its non-null columns), with `$n` or `?` placeholders. Each copy is
 * made as a create makes its row: a UUIDv7 of now (time-ordered, as the gateway's ids are), now's
 * instants, a new order id, a random checkout token.
 */
function copiesOf(row: Record<string, unknown>, placeholder: (i: number) => string) {
  const columns = Object.keys(row).filter((column) => row[column] !== null);
  const text = `INSERT INTO payments (${columns.join(', ')}) VALUES (${columns.map((_, i) => placeholder(i)).join(', ')})`;
  let n = 0;
  const values = () => {
    n += 1;
    const now = performance.timeOrigin + performance.now();
    const id = uuids.next(now, randomBytes(10));
    const instant = new Date(now).toISOString();
    return columns.map((column) => {
      if (column === 'id') return id;
      if (column === 'order_id' || column === 'active_order_id') return `floor-copy-${n}`;
      if (column === 'checkout_token') return randomBytes(24).toString('base64url');
      if (column === 'created_at' || column === 'updated_at') return instant;
      if (column === 'expires_at') return new Date(now + 20 * 60_000).toISOString();
      return row[column];
    });
  };
  return { columns, text, values };
}

const BASELINE_TABLE = `CREATE TABLE payments (id TEXT PRIMARY KEY, merchant_id TEXT NOT NULL, order_id TEXT NOT NULL,
  amount BIGINT NOT NULL, currency TEXT NOT NULL, status TEXT NOT NULL, return_url TEXT NOT NULL, created_at TEXT NOT NULL)`;
const baselineInsert = (placeholder: (i: number) => string) =>
  `INSERT INTO payments (id, merchant_id, order_id, amount, currency, status, return_url, created_at)
   VALUES (${Array.from({ length: 8 }, (_, i) => placeholder(i)).join(', ')})`;
const baselineRow = () => {
  const id = randomUUID();
  return [
    id,
    'merchant',
    `order-${id}`,
    5000,
    'AMD',
    'pending',
    'https://shop.example/back',
    '2026-12-03T00:00:00.000Z',
  ];
};

const only = process.env.FLOOR_ONLY?.split(',');
const wanted = (name: string) => only === undefined || only.some((word) => name.includes(word));
const dialects = (process.env.BENCH_DIALECTS ?? 'postgres,sqlite').split(',');

async function postgresFloor(dir: string): Promise<void> {
  const postgres = await startBenchPostgres(join(dir, 'postgres'));
  try {
    const migrated = await createFreshDatabase(postgres.adminUrl);
    const baseline = await createFreshDatabase(postgres.adminUrl);
    await makeGatewayPayment(migrated.url);
    const [row] = await query<Record<string, unknown>>(migrated.url, 'SELECT * FROM payments');
    if (row === undefined) throw new Error('the gateway stored no payment');
    const gateway = copiesOf(row, (i) => `$${i + 1}`);
    await query(baseline.url, BASELINE_TABLE);

    // The indexes the row enters besides the unique ones: the partial ones only when it meets their condition.
    const entered = (
      await query<{ indexname: string; indexdef: string }>(
        migrated.url,
        "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'payments' ORDER BY indexname",
      )
    ).filter(({ indexdef }) => {
      const where = /WHERE \((\w+) IS NOT NULL\)$/.exec(indexdef);
      return !/UNIQUE/.test(indexdef) && (where === null || row[where[1] as string] !== null);
    });
    const foreignKeys = await query<{ conname: string }>(
      migrated.url,
      "SELECT conname FROM pg_constraint WHERE conrelid = 'payments'::regclass AND contype = 'f' ORDER BY conname",
    );
    const dropIndexes = entered.map(({ indexname }) => `DROP INDEX ${indexname}`);
    const noTriggers = ['ALTER TABLE payments DISABLE TRIGGER USER'];
    const noForeignKeys = foreignKeys.map(({ conname }) => `ALTER TABLE payments DROP CONSTRAINT ${conname}`);
    const variants: Array<{ name: string; change: string[] }> = [
      { name: 'gateway', change: [] },
      ...entered.map(({ indexname }) => ({ name: `without ${indexname}`, change: [`DROP INDEX ${indexname}`] })),
      { name: 'without triggers', change: noTriggers },
      { name: 'without foreign keys', change: noForeignKeys },
      { name: 'bare', change: [...dropIndexes, ...noTriggers, ...noForeignKeys] },
    ];

    console.log(
      `PostgreSQL: ${SECONDS} s per run, ${CONCURRENCY} at once, pool of ${POOL_SIZE}; the gateway's row has ` +
        `${gateway.columns.length} values and enters ${entered.length} indexes besides its unique ones ` +
        `(${entered.map((index) => index.indexname).join(', ')})`,
    );
    console.log(`${'variant'.padEnd(36)} ${'inserts/s'.padStart(9)} ${'db µs'.padStart(6)}  baseline/s  db µs  ratio`);
    for (const variant of variants) {
      if (!wanted(variant.name)) continue;
      const copy = await createFreshDatabase(postgres.adminUrl, migrated.name);
      try {
        for (const change of variant.change) await query(copy.url, change);
        const base = await measure(
          postgres,
          baseline.url,
          baselineInsert((n) => `$${n + 1}`),
          baselineRow,
        );
        const figure = await measure(postgres, copy.url, gateway.text, gateway.values);
        const micros = (f: Figure) => (f.dbMicros === null ? '-' : f.dbMicros.toFixed(0));
        console.log(
          `${variant.name.padEnd(36)} ${figure.perSecond.toFixed(0).padStart(9)} ${micros(figure).padStart(6)}  ` +
            `${base.perSecond.toFixed(0).padStart(10)} ${micros(base).padStart(6)}  ${(figure.perSecond / base.perSecond).toFixed(2)}`,
        );
      } finally {
        await copy.drop();
      }
    }
    await migrated.drop();
    await baseline.drop();
  } finally {
    await postgres.stop();
  }
}

/**
 * Microseconds per insert of `values()` rows with `statement`, `perTransaction` inserts in each
 * transaction (1: each its own, as the baseline's; more: as the gateway's group commit of
 * concurrent creates shares one), for SECONDS after a warm-up.
 */
function timeSqliteInserts(
  db: SQLite.Database,
  statement: SQLite.Statement,
  values: () => unknown[],
  perTransaction = 1,
): number {
  const group = db.transaction(() => {
    for (let i = 0; i < perTransaction; i += 1) statement.run(...values());
  });
  const one = perTransaction === 1 ? () => statement.run(...values()) : () => group();
  const warmUntil = performance.now() + WARM_UP_MS;
  while (performance.now() < warmUntil) one();
  let n = 0;
  const start = performance.now();
  const until = start + SECONDS * 1000;
  while (performance.now() < until) {
    one();
    n += perTransaction;
  }
  return ((performance.now() - start) * 1000) / n;
}

function openSqlite(path: string): SQLite.Database {
  const db = new SQLite(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  return db;
}

async function sqliteFloor(dir: string): Promise<void> {
  const migratedPath = join(dir, 'gateway.sqlite');
  await makeGatewayPayment(`sqlite:${migratedPath}`);
  const migrated = new SQLite(migratedPath);
  const row = migrated.prepare('SELECT * FROM payments').get() as Record<string, unknown> | undefined;
  if (row === undefined) throw new Error('the gateway stored no payment');
  const entered = (
    migrated
      .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'payments' AND sql IS NOT NULL")
      .all() as Array<{
      name: string;
      sql: string;
    }>
  ).filter(({ sql }) => {
    const where = /where "?(\w+)"? is not null$/i.exec(sql);
    return !/UNIQUE/i.test(sql) && (where === null || row[where[1] as string] !== null);
  });
  const triggers = (
    migrated.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'payments'").all() as Array<{
      name: string;
    }>
  ).map(({ name }) => `DROP TRIGGER ${name}`);
  migrated.close();
  const gateway = copiesOf(row, () => '?');
  const variants: Array<{ name: string; change: string[]; foreignKeys: boolean }> = [
    { name: 'gateway', change: [], foreignKeys: true },
    { name: 'without triggers', change: triggers, foreignKeys: true },
    { name: 'without foreign keys', change: [], foreignKeys: false },
    { name: 'bare', change: [...entered.map(({ name }) => `DROP INDEX ${name}`), ...triggers], foreignKeys: false },
  ];
  console.log(
    `SQLite: ${SECONDS} s per run, one insert per transaction; the row enters ${entered.length} indexes besides its ` +
      `unique ones (${entered.map(({ name }) => name).join(', ')})`,
  );
  console.log(
    `${'variant'.padEnd(36)} ${'µs/insert'.padStart(9)} ${`in ${GROUP}s`.padStart(12)}  baseline µs  ratio  ratio in ${GROUP}s`,
  );
  for (const [i, variant] of variants.entries()) {
    if (!wanted(variant.name)) continue;
    const copyPath = join(dir, `floor-${i}.sqlite`);
    const source = new SQLite(migratedPath);
    await source.backup(copyPath);
    source.close();
    const copy = openSqlite(copyPath);
    const basePath = join(dir, `baseline-${i}.sqlite`);
    const base = openSqlite(basePath);
    try {
      for (const change of variant.change) copy.exec(change);
      if (!variant.foreignKeys) copy.pragma('foreign_keys = OFF');
      base.exec(BASELINE_TABLE);
      const baseMicros = timeSqliteInserts(base, base.prepare(baselineInsert(() => '?')), baselineRow);
      const insert = copy.prepare(gateway.text);
      const micros = timeSqliteInserts(copy, insert, gateway.values);
      const grouped = timeSqliteInserts(copy, insert, gateway.values, GROUP);
      console.log(
        `${variant.name.padEnd(36)} ${micros.toFixed(1).padStart(9)} ${grouped.toFixed(1).padStart(12)}  ` +
          `${baseMicros.toFixed(1).padStart(11)}  ${(baseMicros / micros).toFixed(2)}  ${(baseMicros / grouped).toFixed(2)}`,
      );
    } finally {
      copy.close();
      base.close();
    }
  }
}

const dir = mkdtempSync(join(tmpdir(), 'insert-floor-'));
chmodSync(dir, 0o755);
try {
  if (dialects.includes('postgres')) await postgresFloor(dir);
  if (dialects.includes('sqlite')) await sqliteFloor(dir);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
