/**
 * A payment's environment is its livemode (docs/decisions.md "Live and test payments"): every
 * sandbox payment is a test payment, listed, counted and exported with the test ones, whichever key
 * made it. Until now a live key's `processor: sandbox` payment was kept under `live` (and a live
 * payment the buyer paid with a test card turned sandbox there too), so the live lists, totals and
 * overview counted it.
 *
 * - `payments.key_environment`: the environment of the key (or payment link) that made the payment,
 *   so a live key still reads back the sandbox payments it made. Existing payments take their
 *   environment of today, which was always the key's.
 * - Sandbox payments under `live` move to `test`, with what hangs on their environment: their
 *   refunds, their events and their receipts. The kept counts and customer totals follow by their
 *   triggers (migrations 0019 and 0020). A moved payment holding its order gives the order up when
 *   a test payment already holds the same order id (one open or paid payment per order and
 *   environment).
 */
import { type Kysely, type QueryExecutorProvider, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('payments')
    .addColumn('key_environment', 'text', (c) => c.notNull().defaultTo('live'))
    .execute();
  await sql`update payments set key_environment = environment where environment <> 'live'`.execute(db);
  await moveSandboxPaymentsToTest(db);
}

/** Moves the sandbox payments kept under `live` (and what hangs on them) to `test`; run again, it finds none. */
export async function moveSandboxPaymentsToTest(db: QueryExecutorProvider): Promise<void> {
  await sql`
    update payments set active_order_id = null
    where environment = 'live' and sandbox = 1 and active_order_id is not null
      and exists (
        select 1 from payments held
        where held.merchant_id = payments.merchant_id and held.environment = 'test'
          and held.active_order_id = payments.active_order_id
      )`.execute(db);
  await sql`
    update refunds set environment = 'test'
    where environment = 'live'
      and payment_id in (select id from payments where environment = 'live' and sandbox = 1)`.execute(db);
  await sql`
    update receipts set environment = 'test'
    where environment = 'live'
      and payment_id in (select id from payments where environment = 'live' and sandbox = 1)`.execute(db);
  await sql`update outbox_events set environment = 'test' where environment = 'live' and livemode = 0`.execute(db);
  await sql`update payments set environment = 'test' where environment = 'live' and sandbox = 1`.execute(db);
}

/** The column goes; the moved payments stay test payments (which key made them is not kept elsewhere). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('payments').dropColumn('key_environment').execute();
}
