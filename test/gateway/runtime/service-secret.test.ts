/**
 * The service secret never lives in the database (gateway/runtime/service-secret.ts): generated
 * into a 0600 file beside an SQLite database and named in the log; required with PostgreSQL; moved
 * out of the database where an earlier version kept it. The same for the connector's own secret.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConnectorConfig } from '../../../connector/config.js';
import { openConnector } from '../../../connector/runtime/start.js';
import { ConfigError, loadConfig } from '../../../gateway/config.js';
import { ManualClock } from '../../../gateway/domain/clock.js';
import { createLogger } from '../../../gateway/runtime/logger.js';
import { createSealer } from '../../../gateway/runtime/sealing.js';
import { resolveServiceSecret, type StoredSecret, secretFileOf } from '../../../gateway/runtime/service-secret.js';
import { openServices } from '../../../gateway/runtime/start.js';
import { openDatabase } from '../../../storage/connect.js';
import { migrateToLatest } from '../../../storage/migrate.js';
import { freshDatabase, type TestDatabase } from '../../support/databases.js';
import { TEST_START_MS } from '../../support/gateway.js';

const EARLIER = 'earlier-version-secret-kept-in-the-database-0123';

function capturedLogger(): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger('info', {
    write(line: string) {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    },
  });
  return { logger, lines };
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-secret-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Opens the gateway's services as `gateway serve` or the CLI would, on `databaseUrl`. */
async function open(databaseUrl: string, env: Record<string, string> = {}, logger = createLogger('silent')) {
  const config = loadConfig({ DATABASE_URL: databaseUrl, PUBLIC_URL: 'http://gateway.test', ...env });
  const services = await openServices({ config, logger, clock: new ManualClock(TEST_START_MS) });
  await services.database.close();
  return services;
}

/** Every text value of every table of the database: what a copy of it gives away. */
async function everyStoredText(databaseUrl: string): Promise<string[]> {
  const handle = openDatabase(databaseUrl);
  try {
    const values: string[] = [];
    for (const table of await handle.db.introspection.getTables()) {
      // biome-ignore lint/suspicious/noExplicitAny: every table, whatever its columns
      const rows = await (handle.db as any).selectFrom(table.name).selectAll().execute();
      for (const row of rows as Array<Record<string, unknown>>) {
        for (const value of Object.values(row)) if (typeof value === 'string') values.push(value);
      }
    }
    return values;
  } finally {
    await handle.close();
  }
}

async function storeEarlierSecret(databaseUrl: string): Promise<void> {
  const handle = openDatabase(databaseUrl);
  try {
    await migrateToLatest(handle.db);
    await handle.db
      .insertInto('service_settings')
      .values({ name: 'gateway_secret', value: EARLIER, created_at: '2026-01-01T00:00:00.000Z' })
      .execute();
  } finally {
    await handle.close();
  }
}

describe('the gateway secret on SQLite without GATEWAY_SECRET', () => {
  it('is generated once into a 0600 file beside the database, named in the log, and read again', async () => {
    const dir = tempDir();
    const url = `sqlite:${join(dir, 'gateway.sqlite')}`;
    const { logger, lines } = capturedLogger();
    const first = await open(url, {}, logger);
    const file = join(dir, 'gateway.secret');
    expect(secretFileOf(url)).toBe(file);
    expect(readFileSync(file, 'utf8')).toBe(`${first.secret}\n`);
    expect(first.secret.length).toBeGreaterThanOrEqual(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(
      lines.filter((line) => line.file === file && /generated the service secret/.test(String(line.msg))),
    ).toHaveLength(1);
    expect(JSON.stringify(lines)).not.toContain(first.secret);

    const again = await open(url);
    expect(again.secret).toBe(first.secret);
    expect((await everyStoredText(url)).filter((value) => value.includes(first.secret))).toEqual([]);
  });

  it('moves the secret an earlier version kept in the database into the file', async () => {
    const dir = tempDir();
    const url = `sqlite:${join(dir, 'shop.db')}`;
    await storeEarlierSecret(url);
    const { secret } = await open(url);
    expect(secret).toBe(EARLIER);
    expect(readFileSync(join(dir, 'shop.secret'), 'utf8')).toBe(`${EARLIER}\n`);
    expect((await everyStoredText(url)).filter((value) => value.includes(EARLIER))).toEqual([]);
  });

  it('refuses to start on a damaged secret file rather than making a new secret', async () => {
    const dir = tempDir();
    const url = `sqlite:${join(dir, 'gateway.sqlite')}`;
    writeFileSync(join(dir, 'gateway.secret'), 'too-short\n', { mode: 0o600 });
    await expect(open(url)).rejects.toThrow(ConfigError);
    await expect(open(url)).rejects.toThrow(/does not hold a secret of at least 32 characters/);
  });

  it('gives two processes starting together the same secret', async () => {
    const dir = tempDir();
    const url = `sqlite:${join(dir, 'gateway.sqlite')}`;
    let made = 0;
    const stored: StoredSecret = { read: async () => undefined, delete: async () => {}, query: '' };
    const resolve = () =>
      resolveServiceSecret({
        configured: undefined,
        databaseUrl: url,
        dialect: 'sqlite',
        stored,
        generate: () => `generated-secret-number-${++made}-0123456789abcdef`,
        logger: createLogger('silent'),
      });
    const [a, b, c] = await Promise.all([resolve(), resolve(), resolve()]);
    expect(new Set([a, b, c]).size).toBe(1);
    expect(readFileSync(join(dir, 'gateway.secret'), 'utf8')).toBe(`${a}\n`);
  });
});

describe('the gateway secret with GATEWAY_SECRET set', () => {
  it('is the variable; a secret an earlier version kept in the database is deleted, and no file is made', async () => {
    const dir = tempDir();
    const url = `sqlite:${join(dir, 'gateway.sqlite')}`;
    await storeEarlierSecret(url);
    const configured = 'the-configured-secret-the-configured-secret';
    const { secret } = await open(url, { GATEWAY_SECRET: configured });
    expect(secret).toBe(configured);
    expect(() => statSync(join(dir, 'gateway.secret'))).toThrow(/ENOENT/);
    expect((await everyStoredText(url)).filter((value) => value.includes(EARLIER))).toEqual([]);
  });
});

describe('the gateway secret on PostgreSQL', () => {
  let database: TestDatabase;
  afterEach(async () => database?.drop());

  it('is required, and the refusal says how to keep the secret an earlier version stored', async () => {
    database = await freshDatabase('postgres');
    const refusal = open(database.url);
    await expect(refusal).rejects.toThrow(ConfigError);
    await expect(refusal).rejects.toThrow(/GATEWAY_SECRET must be set when the database is PostgreSQL/);

    await storeEarlierSecret(database.url);
    const withEarlier = open(database.url);
    await expect(withEarlier).rejects.toThrow(
      "read it once with `select value from service_settings where name = 'gateway_secret'`, set GATEWAY_SECRET to it",
    );
    // Refusing changes nothing: the secret is still there to be read.
    expect(await everyStoredText(database.url)).toContain(EARLIER);

    const { secret } = await open(database.url, { GATEWAY_SECRET: EARLIER });
    expect(secret).toBe(EARLIER);
    expect((await everyStoredText(database.url)).filter((value) => value.includes(EARLIER))).toEqual([]);
  });
});

describe('the connector secret', () => {
  it('is generated into a file beside its SQLite database, and one an earlier version stored is moved there', async () => {
    const dir = tempDir();
    const databaseUrl = `sqlite:${join(dir, 'connector.sqlite')}`;
    const config = loadConnectorConfig({ CONNECTOR_DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' });
    const clock = new ManualClock(TEST_START_MS);

    // An earlier version generated its secret into the connector's settings table.
    const first = await openConnector({ config, clock, logger: createLogger('silent') });
    const earlierSealed = createSealer(EARLIER, 'connector').seal(
      'store-credential',
      'store_connections:1:credentials',
    );
    await first.deps.db.insertInto('connector_settings').values({ key: 'sealing_secret', value: EARLIER }).execute();
    await first.close();
    rmSync(join(dir, 'connector.secret'));

    const reopened = await openConnector({ config, clock, logger: createLogger('silent') });
    try {
      expect(reopened.deps.sealer.open(earlierSealed, 'store_connections:1:credentials')).toBe('store-credential');
      expect(readFileSync(join(dir, 'connector.secret'), 'utf8')).toBe(`${EARLIER}\n`);
      const rows = await reopened.deps.db.selectFrom('connector_settings').selectAll().execute();
      expect(JSON.stringify(rows)).not.toContain(EARLIER);
    } finally {
      await reopened.close();
    }
  });

  it('is required with PostgreSQL', async () => {
    const database = await freshDatabase('postgres');
    cleanups.push(() => database.drop());
    const config = loadConnectorConfig({ CONNECTOR_DATABASE_URL: database.url, LOG_LEVEL: 'silent' });
    await expect(
      openConnector({ config, clock: new ManualClock(TEST_START_MS), logger: createLogger('silent') }),
    ).rejects.toThrow(/GATEWAY_SECRET must be set when the database is PostgreSQL/);
  });
});
