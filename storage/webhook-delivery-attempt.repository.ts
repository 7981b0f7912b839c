import type { Executor } from './database.js';
import type { NewWebhookDeliveryAttemptRow, WebhookDeliveryAttemptRow } from './webhook-delivery-attempt.table.js';

export async function insertDeliveryAttempt(db: Executor, row: NewWebhookDeliveryAttemptRow): Promise<void> {
  await db.insertInto('webhook_delivery_attempts').values(row).execute();
}

/** The attempts of these deliveries, each delivery's in attempt order. */
export async function listDeliveryAttempts(
  db: Executor,
  deliveryIds: readonly string[],
): Promise<WebhookDeliveryAttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return db
    .selectFrom('webhook_delivery_attempts')
    .selectAll()
    .where('delivery_id', 'in', [...deliveryIds])
    .orderBy('delivery_id')
    .orderBy('attempt')
    .execute();
}
