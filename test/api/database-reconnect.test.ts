/**
 * A PostgreSQL restart or failover drops the gateway's idle connections. The gateway must neither
 * crash nor keep failing: the next request gets a fresh connection.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { paymentBody, startTestGateway, type TestGateway } from '../support/gateway.js';

describe('gateway on PostgreSQL when the server drops its connections', () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway('postgres');
  });
  afterAll(async () => t?.close());

  it('keeps answering with fresh connections', async () => {
    const m = await t.merchant();
    const before = await t.call('POST', '/api/v1/payments', { key: m.testKey, body: paymentBody() });
    expect(before.status).toBe(201);

    const database = await t.gateway.deps.db
      .selectNoFrom((eb) => eb.fn<string>('current_database', []).as('name'))
      .executeTakeFirstOrThrow();
    const admin = new pg.Client({ connectionString: inject('postgresAdminUrl') });
    await admin.connect();
    try {
      const killed = await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [database.name],
      );
      expect(killed.rowCount).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    await new Promise((resolve) => setTimeout(resolve, 200));

    const after = await t.call('GET', `/api/v1/payments/${before.body.uuid}`, { key: m.testKey });
    expect(after.status).toBe(200);
    expect(after.body.uuid).toBe(before.body.uuid);
    const ready = await t.call('GET', '/health/ready');
    expect(ready.body).toEqual({ status: 'ok', database: 'postgres' });
  });

  it('fails the work of a connection dropped between two statements of its transaction, without crashing', async () => {
    const database = await t.gateway.deps.db
      .selectNoFrom((eb) => eb.fn<string>('current_database', []).as('name'))
      .executeTakeFirstOrThrow();
    // Only this gateway's own database: other test files share the server.
    const terminateOthers = async () => {
      const admin = new pg.Client({ connectionString: inject('postgresAdminUrl') });
      await admin.connect();
      try {
        const idle = await admin.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND state = 'idle in transaction' AND pid <> pg_backend_pid()",
          [database.name],
        );
        expect(idle.rowCount).toBeGreaterThan(0);
      } finally {
        await admin.end();
      }
    };
    // The connection is checked out (a transaction waiting on the code that runs it) when the server
    // drops it: its client's 'error' must not reach the process as an uncaught exception.
    const work = t.gateway.deps.db.transaction().execute(async (trx) => {
      await trx.selectNoFrom((eb) => eb.val(1).as('one')).execute();
      await terminateOthers();
      await new Promise((resolve) => setTimeout(resolve, 200));
      await trx.selectNoFrom((eb) => eb.val(2).as('two')).execute();
    });
    await expect(work).rejects.toThrow();
    const m = await t.merchant();
    const after = await t.call('POST', '/api/v1/payments', { key: m.testKey, body: paymentBody() });
    expect(after.status).toBe(201);
  });
});
