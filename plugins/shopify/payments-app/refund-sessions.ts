/**
 * Refund sessions (`POST /shopify/payments/refunds`): checked, stored once per `id` (ON CONFLICT DO
 * NOTHING), answered 201 with an empty body; then, from the row: the refund at the gateway with the
 * session id as idempotency key, and `refundSessionResolve` / `refundSessionReject` (reason
 * PROCESSING_ERROR, the only one) retried on the schedule of ./queue.ts.
 *
 * `payment_id` names the payment session (its bare `id`; a gid is accepted too). A refund of an
 * unknown or unpaid session, of a fractional or non-AMD amount, or one the gateway refuses, is rejected
 * ({@link refundRefusal} says why: a captured authorization refunds at most what was
 * captured); a refund the gateway may still be making is asked again.
 */
import { gatewayOf } from '../../../connector/connections/connection-access.js';
import { ConnectorError } from '../../../connector/errors.js';
import { GatewayError } from '../../../connector/gateway-client/client.js';
import type { ConnectorDeps } from '../../../connector/runtime/deps.js';
import { findConnection } from '../../../connector/storage/connection.repository.js';
import {
  findPaymentSession,
  findRefundSession,
  insertRefundSession,
  moveRefundSession,
  type ShopifyRefundSession,
} from '../../../connector/storage/shopify-payment-session.repository.js';
import type { ShopifyRefundSessionState } from '../../../connector/storage/shopify-payment-session.table.js';
import { findShopifyShop } from '../../../connector/storage/shopify-shop.repository.js';
import { toStoredInstant } from '../../../gateway/domain/clock.js';
import type { ShopifyRuntime } from '../runtime.js';
import { noteSessionVersion, paymentsAppsOf, sessionApiVersion } from './access.js';
import { wholeAmd } from './amount.js';
import { failedAttempt, failedDecision } from './call-failures.js';
import type { Resolution } from './payment-sessions.js';
import { CLAIM_LEASE_MS, FINALIZE_FOR_MS } from './queue.js';
import { parseBody, type SessionHeaders } from './session-request.js';
import { refundSessionRequest } from './wire.js';

const PAYMENT_GID = 'gid://shopify/PaymentSession/';

/** Stores the refund session; the caller answers 201 and starts {@link driveRefund}. */
export async function acceptRefundSession(
  deps: ConnectorDeps,
  shopify: ShopifyRuntime,
  headers: SessionHeaders,
  rawBody: unknown,
): Promise<ShopifyRefundSession> {
  const body = parseBody(refundSessionRequest, rawBody);
  const shop = await findShopifyShop(deps.db, headers.shop);
  if (shop === undefined || shop.status !== 'installed') {
    throw new ConnectorError(401, 'shop_not_installed', `${headers.shop} has not installed the app.`);
  }
  noteSessionVersion(deps, shopify, { shop: headers.shop, id: body.id, kind: 'refund', sent: headers.apiVersion });
  const now = toStoredInstant(deps.clock.nowMs());
  const { row } = await insertRefundSession(deps.db, {
    id: body.id,
    gid: body.gid,
    shop: headers.shop,
    payment_id: body.payment_id.startsWith(PAYMENT_GID) ? body.payment_id.slice(PAYMENT_GID.length) : body.payment_id,
    amount: body.amount,
    currency: body.currency,
    gateway_refund_uuid: null,
    state: 'refund_due',
    resolution: null,
    attempts: 0,
    next_attempt_at: now,
    last_error: null,
    created_at: now,
    updated_at: now,
    api_version: headers.apiVersion.slice(0, 32),
  });
  if (row.shop !== headers.shop)
    throw new ConnectorError(409, 'session_exists', 'This refund session id belongs to another shop.');
  return row;
}

/** Moves the refund session as far as it goes now (gateway refund, then Shopify). */
export async function driveRefund(
  deps: ConnectorDeps,
  shopify: ShopifyRuntime,
  id: string,
): Promise<ShopifyRefundSession | undefined> {
  let row = await findRefundSession(deps.db, id);
  if (row?.state === 'refund_due') {
    await refundAtGateway(deps, row);
    row = await findRefundSession(deps.db, id);
  }
  if (row?.state === 'resolve_due' || row?.state === 'reject_due') {
    await sendRefundDecision(deps, shopify, row);
    row = await findRefundSession(deps.db, id);
  }
  return row;
}

/** Claims a due step of the row for {@link CLAIM_LEASE_MS}; false when it is not due or taken. */
async function claim(deps: ConnectorDeps, row: ShopifyRefundSession): Promise<boolean> {
  const nowMs = deps.clock.nowMs();
  if (row.next_attempt_at === null || Date.parse(row.next_attempt_at) > nowMs) return false;
  return moveRefundSession(deps.db, row.id, [row.state], { next_attempt_at: toStoredInstant(nowMs + CLAIM_LEASE_MS) });
}

async function decide(
  deps: ConnectorDeps,
  row: ShopifyRefundSession,
  resolution: Resolution,
  extra: { gateway_refund_uuid?: string } = {},
) {
  const now = toStoredInstant(deps.clock.nowMs());
  await moveRefundSession(deps.db, row.id, ['refund_due'], {
    state: resolution.action === 'resolve' ? 'resolve_due' : 'reject_due',
    resolution: JSON.stringify(resolution),
    attempts: 0,
    next_attempt_at: now,
    last_error: null,
    updated_at: now,
    ...extra,
  });
}

const reject = (message: string): Resolution => ({ action: 'reject', code: 'PROCESSING_ERROR', message });

/** Gateway refusals that say a refund may be (or is being) made: asked again, never rejected. */
const REFUND_NOT_KNOWN_YET = new Set(['refund_outcome_unknown', 'refund_in_progress', 'conflict']);

/**
 * The merchant's words for a gateway refusal. A captured authorization refunds at most what was
 * captured (the gateway's `amount_exceeds_remaining`, with `remaining_amount`); one never captured
 * has nothing to refund (`not_refundable`, the payment `authorized` or released).
 */
export function refundRefusal(error: GatewayError): string {
  const remaining = error.body.remaining_amount;
  if (error.code === 'amount_exceeds_remaining' && typeof remaining === 'number') {
    return `The gateway refunds at most what was taken and not refunded yet: ${remaining} AMD (amount_exceeds_remaining).`;
  }
  const status = error.body.payment_status;
  if (error.code === 'not_refundable' && status === 'authorized') {
    return 'The payment is only held on the card, never captured: nothing was taken to refund; void it instead (not_refundable).';
  }
  if (error.code === 'not_refundable' && status === 'expired') {
    return 'The hold was released and nothing was taken: there is nothing to refund (not_refundable).';
  }
  return `The gateway refused the refund: ${error.message} (${error.code})`;
}

async function refundAtGateway(deps: ConnectorDeps, row: ShopifyRefundSession): Promise<void> {
  if (!(await claim(deps, row))) return;
  const payment = await findPaymentSession(deps.db, row.payment_id);
  if (payment === undefined || payment.shop !== row.shop)
    return decide(deps, row, reject('The payment to refund is not known to the app.'));
  if (payment.state !== 'resolved' || payment.gateway_payment_uuid === null) {
    return decide(deps, row, reject('The payment to refund was not completed through the app.'));
  }
  const amount = wholeAmd(row.amount, row.currency);
  if (!amount.ok) return decide(deps, row, reject(amount.message));
  const connection = await findConnection(deps.db, payment.connection_id);
  const attempts = row.attempts + 1;
  try {
    if (connection === undefined)
      throw new ConnectorError(409, 'shop_not_connected', 'The gateway connection is gone.');
    const refund = await gatewayOf(deps, connection).refundPayment(
      payment.gateway_payment_uuid,
      { amount: amount.amd, reason: `Shopify refund ${row.id}` },
      { idempotencyKey: `shopify-refund-session:${row.id}` },
    );
    if (refund.status === 'succeeded')
      return decide(deps, row, { action: 'resolve' }, { gateway_refund_uuid: refund.uuid });
    if (refund.status === 'failed') {
      return decide(
        deps,
        row,
        reject(`The gateway's refund failed${refund.failure_code ? ` (${refund.failure_code})` : ''}.`),
        {
          gateway_refund_uuid: refund.uuid,
        },
      );
    }
    // pending / unknown at the gateway: asked again later (the idempotency key answers the same refund).
    throw new Error(`gateway refund ${refund.uuid} is ${refund.status}`);
  } catch (error) {
    if (error instanceof ConnectorError)
      return decide(deps, row, reject(`The gateway refused the refund: ${error.message}`));
    if (error instanceof GatewayError && !error.retryable && !REFUND_NOT_KNOWN_YET.has(error.code)) {
      return decide(deps, row, reject(refundRefusal(error)));
    }
    await failedAttempt(deps, { id: row.id, shop: row.shop }, attempts, error, (changes) =>
      moveRefundSession(deps.db, row.id, ['refund_due'], {
        attempts,
        updated_at: toStoredInstant(deps.clock.nowMs()),
        ...changes,
      }),
    );
  }
}

async function sendRefundDecision(
  deps: ConnectorDeps,
  shopify: ShopifyRuntime,
  row: ShopifyRefundSession,
): Promise<void> {
  if (!(await claim(deps, row))) return;
  const due = row.state as ShopifyRefundSessionState;
  const resolution = JSON.parse(row.resolution ?? '{}') as Resolution;
  const attempts = row.attempts + 1;
  const save = (changes: Parameters<typeof moveRefundSession>[3]) =>
    moveRefundSession(deps.db, row.id, [due], {
      attempts,
      updated_at: toStoredInstant(deps.clock.nowMs()),
      ...changes,
    });
  try {
    const client = await paymentsAppsOf(shopify, row.shop, sessionApiVersion(shopify, row.api_version));
    const result =
      resolution.action === 'resolve'
        ? await client.mutate('refundSessionResolve', { id: row.gid })
        : await client.mutate('refundSessionReject', {
            id: row.gid,
            reason: { code: 'PROCESSING_ERROR', merchantMessage: resolution.message },
          });
    if (result.ok) {
      await save({
        state: resolution.action === 'resolve' ? 'resolved' : 'rejected',
        next_attempt_at: null,
        last_error: null,
      });
      return;
    }
    const message = result.userErrors.map((e) => e.message).join('; ');
    await save({ state: 'failed', next_attempt_at: null, last_error: message.slice(0, 500) });
    deps.logger.error(
      { shop: row.shop, refund_session: row.id, user_errors: message },
      'Shopify refused to finalize the refund session',
    );
  } catch (error) {
    // The refund was made at the gateway (or refused there): its decision is sent until Shopify takes it.
    const untilMs = Date.parse(row.created_at) + FINALIZE_FOR_MS;
    await failedDecision(deps, { id: row.id, shop: row.shop }, attempts, error, untilMs, save);
  }
}
