/**
 * What the connector holds about a store's orders, and deleting it (privacy requests): the order
 * map (`order_links`), the gateway payments made for each order, refunds, reconciliation findings
 * and notes about the order, and the gateway webhook receipts naming its payments. No names,
 * emails, addresses or card data are stored by the connector; the gateway keeps its own records.
 */
import type { ConnectorExecutor } from './database.js';

export interface HeldOrder {
  store_order_id: string;
  gateway_order_id: string;
  amount: number;
  currency: string;
  gateway_status: string | null;
  paid_payment_uuid: string | null;
  created_at: string;
  payments: { uuid: string; status: string; amount: number; currency: string; created_at: string }[];
  refunds: {
    gateway_refund_uuid: string | null;
    store_refund_id: string | null;
    amount: number;
    origin: string;
    created_at: string;
  }[];
  findings: { kind: string; payment_uuid: string | null; detail: string; created_at: string }[];
}

export async function heldOrders(
  db: ConnectorExecutor,
  connectionId: string,
  storeOrderIds: readonly string[],
): Promise<HeldOrder[]> {
  if (storeOrderIds.length === 0) return [];
  const links = await db
    .selectFrom('order_links')
    .selectAll()
    .where('connection_id', '=', connectionId)
    .where('store_order_id', 'in', storeOrderIds)
    .orderBy('created_at')
    .execute();
  const held: HeldOrder[] = [];
  for (const link of links) {
    const payments = await db
      .selectFrom('order_payments')
      .select(['uuid', 'status', 'amount', 'currency', 'created_at'])
      .where('link_id', '=', link.id)
      .orderBy('created_at')
      .execute();
    const refunds = await db
      .selectFrom('refund_records')
      .select(['gateway_refund_uuid', 'store_refund_id', 'amount', 'origin', 'created_at'])
      .where('link_id', '=', link.id)
      .orderBy('created_at')
      .execute();
    const findings = await db
      .selectFrom('reconciliation_findings')
      .innerJoin('reconciliation_runs', 'reconciliation_runs.id', 'reconciliation_findings.run_id')
      .select([
        'reconciliation_findings.kind',
        'reconciliation_findings.payment_uuid',
        'reconciliation_findings.detail',
        'reconciliation_findings.created_at',
      ])
      .where('reconciliation_runs.connection_id', '=', connectionId)
      .where('reconciliation_findings.store_order_id', '=', link.store_order_id)
      .orderBy('reconciliation_findings.created_at')
      .execute();
    held.push({
      store_order_id: link.store_order_id,
      gateway_order_id: link.gateway_order_id,
      amount: Number(link.amount),
      currency: link.currency,
      gateway_status: link.gateway_status,
      paid_payment_uuid: link.paid_payment_uuid,
      created_at: link.created_at,
      payments: payments.map((p) => ({ ...p, amount: Number(p.amount) })),
      refunds: refunds.map((r) => ({ ...r, amount: Number(r.amount) })),
      findings,
    });
  }
  return held;
}

/** Deletes what the connector holds about these orders; answers how many orders it held. */
export async function deleteOrderData(
  db: ConnectorExecutor,
  connectionId: string,
  storeOrderIds: readonly string[],
): Promise<number> {
  if (storeOrderIds.length === 0) return 0;
  const links = await db
    .selectFrom('order_links')
    .select(['id'])
    .where('connection_id', '=', connectionId)
    .where('store_order_id', 'in', storeOrderIds)
    .execute();
  const linkIds = links.map((link) => link.id);
  if (linkIds.length > 0) {
    const uuids = (await db.selectFrom('order_payments').select('uuid').where('link_id', 'in', linkIds).execute()).map(
      (p) => p.uuid,
    );
    if (uuids.length > 0) {
      await db
        .deleteFrom('webhook_receipts')
        .where('connection_id', '=', connectionId)
        .where('payment_uuid', 'in', uuids)
        .execute();
    }
    await db.deleteFrom('refund_records').where('link_id', 'in', linkIds).execute();
    await db.deleteFrom('order_payments').where('link_id', 'in', linkIds).execute();
    await db.deleteFrom('order_links').where('id', 'in', linkIds).execute();
  }
  await db
    .deleteFrom('reconciliation_findings')
    .where('store_order_id', 'in', storeOrderIds)
    .where('run_id', 'in', (eb) =>
      eb.selectFrom('reconciliation_runs').select('id').where('connection_id', '=', connectionId),
    )
    .execute();
  await db
    .deleteFrom('reconciliation_notes')
    .where('connection_id', '=', connectionId)
    .where('store_order_id', 'in', storeOrderIds)
    .execute();
  return linkIds.length;
}

/** Deletes the connection and everything recorded under it. */
export async function deleteConnectionData(db: ConnectorExecutor, connectionId: string): Promise<void> {
  await db.deleteFrom('webhook_receipts').where('connection_id', '=', connectionId).execute();
  await db.deleteFrom('refund_records').where('connection_id', '=', connectionId).execute();
  await db
    .deleteFrom('order_payments')
    .where('link_id', 'in', (eb) => eb.selectFrom('order_links').select('id').where('connection_id', '=', connectionId))
    .execute();
  await db.deleteFrom('order_links').where('connection_id', '=', connectionId).execute();
  await db
    .deleteFrom('reconciliation_findings')
    .where('run_id', 'in', (eb) =>
      eb.selectFrom('reconciliation_runs').select('id').where('connection_id', '=', connectionId),
    )
    .execute();
  await db.deleteFrom('reconciliation_runs').where('connection_id', '=', connectionId).execute();
  await db.deleteFrom('reconciliation_notes').where('connection_id', '=', connectionId).execute();
  await db.deleteFrom('reconciliation_backoff').where('connection_id', '=', connectionId).execute();
  await db.deleteFrom('store_connections').where('id', '=', connectionId).execute();
}
