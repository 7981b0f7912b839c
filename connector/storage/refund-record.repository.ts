import type { Selectable, Updateable } from 'kysely';
import type { ConnectorExecutor } from './database.js';
import type { RefundRecordTable } from './refund-record.table.js';

export type RefundRecord = Selectable<RefundRecordTable>;

export async function findRefundByGatewayUuid(db: ConnectorExecutor, uuid: string): Promise<RefundRecord | undefined> {
  return db.selectFrom('refund_records').selectAll().where('gateway_refund_uuid', '=', uuid).executeTakeFirst();
}

export async function findStoreRefund(
  db: ConnectorExecutor,
  linkId: string,
  storeRefundId: string,
): Promise<RefundRecord | undefined> {
  return db
    .selectFrom('refund_records')
    .selectAll()
    .where('link_id', '=', linkId)
    .where('origin', '=', 'store')
    .where('store_refund_id', '=', storeRefundId)
    .executeTakeFirst();
}

/** Inserts the record; false when a record with its gateway refund uuid already exists. */
export async function insertRefund(db: ConnectorExecutor, row: RefundRecord): Promise<boolean> {
  const result = await db
    .insertInto('refund_records')
    .values(row)
    .onConflict((oc) => oc.column('gateway_refund_uuid').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function updateRefund(
  db: ConnectorExecutor,
  id: string,
  changes: Updateable<RefundRecordTable>,
): Promise<void> {
  await db.updateTable('refund_records').set(changes).where('id', '=', id).execute();
}

export async function deleteRefund(db: ConnectorExecutor, id: string): Promise<void> {
  await db.deleteFrom('refund_records').where('id', '=', id).execute();
}

/**
 * Gives a store refund still on its way to the gateway (no gateway uuid yet) the gateway's uuid, when
 * one of that amount is waiting; answers true when it did. This is how a refund event that arrives
 * before the connector's own refund call has returned is recognised as the store's refund.
 */
export async function claimWaitingStoreRefund(
  db: ConnectorExecutor,
  linkId: string,
  amount: number,
  gatewayUuid: string,
  now: string,
): Promise<boolean> {
  const waiting = await db
    .selectFrom('refund_records')
    .select('id')
    .where('link_id', '=', linkId)
    .where('origin', '=', 'store')
    .where('gateway_refund_uuid', 'is', null)
    // A store refund that failed was taken back out of the store: no later refund is it.
    .where('status', 'in', ['pending', 'unknown'])
    .where('amount', '=', amount)
    .orderBy('created_at')
    .executeTakeFirst();
  if (waiting === undefined) return false;
  const result = await db
    .updateTable('refund_records')
    .set({ gateway_refund_uuid: gatewayUuid, status: 'succeeded', next_check_at: null, updated_at: now })
    .where('id', '=', waiting.id)
    .where('gateway_refund_uuid', 'is', null)
    .where('status', 'in', ['pending', 'unknown'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** An unknown (or pending) refund's outcome, written once: false when another runner settled it first. */
export async function settleRefundRecord(
  db: ConnectorExecutor,
  id: string,
  status: 'succeeded' | 'failed',
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('refund_records')
    .set({ status, next_check_at: null, updated_at: now })
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'unknown'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Store refunds whose outcome is unknown and whose check is due, the longest due first. */
export async function refundsDueForCheck(db: ConnectorExecutor, now: string, limit: number): Promise<RefundRecord[]> {
  return db
    .selectFrom('refund_records')
    .selectAll()
    .where('status', '=', 'unknown')
    .where('next_check_at', '<=', now)
    .orderBy('next_check_at')
    .limit(limit)
    .execute();
}

export async function refundsOfLink(db: ConnectorExecutor, linkId: string): Promise<RefundRecord[]> {
  return db.selectFrom('refund_records').selectAll().where('link_id', '=', linkId).orderBy('created_at').execute();
}
