import type { ConnectorExecutor } from './database.js';

export async function isDeliveryHandled(db: ConnectorExecutor, deliveryId: string): Promise<boolean> {
  const row = await db
    .selectFrom('webhook_receipts')
    .select('delivery_id')
    .where('delivery_id', '=', deliveryId)
    .executeTakeFirst();
  return row !== undefined;
}

/** A gateway webhook delivery the connector handled. */
export interface DeliveryRecord {
  delivery_id: string;
  connection_id: string;
  event: string;
  payment_uuid: string;
  received_at: string;
}

export async function recordDelivery(db: ConnectorExecutor, row: DeliveryRecord): Promise<void> {
  await db
    .insertInto('webhook_receipts')
    .values(row)
    .onConflict((oc) => oc.column('delivery_id').doNothing())
    .execute();
}

/** True when a webhook about this payment was handled for the connection. */
export async function hasWebhookFor(
  db: ConnectorExecutor,
  connectionId: string,
  paymentUuid: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('webhook_receipts')
    .select('delivery_id')
    .where('connection_id', '=', connectionId)
    .where('payment_uuid', '=', paymentUuid)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
