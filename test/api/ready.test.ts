/**
 * `/health` and `/ready` over real HTTP on both databases (docs/operations.md "Health and logs"):
 * `/health` says the process answers; `/ready` (and its earlier name `/health/ready`) says the
 * database answers and every migration of this code is applied, else 503 with the reason.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../storage/connect.js';
import { missingGatewayMigrations } from '../../storage/migrate.js';
import { DIALECTS, freshDatabase } from '../support/databases.js';
import { expectErrorBody, startTestGateway, type TestGateway } from '../support/gateway.js';

describe.each(DIALECTS)('/ready (%s)', (dialect) => {
  let t: TestGateway;

  beforeAll(async () => {
    t = await startTestGateway(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 200 on a migrated database, under both names; /health answers the process', async () => {
    for (const path of ['/ready', '/health/ready']) {
      const ready = await t.call('GET', path);
      expect(ready.status, path).toBe(200);
      expect(ready.body).toEqual({ status: 'ok', database: dialect });
    }
    expect((await t.call('GET', '/health')).body).toEqual({ status: 'ok' });
  });

  it('answers 503 migrations_pending, naming the missing migration, while /health stays 200', async () => {
    const db = t.gateway.deps.db;
    const [last] = await sql<{ name: string }>`select name from kysely_migration order by name desc limit 1`
      .execute(db)
      .then((result) => result.rows);
    if (last === undefined) throw new Error('no migration recorded');
    await sql`delete from kysely_migration where name = ${last.name}`.execute(db);
    try {
      for (const path of ['/ready', '/health/ready']) {
        const body = expectErrorBody(await t.call('GET', path), 503, 'service_unavailable', [
          'reason',
          'pending_migrations',
        ]);
        expect(body.reason).toBe('migrations_pending');
        expect(body.pending_migrations).toEqual([last.name]);
      }
      expect((await t.call('GET', '/health')).status).toBe(200);
    } finally {
      await sql`insert into kysely_migration (name, timestamp) values (${last.name}, ${'2026-11-21T10:00:00.000Z'})`.execute(
        db,
      );
    }
    expect((await t.call('GET', '/ready')).status).toBe(200);
  });

  it('counts every migration as missing on a database never migrated', async () => {
    const database = await freshDatabase(dialect);
    const handle = openDatabase(database.url);
    try {
      const missing = await missingGatewayMigrations(handle.db);
      expect(missing.length).toBeGreaterThan(10);
      expect(missing[0]).toBe('0001-core');
      expect(missing).toEqual([...missing].sort());
    } finally {
      await handle.close();
      await database.drop();
    }
  });
});
