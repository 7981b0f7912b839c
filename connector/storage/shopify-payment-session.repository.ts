/**
 * Payment and refund sessions of the Shopify payments app (0005). Every write that moves a session
 * on is conditional on the state it was read in, so two instances (or a webhook and the job) doing
 * the same step leave one result.
 */
import type { Selectable, Updateable } from 'kysely';
import type { ConnectorExecutor } from './database.js';
import type {
  ShopifyPaymentSessionState,
  ShopifyPaymentSessionTable,
  ShopifyRefundSessionState,
  ShopifyRefundSessionTable,
} from './shopify-payment-session.table.js';

export type ShopifyPaymentSession = Selectable<ShopifyPaymentSessionTable>;
export type ShopifyRefundSession = Selectable<ShopifyRefundSessionTable>;

/** Inserts the session unless one with its id exists; answers the stored row either way. */
export async function insertPaymentSession(
  db: ConnectorExecutor,
  row: ShopifyPaymentSession,
): Promise<ShopifyPaymentSession> {
  await db
    .insertInto('shopify_payment_sessions')
    .values(row)
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return db.selectFrom('shopify_payment_sessions').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
}

export async function findPaymentSession(
  db: ConnectorExecutor,
  id: string,
): Promise<ShopifyPaymentSession | undefined> {
  return db.selectFrom('shopify_payment_sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findPaymentSessionByPayment(
  db: ConnectorExecutor,
  uuid: string,
): Promise<ShopifyPaymentSession | undefined> {
  return db
    .selectFrom('shopify_payment_sessions')
    .selectAll()
    .where('gateway_payment_uuid', '=', uuid)
    .executeTakeFirst();
}

/** The shop's payment sessions carrying `flag` (e.g. `refund_needed`), newest first. */
export async function flaggedPaymentSessions(
  db: ConnectorExecutor,
  shop: string,
  flag: string,
  limit: number,
): Promise<ShopifyPaymentSession[]> {
  return db
    .selectFrom('shopify_payment_sessions')
    .selectAll()
    .where('shop', '=', shop)
    .where('flag', '=', flag)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * Sessions whose decision Shopify has not taken after `minAttempts` calls (still sent again), or that
 * ended `failed`, of a connection or of a shop; the oldest decision first.
 */
export async function unconfirmedPaymentSessions(
  db: ConnectorExecutor,
  of: { connectionId: string } | { shop: string },
  minAttempts: number,
  limit: number,
): Promise<ShopifyPaymentSession[]> {
  let query = db.selectFrom('shopify_payment_sessions').selectAll();
  query = 'connectionId' in of ? query.where('connection_id', '=', of.connectionId) : query.where('shop', '=', of.shop);
  return query
    .where((eb) =>
      eb.or([
        eb('state', '=', 'failed'),
        eb.and([eb('state', 'in', ['resolve_due', 'reject_due']), eb('attempts', '>=', minAttempts)]),
      ]),
    )
    .orderBy('decided_at')
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Applies `changes` when the session is still in one of `states`; answers whether it was. */
export async function movePaymentSession(
  db: ConnectorExecutor,
  id: string,
  states: readonly ShopifyPaymentSessionState[],
  changes: Updateable<ShopifyPaymentSessionTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('shopify_payment_sessions')
    .set(changes)
    .where('id', '=', id)
    .where('state', 'in', [...states])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Sets the gateway payment of a session that has none yet (the first POST that got one wins). */
export async function attachGatewayPayment(
  db: ConnectorExecutor,
  id: string,
  uuid: string,
  checkoutUrl: string,
  now: string,
  nextPollAt: string,
): Promise<void> {
  await db
    .updateTable('shopify_payment_sessions')
    .set({ gateway_payment_uuid: uuid, checkout_url: checkoutUrl, next_poll_at: nextPollAt, updated_at: now })
    .where('id', '=', id)
    .where('gateway_payment_uuid', 'is', null)
    .execute();
}

/**
 * Claims the group for `sessionId` unless another session claimed it first; answers the session the
 * group belongs to (this one, or the earlier winner).
 */
export async function claimPaymentGroup(
  db: ConnectorExecutor,
  group: string,
  sessionId: string,
  now: string,
): Promise<string> {
  await db
    .insertInto('shopify_payment_groups')
    .values({ payment_group: group, session_id: sessionId, claimed_at: now })
    .onConflict((oc) => oc.column('payment_group').doNothing())
    .execute();
  const row = await db
    .selectFrom('shopify_payment_groups')
    .select('session_id')
    .where('payment_group', '=', group)
    .executeTakeFirstOrThrow();
  return row.session_id;
}

/** Sessions whose decision is due to be sent to Shopify (again). */
export async function paymentSessionsDue(
  db: ConnectorExecutor,
  now: string,
  limit: number,
): Promise<ShopifyPaymentSession[]> {
  return db
    .selectFrom('shopify_payment_sessions')
    .selectAll()
    .where('state', 'in', ['resolve_due', 'reject_due'])
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();
}

/** Undecided sessions whose gateway payment is due to be read back. */
export async function paymentSessionsToPoll(
  db: ConnectorExecutor,
  now: string,
  limit: number,
): Promise<ShopifyPaymentSession[]> {
  return db
    .selectFrom('shopify_payment_sessions')
    .selectAll()
    .where('state', 'in', ['open', 'pending'])
    .where('gateway_payment_uuid', 'is not', null)
    .where('next_poll_at', '<=', now)
    .orderBy('next_poll_at')
    .limit(limit)
    .execute();
}

export async function insertRefundSession(
  db: ConnectorExecutor,
  row: ShopifyRefundSession,
): Promise<{ row: ShopifyRefundSession; created: boolean }> {
  const result = await db
    .insertInto('shopify_refund_sessions')
    .values(row)
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  const stored = await db
    .selectFrom('shopify_refund_sessions')
    .selectAll()
    .where('id', '=', row.id)
    .executeTakeFirstOrThrow();
  return { row: stored, created: Number(result.numInsertedOrUpdatedRows ?? 0n) === 1 };
}

export async function findRefundSession(db: ConnectorExecutor, id: string): Promise<ShopifyRefundSession | undefined> {
  return db.selectFrom('shopify_refund_sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function moveRefundSession(
  db: ConnectorExecutor,
  id: string,
  states: readonly ShopifyRefundSessionState[],
  changes: Updateable<ShopifyRefundSessionTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('shopify_refund_sessions')
    .set(changes)
    .where('id', '=', id)
    .where('state', 'in', [...states])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function refundSessionsDue(
  db: ConnectorExecutor,
  now: string,
  limit: number,
): Promise<ShopifyRefundSession[]> {
  return db
    .selectFrom('shopify_refund_sessions')
    .selectAll()
    .where('state', 'in', ['refund_due', 'resolve_due', 'reject_due'])
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();
}
