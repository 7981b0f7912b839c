/**
 * Each shop's `paymentsAppConfigure` call (0007): what is to be sent, and what Shopify took. The row
 * is its own queue entry, like the payment sessions: written first, sent from the row, retried.
 */
import type { Selectable, Updateable } from 'kysely';
import type { ConnectorExecutor } from './database.js';
import type {
  ShopifyPaymentsConfigurationState,
  ShopifyPaymentsConfigurationTable,
} from './shopify-payments-configuration.table.js';

export type ShopifyPaymentsConfiguration = Selectable<ShopifyPaymentsConfigurationTable>;

export async function findPaymentsConfiguration(
  db: ConnectorExecutor,
  shop: string,
): Promise<ShopifyPaymentsConfiguration | undefined> {
  return db.selectFrom('shopify_payments_configurations').selectAll().where('shop', '=', shop).executeTakeFirst();
}

/**
 * Asks for `ready` (with `externalHandle`) to be sent to Shopify: a new call due now, unless the same
 * configuration is already due or was taken by Shopify. Answers whether a call is now due.
 */
export async function requestPaymentsConfiguration(
  db: ConnectorExecutor,
  shop: string,
  ready: boolean,
  externalHandle: string | null,
  now: string,
): Promise<boolean> {
  const wanted = {
    ready: ready ? 1 : 0,
    external_handle: externalHandle,
    state: 'due' as const,
    attempts: 0,
    next_attempt_at: now,
    last_error: null,
    updated_at: now,
  };
  await db
    .insertInto('shopify_payments_configurations')
    .values({ shop, configured_at: null, ...wanted })
    .onConflict((oc) =>
      oc
        .column('shop')
        .doUpdateSet(wanted)
        .where((eb) =>
          eb.or([
            eb('shopify_payments_configurations.ready', '!=', wanted.ready),
            externalHandle === null
              ? eb('shopify_payments_configurations.external_handle', 'is not', null)
              : eb.or([
                  eb('shopify_payments_configurations.external_handle', 'is', null),
                  eb('shopify_payments_configurations.external_handle', '!=', externalHandle),
                ]),
            eb('shopify_payments_configurations.state', '=', 'failed'),
          ]),
        ),
    )
    .execute();
  const row = await findPaymentsConfiguration(db, shop);
  return row?.state === 'due';
}

/** Applies `changes` when the row is still in `state`; answers whether it was. */
export async function movePaymentsConfiguration(
  db: ConnectorExecutor,
  shop: string,
  state: ShopifyPaymentsConfigurationState,
  changes: Updateable<ShopifyPaymentsConfigurationTable>,
  onlyIf: { ready: number; externalHandle: string | null },
): Promise<boolean> {
  const result = await db
    .updateTable('shopify_payments_configurations')
    .set(changes)
    .where('shop', '=', shop)
    .where('state', '=', state)
    .where('ready', '=', onlyIf.ready)
    .where((eb) =>
      onlyIf.externalHandle === null
        ? eb('external_handle', 'is', null)
        : eb('external_handle', '=', onlyIf.externalHandle),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Configurations whose call is due (again). */
export async function paymentsConfigurationsDue(
  db: ConnectorExecutor,
  now: string,
  limit: number,
): Promise<ShopifyPaymentsConfiguration[]> {
  return db
    .selectFrom('shopify_payments_configurations')
    .selectAll()
    .where('state', '=', 'due')
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();
}

export async function deletePaymentsConfiguration(db: ConnectorExecutor, shop: string): Promise<void> {
  await db.deleteFrom('shopify_payments_configurations').where('shop', '=', shop).execute();
}
