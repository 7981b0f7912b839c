import type { Selectable, Updateable } from 'kysely';
import { ENDED_STATUSES } from './connection.table.js';
import type { ConnectorExecutor } from './database.js';
import type { OrderLinkTable, OrderPaymentTable } from './order-link.table.js';

export type OrderLink = Selectable<OrderLinkTable>;
export type OrderPayment = Selectable<OrderPaymentTable>;

export async function findLink(
  db: ConnectorExecutor,
  connectionId: string,
  storeOrderId: string,
): Promise<OrderLink | undefined> {
  return db
    .selectFrom('order_links')
    .selectAll()
    .where('connection_id', '=', connectionId)
    .where('store_order_id', '=', storeOrderId)
    .executeTakeFirst();
}

export async function findLinkById(db: ConnectorExecutor, id: string): Promise<OrderLink | undefined> {
  return db.selectFrom('order_links').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Inserts the link unless the store order already has one; answers the stored link either way. */
export async function ensureLink(db: ConnectorExecutor, row: OrderLink): Promise<OrderLink> {
  await db
    .insertInto('order_links')
    .values(row)
    .onConflict((oc) => oc.columns(['connection_id', 'store_order_id']).doNothing())
    .execute();
  const stored = await findLink(db, row.connection_id, row.store_order_id);
  if (stored === undefined) throw new Error('order link vanished after insert');
  return stored;
}

export async function updateLink(
  db: ConnectorExecutor,
  id: string,
  changes: Updateable<OrderLinkTable>,
): Promise<void> {
  await db.updateTable('order_links').set(changes).where('id', '=', id).execute();
}

/**
 * Records `uuid` as the payment that paid the order, only if none did before. Answers true when this
 * call made the change: the caller then owns marking the order paid in the store.
 */
export async function claimPaid(db: ConnectorExecutor, id: string, uuid: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('order_links')
    .set({
      paid_payment_uuid: uuid,
      gateway_status: 'completed',
      store_sync: 'pending',
      sync_attempts: 0,
      next_sync_at: now,
      last_sync_error: null,
      next_poll_at: null,
      updated_at: now,
    })
    .where('id', '=', id)
    .where('paid_payment_uuid', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Takes the marking of a paid order in the store for one runner until `until`: the link must be
 * waiting for it (`store_sync` pending) and no other runner may hold it, so a job tick, a webhook,
 * the read-back and a reconciliation repair arriving together mark it (and note it) once. The runner
 * ends it ({@link endStoreSyncLease}); one that died holds it until `until`.
 */
export async function leaseStoreSync(db: ConnectorExecutor, id: string, now: string, until: string): Promise<boolean> {
  const result = await db
    .updateTable('order_links')
    .set({ sync_lease_until: until })
    .where('id', '=', id)
    .where('store_sync', '=', 'pending')
    .where('paid_payment_uuid', 'is not', null)
    .where((eb) => eb.or([eb('sync_lease_until', 'is', null), eb('sync_lease_until', '<=', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function endStoreSyncLease(db: ConnectorExecutor, id: string): Promise<void> {
  await db.updateTable('order_links').set({ sync_lease_until: null }).where('id', '=', id).execute();
}

/** Sets a flag unless the link already carries it; answers true when it was new. */
export async function raiseFlag(db: ConnectorExecutor, id: string, flag: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('order_links')
    .set({ flag, updated_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('flag', 'is', null), eb('flag', '!=', flag)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function linksDueForSync(db: ConnectorExecutor, now: string, limit: number): Promise<OrderLink[]> {
  return db
    .selectFrom('order_links')
    .selectAll()
    .where('store_sync', '=', 'pending')
    .where('next_sync_at', '<=', now)
    .orderBy('next_sync_at')
    .limit(limit)
    .execute();
}

/**
 * Links due for a read-back, of connections the gateway still accepts. Only links with a payment
 * ever get a `next_poll_at`; a revoked or removed connection is not polled at all.
 */
export async function linksDueForPoll(db: ConnectorExecutor, now: string, limit: number): Promise<OrderLink[]> {
  return db
    .selectFrom('order_links')
    .selectAll('order_links')
    .where('next_poll_at', '<=', now)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('store_connections')
          .select('store_connections.id')
          .whereRef('store_connections.id', '=', 'order_links.connection_id')
          .where('store_connections.status', 'not in', ['token_revoked', ...ENDED_STATUSES]),
      ),
    )
    .orderBy('next_poll_at')
    .limit(limit)
    .execute();
}

/**
 * A connection that has keys again (new ones accepted, or a store connected again after a removal):
 * what its orders were waiting for is due now.
 */
export async function resumeLinksOfConnection(db: ConnectorExecutor, connectionId: string, now: string): Promise<void> {
  // Orders waiting to be marked paid while the store could not be reached with keys.
  await db
    .updateTable('order_links')
    .set({ next_sync_at: now, updated_at: now })
    .where('connection_id', '=', connectionId)
    .where('store_sync', '=', 'pending')
    .where('next_sync_at', 'is', null)
    .execute();
  // Unpaid orders whose polling stopped with a removal: read back now (a payment may have completed meanwhile).
  await db
    .updateTable('order_links')
    .set({ next_poll_at: now, poll_failures: 0, updated_at: now })
    .where('connection_id', '=', connectionId)
    .where('paid_payment_uuid', 'is', null)
    .where('next_poll_at', 'is', null)
    .where('gateway_status', 'in', ['pending', 'processing'])
    .execute();
}

/** A removed connection's links: no more polls or store syncs. */
export async function stopLinksOfConnection(db: ConnectorExecutor, connectionId: string, now: string): Promise<void> {
  await db
    .updateTable('order_links')
    .set({ next_poll_at: null, next_sync_at: null, updated_at: now })
    .where('connection_id', '=', connectionId)
    .where((eb) => eb.or([eb('next_poll_at', 'is not', null), eb('next_sync_at', 'is not', null)]))
    .execute();
}

export async function linksCreatedBetween(
  db: ConnectorExecutor,
  connectionId: string,
  from: string,
  to: string,
): Promise<OrderLink[]> {
  return db
    .selectFrom('order_links')
    .selectAll()
    .where('connection_id', '=', connectionId)
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .execute();
}

/** Records (or updates the status of) a payment made for an order. */
export async function recordOrderPayment(db: ConnectorExecutor, row: OrderPayment): Promise<void> {
  await db
    .insertInto('order_payments')
    .values(row)
    .onConflict((oc) => oc.column('uuid').doUpdateSet({ status: row.status, updated_at: row.updated_at }))
    .execute();
}

export async function paymentsOfLink(db: ConnectorExecutor, linkId: string): Promise<OrderPayment[]> {
  return db.selectFrom('order_payments').selectAll().where('link_id', '=', linkId).orderBy('created_at').execute();
}

/** Marks a payment's final status as noted on the order; answers true when it had not been. */
export async function claimNote(db: ConnectorExecutor, uuid: string, status: string): Promise<boolean> {
  const result = await db
    .updateTable('order_payments')
    .set({ noted_status: status })
    .where('uuid', '=', uuid)
    .where('noted_status', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function releaseNote(db: ConnectorExecutor, uuid: string): Promise<void> {
  await db.updateTable('order_payments').set({ noted_status: null }).where('uuid', '=', uuid).execute();
}

/** The connection's latest orders in the map, newest first (the Shopify app's order list). */
export async function recentLinksOfConnection(
  db: ConnectorExecutor,
  connectionId: string,
  limit: number,
): Promise<OrderLink[]> {
  return db
    .selectFrom('order_links')
    .selectAll()
    .where('connection_id', '=', connectionId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
}
