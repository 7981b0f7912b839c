/**
 * Per-domain payment limits and locked-rate currency conversion (docs/decisions.md, "Payment
 * limits" and "Currencies"):
 *
 * - `domains.max_payment_amount`, `velocity_limit`, `velocity_window_minutes`: the domain's own
 *   limits; null means the service-wide default. They are account facts the servers cache with the
 *   domain, so the account-version trigger on `domains` (0006) now watches them too: a limit set
 *   with the CLI applies to the very next request on every instance.
 * - `payments.buyer_key`: who the buyer is for the velocity limit (`customer:<id>` or
 *   `email:<address>`), null when the request named neither; indexed with the domain, the
 *   sandbox flag and the creation time, which is how payments are counted.
 * - `payments.price_amount`, `price_currency`: what the merchant priced a converted payment in
 *   (`amount` stays the whole AMD the processor is asked for; `charge` holds the locked rate).
 * - `fx_rates`: every rate the operator set, with the time it was set (history is kept; a null
 *   rate withdraws the currency). Not cached: read when a payment names a currency.
 */
import { type Kysely, sql } from 'kysely';
import { isSqlite } from './dialect.js';

/** The `domains` columns whose change moves the account version, before and after this migration. */
const DOMAIN_FACTS_0006 = [
  'merchant_id',
  'host',
  'hosted',
  'verified',
  'webhook_url',
  'webhook_secret',
  'webhook_secret_next',
  'webhook_secret_next_at',
];
const DOMAIN_FACTS = [...DOMAIN_FACTS_0006, 'max_payment_amount', 'velocity_limit', 'velocity_window_minutes'];

/** Recreates the update trigger(s) of `domains` (named as 0006 named them) over `columns`. */
async function watchDomainColumns(db: Kysely<unknown>, sqlite: boolean, columns: readonly string[]): Promise<void> {
  if (sqlite) {
    await sql.raw('drop trigger domains_update_account_version').execute(db);
    await sql
      .raw(
        `create trigger domains_update_account_version after update of ${columns.join(', ')} on domains ` +
          'begin update account_version set version = version + 1 where id = 1; end',
      )
      .execute(db);
    return;
  }
  await sql.raw('drop trigger domains_account_version on domains').execute(db);
  await sql
    .raw(
      `create trigger domains_account_version after insert or update of ${columns.join(', ')} or delete on domains ` +
        'for each row execute function bump_account_version()',
    )
    .execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const sqlite = await isSqlite(db);
  await db.schema.alterTable('domains').addColumn('max_payment_amount', 'bigint').execute();
  await db.schema.alterTable('domains').addColumn('velocity_limit', 'integer').execute();
  await db.schema.alterTable('domains').addColumn('velocity_window_minutes', 'integer').execute();
  await watchDomainColumns(db, sqlite, DOMAIN_FACTS);

  await db.schema.alterTable('payments').addColumn('buyer_key', 'text').execute();
  await db.schema.alterTable('payments').addColumn('price_amount', 'bigint').execute();
  await db.schema.alterTable('payments').addColumn('price_currency', 'text').execute();
  await db.schema
    .createIndex('payments_velocity')
    .on('payments')
    .columns(['domain_id', 'sandbox', 'buyer_key', 'created_at'])
    .where(sql.ref('buyer_key'), 'is not', null)
    .execute();

  await db.schema
    .createTable('fx_rates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('rate', 'text')
    .addColumn('set_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('fx_rates_currency').on('fx_rates').columns(['currency', 'set_at', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const sqlite = await isSqlite(db);
  await db.schema.dropTable('fx_rates').execute();
  await db.schema.dropIndex('payments_velocity').execute();
  await db.schema.alterTable('payments').dropColumn('price_currency').execute();
  await db.schema.alterTable('payments').dropColumn('price_amount').execute();
  await db.schema.alterTable('payments').dropColumn('buyer_key').execute();
  await watchDomainColumns(db, sqlite, DOMAIN_FACTS_0006);
  await db.schema.alterTable('domains').dropColumn('velocity_window_minutes').execute();
  await db.schema.alterTable('domains').dropColumn('velocity_limit').execute();
  await db.schema.alterTable('domains').dropColumn('max_payment_amount').execute();
}
