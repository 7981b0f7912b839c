/**
 * The storage layer on both databases: migrations, the constraints the services rely on for
 * correctness under concurrency, and index use by every lookup of the hot paths.
 */
import { CompiledQuery, type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, dialectOf, openDatabase, redactUrl } from '../../storage/connect.js';
import type { Database } from '../../storage/database.js';
import { insertDomain } from '../../storage/domain.repository.js';
import { isUniqueViolation } from '../../storage/errors.js';
import { claimIdempotencyKey } from '../../storage/idempotency-key.repository.js';
import { insertMerchant } from '../../storage/merchant.repository.js';
import { migrateToLatest } from '../../storage/migrate.js';
import { insertPayment } from '../../storage/payment.repository.js';
import type { NewPaymentRow } from '../../storage/payment.table.js';
import { hitCounter } from '../../storage/rate-limit.repository.js';
import { getOrCreateSetting } from '../../storage/service-setting.repository.js';
import { DIALECTS, freshDatabase, type TestDatabase } from '../support/databases.js';
import { FIXED_NOW, merchantRow } from '../support/rows.js';

const NOW = FIXED_NOW;

function paymentRow(id: string, overrides: Partial<NewPaymentRow> = {}): NewPaymentRow {
  return {
    id,
    merchant_id: 'm1',
    environment: 'test',
    sandbox: 1,
    key_environment: 'test',
    domain_id: 'd1',
    order_id: `order-${id}`,
    active_order_id: `order-${id}`,
    amount: 1000,
    refunded_amount: 0,
    currency: 'AMD',
    charge: null,
    status: 'pending',
    processor: null,
    redirect_mode: 'hosted',
    payment_flow: 'redirect',
    qr_code: null,
    rrn: null,
    failure_code: null,
    customer_id: null,
    customer_email: null,
    customer_name: null,
    description: null,
    return_url: 'https://shop.am/done',
    cancel_url: null,
    callback_url: null,
    checkout_token: `token-${id}`,
    card_last4: null,
    reconciliation_flag: null,
    created_at: NOW,
    updated_at: NOW,
    expires_at: NOW,
    completed_at: null,
    refunded_at: null,
    ...overrides,
  };
}

describe('connection URLs', () => {
  it('chooses the dialect from DATABASE_URL and redacts passwords', () => {
    expect(dialectOf('sqlite:./data/x.sqlite')).toBe('sqlite');
    expect(dialectOf('postgres://u:p@h/db')).toBe('postgres');
    expect(dialectOf('postgresql://u:p@h/db')).toBe('postgres');
    expect(() => dialectOf('mysql://u:secret@h/db')).toThrow(/mysql:\/\/u:\*\*\*@h\/db/);
    expect(redactUrl('postgres://gw:s3cret@db:5432/gw')).toBe('postgres://gw:***@db:5432/gw');
  });
});

describe.each(DIALECTS)('storage on %s', (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let db: Kysely<Database>;

  beforeAll(async () => {
    database = await freshDatabase(dialect);
    handle = openDatabase(database.url);
    db = handle.db;
    await migrateToLatest(db);
    await insertMerchant(db, merchantRow('m1'));
    await insertDomain(db, {
      id: 'd1',
      merchant_id: 'm1',
      host: 'shop.am',
      hosted: 0,
      verified: 1,
      webhook_url: null,
      webhook_secret: 'whsec_x',
      webhook_secret_next: null,
      webhook_secret_next_at: null,
      created_at: NOW,
      updated_at: NOW,
    });
  });
  afterAll(async () => {
    await handle?.close();
    await database?.drop();
  });

  it('migrates idempotently', async () => {
    expect(await migrateToLatest(db)).toEqual([]);
  });

  it('keeps amounts as exact integers', async () => {
    await insertPayment(db, paymentRow('big', { amount: 9_007_199_254_740_991 }));
    const row = await db.selectFrom('payments').select('amount').where('id', '=', 'big').executeTakeFirstOrThrow();
    expect(row.amount).toBe(9_007_199_254_740_991);
  });

  it('lets an order be held by one payment at a time, but any number of released attempts', async () => {
    await insertPayment(db, paymentRow('p1', { order_id: 'o-1', active_order_id: 'o-1' }));
    const second = insertPayment(db, paymentRow('p2', { order_id: 'o-1', active_order_id: 'o-1' }));
    await expect(second).rejects.toSatisfy(isUniqueViolation);
    await insertPayment(db, paymentRow('p3', { order_id: 'o-1', active_order_id: null, status: 'failed' }));
    await insertPayment(db, paymentRow('p4', { order_id: 'o-1', active_order_id: null, status: 'expired' }));
    // The same order id in the other environment is another order.
    await insertPayment(
      db,
      paymentRow('p5', {
        order_id: 'o-1',
        active_order_id: 'o-1',
        environment: 'live',
        sandbox: 0,
        key_environment: 'live',
      }),
    );
  });

  it('verifies a host for one merchant only', async () => {
    await insertMerchant(db, merchantRow('m2'));
    const domain = {
      merchant_id: 'm2',
      host: 'shop.am',
      hosted: 0,
      webhook_url: null,
      webhook_secret: 'whsec_y',
      webhook_secret_next: null,
      webhook_secret_next_at: null,
      created_at: NOW,
      updated_at: NOW,
    };
    // Registering the host unverified is allowed (a claim awaiting verification)...
    await insertDomain(db, { ...domain, id: 'd2', verified: 0 });
    // ...but a second verified owner is not.
    await db.deleteFrom('domains').where('id', '=', 'd2').execute();
    await expect(insertDomain(db, { ...domain, id: 'd3', verified: 1 })).rejects.toSatisfy(isUniqueViolation);
  });

  it('claims an idempotency key exactly once under concurrency', async () => {
    const claims = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        claimIdempotencyKey(db, {
          id: `k${i}`,
          merchant_id: 'm1',
          environment: 'test',
          scope: 'payments.create',
          idempotency_key: 'same-key',
          request_hash: 'h',
          state: 'processing',
          response_status: null,
          response_body: null,
          locked_until: NOW,
          created_at: NOW,
          expires_at: NOW,
        }),
      ),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
  });

  it('counts rate-limit hits atomically', async () => {
    const counts = await Promise.all(Array.from({ length: 50 }, () => hitCounter(db, 'account:m1', 29_000_000)));
    expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  it('creates a setting once, whoever asks first', async () => {
    const values = await Promise.all(['a', 'b', 'c'].map((v) => getOrCreateSetting(db, 'gateway_secret', v, NOW)));
    expect(new Set(values).size).toBe(1);
  });

  describe('every hot lookup is served by an index', () => {
    const lookups: Record<string, (db: Kysely<Database>) => { sql: string; parameters: readonly unknown[] }> = {
      'api key by hash': (d) => d.selectFrom('api_keys').selectAll().where('key_hash', '=', 'x').compile(),
      'payment by id': (d) =>
        d.selectFrom('payments').selectAll().where('id', '=', 'x').where('merchant_id', '=', 'm1').compile(),
      'payments of an order': (d) =>
        d
          .selectFrom('payments')
          .selectAll()
          .where('merchant_id', '=', 'm1')
          .where('environment', '=', 'test')
          .where('order_id', '=', 'o-1')
          .orderBy('created_at', 'desc')
          .compile(),
      'list page': (d) =>
        d
          .selectFrom('payments')
          .selectAll()
          .where('merchant_id', '=', 'm1')
          .where('environment', '=', 'test')
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(25)
          .compile(),
      'list filtered by status': (d) =>
        d
          .selectFrom('payments')
          .selectAll()
          .where('merchant_id', '=', 'm1')
          .where('environment', '=', 'test')
          .where('status', '=', 'pending')
          .orderBy('created_at', 'desc')
          .limit(25)
          .compile(),
      'list filtered by processor': (d) =>
        d
          .selectFrom('payments')
          .selectAll()
          .where('merchant_id', '=', 'm1')
          .where('environment', '=', 'test')
          .where('processor', '=', 'sandbox')
          .orderBy('created_at', 'desc')
          .limit(25)
          .compile(),
      'checkout token': (d) => d.selectFrom('payments').selectAll().where('checkout_token', '=', 'x').compile(),
      'due payments': (d) =>
        d.selectFrom('payments').select('id').where('status', '=', 'pending').where('expires_at', '<=', NOW).compile(),
      'due webhook deliveries': (d) =>
        d
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('status', '=', 'pending')
          .where('next_attempt_at', '<=', NOW)
          .orderBy('next_attempt_at')
          .limit(100)
          .compile(),
      'deliveries of events': (d) =>
        d.selectFrom('webhook_deliveries').selectAll().where('event_id', 'in', ['e1', 'e2']).compile(),
      'events of a payment': (d) =>
        d.selectFrom('outbox_events').selectAll().where('payment_id', '=', 'p1').orderBy('created_at').compile(),
      'refunds of a payment': (d) =>
        d.selectFrom('refunds').selectAll().where('payment_id', '=', 'p1').orderBy('created_at').compile(),
      'due refund checks': (d) =>
        d
          .selectFrom('refunds')
          .select('id')
          .where('status', '=', 'unknown')
          .where('next_check_at', '<=', NOW)
          .compile(),
      'due merchant emails': (d) =>
        d
          .selectFrom('merchant_emails')
          .select('id')
          .where('status', '=', 'pending')
          .where('next_attempt_at', '<=', NOW)
          .orderBy('next_attempt_at')
          .compile(),
      'domains of a merchant': (d) => d.selectFrom('domains').selectAll().where('merchant_id', '=', 'm1').compile(),
      'idempotency key': (d) =>
        d
          .selectFrom('idempotency_keys')
          .selectAll()
          .where('merchant_id', '=', 'm1')
          .where('environment', '=', 'test')
          .where('scope', '=', 'payments.create')
          .where('idempotency_key', '=', 'k')
          .compile(),
    };

    it.each(Object.keys(lookups))('%s', async (name) => {
      const compiled = (lookups[name] as (d: Kysely<Database>) => { sql: string; parameters: readonly unknown[] })(db);
      if (dialect === 'sqlite') {
        const plan = await db.executeQuery<{ detail: string }>(
          CompiledQuery.raw(`EXPLAIN QUERY PLAN ${compiled.sql}`, [...compiled.parameters]),
        );
        const details = plan.rows.map((r) => r.detail);
        expect(details.join(' | ')).toMatch(/USING (COVERING )?INDEX|USING INTEGER PRIMARY KEY|PRIMARY KEY/);
        // A full scan reads "SCAN <table>" with no index after it.
        expect(details.filter((d) => /^SCAN \w+$/.test(d))).toEqual([]);
      } else {
        const plan = await db.transaction().execute(async (trx) => {
          await sql`SET LOCAL enable_seqscan = off`.execute(trx);
          return trx.executeQuery<{ 'QUERY PLAN': string }>(
            CompiledQuery.raw(`EXPLAIN ${compiled.sql}`, [...compiled.parameters]),
          );
        });
        const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
        expect(text).toMatch(/Index/);
        expect(text).not.toMatch(/Seq Scan/);
      }
    });
  });
});
