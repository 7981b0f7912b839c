/**
 * Payment sessions (`POST /shopify/payments/sessions`) and what follows them:
 *
 * 1. Shopify's POST is checked (headers, body, shop installed and linked, environment), refused with
 *    422 for another currency or a fractional AMD amount; then the row is inserted with ON CONFLICT
 *    DO NOTHING and read back, so a repeated POST of the same `id` finds it. The gateway payment is
 *    created with the shop's connect token and the session `id` as the idempotency key: a repeat
 *    (even a racing one) gets the same payment and the same `redirect_url`. A `kind: authorization`
 *    session makes a `capture_method: manual` payment (only held on the card); a domain whose
 *    methods cannot hold one makes the gateway refuse it, answered 422 `authorization_not_supported`.
 * 2. When the gateway's payment is final, or `authorized` for an authorization (its webhook, read
 *    back; the job's polling; the buyer's return), the decision is written to the row first: the
 *    first paid session of a `group` claims it and is resolved (an authorization with
 *    `authorizationExpiresAt`, the payment's `capture_before`); a later paid session of the same
 *    group is rejected and flagged `refund_needed` (a later hold is released at the gateway instead);
 *    a failed or expired payment is rejected with the reason mapped from its `failure_code`
 *    (./reasons.ts). Every move is conditional on the state read, so it happens once.
 * 3. The decision is sent to Shopify from the row (./session-decisions.ts), retried until Shopify
 *    takes it; the buyer's way back through the storefront is ./buyer-return.ts.
 */

import { gatewayOf } from '../../../connector/connections/connection-access.js';
import { ConnectorError } from '../../../connector/errors.js';
import { GatewayError, type GatewayPayment } from '../../../connector/gateway-client/client.js';
import type { ConnectorDeps } from '../../../connector/runtime/deps.js';
import { findConnection } from '../../../connector/storage/connection.repository.js';
import {
  attachGatewayPayment,
  claimPaymentGroup,
  findPaymentSession,
  insertPaymentSession,
  movePaymentSession,
  type ShopifyPaymentSession,
} from '../../../connector/storage/shopify-payment-session.repository.js';
import type { ShopifyPaymentSessionState } from '../../../connector/storage/shopify-payment-session.table.js';
import { DAY_MS, MINUTE_MS, toStoredInstant } from '../../../gateway/domain/clock.js';
import type { ShopifyRuntime } from '../runtime.js';
import { connectionOfShop, noteSessionVersion } from './access.js';
import { wholeAmd } from './amount.js';
import { storefrontUrl } from './app-proxy.js';
import { merchantMessageOf, rejectReasonOf } from './reasons.js';
import { parseBody, type SessionHeaders } from './session-request.js';
import { type PaymentSessionRequest, paymentSessionRequest } from './wire.js';

export const PAYMENTS_PATH = '/shopify/payments';
/** An undecided session's payment is read back this often (a webhook that never came). */
export const POLL_EVERY_MS = 2 * MINUTE_MS;
/** And for this long; the gateway's payment has expired well before. */
export const POLL_FOR_MS = DAY_MS;

/**
 * A decision as stored (JSON) and sent: `authorizationExpiresAt` only for an authorized payment
 * session (until when its hold may be captured).
 */
export type Resolution =
  | { action: 'resolve'; authorizationExpiresAt?: string }
  | { action: 'reject'; code: string; message: string };

/** `POST /shopify/payments/sessions`: answers `{redirect_url}` (the gateway checkout). */
export async function startPaymentSession(
  deps: ConnectorDeps,
  shopify: ShopifyRuntime,
  headers: SessionHeaders,
  rawBody: unknown,
): Promise<{ redirect_url: string }> {
  const body = parseBody(paymentSessionRequest, rawBody);
  const connection = await connectionOfShop(deps, headers.shop, body.test);
  noteSessionVersion(deps, shopify, { shop: headers.shop, id: body.id, kind: 'payment', sent: headers.apiVersion });
  const amount = wholeAmd(body.amount, body.currency);
  if (!amount.ok) throw new ConnectorError(422, amount.code, amount.message);

  const nowMs = deps.clock.nowMs();
  const now = toStoredInstant(nowMs);
  const session = await insertPaymentSession(deps.db, newRow(headers, connection.id, body, amount.amd, now));
  if (session.shop !== headers.shop) {
    throw new ConnectorError(409, 'session_exists', 'This payment session id belongs to another shop.');
  }
  if (session.checkout_url !== null) return { redirect_url: session.checkout_url };

  let payment: GatewayPayment;
  try {
    payment = await gatewayOf(deps, connection).createPayment(
      {
        amount: session.amount_amd,
        currency: 'AMD',
        order_id: `shopify-${session.id}`,
        // On the shop's own domain (a live token's rule), through the app proxy: ./app-proxy.ts.
        return_url: storefrontUrl(shopify, session.shop, 'return', session.id),
        cancel_url: storefrontUrl(shopify, session.shop, 'cancel', session.id),
        callback_url: `${deps.config.publicUrl}${PAYMENTS_PATH}/webhooks/${connection.id}`,
        // The id "must be surfaced to the merchant": the hosted page and the gateway's records show it.
        description: `Shopify payment ${session.id}`,
        // An authorization is only held on the card, until Shopify's capture or void session.
        ...(session.kind === 'authorization' ? { capture_method: 'manual' as const } : {}),
      },
      { idempotencyKey: `shopify-payment-session:${session.id}` },
    );
  } catch (error) {
    if (error instanceof GatewayError) {
      deps.logger.warn({ shop: headers.shop, session: session.id, code: error.code }, 'gateway refused the payment');
      if (session.kind === 'authorization' && refusesHolds(error)) {
        throw new ConnectorError(
          422,
          'authorization_not_supported',
          "None of this shop's payment methods can hold a payment (wallets cannot): set the store to capture payments automatically, or enable a card processor.",
        );
      }
      throw new ConnectorError(
        502,
        error.retryable ? 'gateway_unavailable' : 'gateway_refused',
        error.retryable
          ? 'The payment gateway did not answer; try again.'
          : `The gateway refused the payment: ${error.message}`,
      );
    }
    throw error;
  }
  await attachGatewayPayment(
    deps.db,
    session.id,
    payment.uuid,
    payment.checkout_url,
    now,
    toStoredInstant(nowMs + POLL_EVERY_MS),
  );
  const stored = await findPaymentSession(deps.db, session.id);
  deps.logger.info(
    { shop: headers.shop, session: session.id, request_id: headers.requestId, payment_uuid: payment.uuid },
    'Shopify payment session started',
  );
  return { redirect_url: stored?.checkout_url ?? payment.checkout_url };
}

/** The gateway's 422 `validation_failed` on `capture_method`: no method of the domain can hold a payment. */
function refusesHolds(error: GatewayError): boolean {
  const errors = error.body.errors;
  return (
    error.status === 422 &&
    error.code === 'validation_failed' &&
    typeof errors === 'object' &&
    errors !== null &&
    'capture_method' in errors
  );
}

/** The buyer's locale as Shopify sends it (`customer.locale`, e.g. `hy` or `en-US`), or null. */
function buyerLocale(body: PaymentSessionRequest): string | null {
  const locale = body.customer?.locale;
  return typeof locale === 'string' && /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8}){0,3}$/.test(locale) ? locale : null;
}

function newRow(
  headers: SessionHeaders,
  connectionId: string,
  body: PaymentSessionRequest,
  amountAmd: number,
  now: string,
): ShopifyPaymentSession {
  return {
    id: body.id,
    gid: body.gid,
    payment_group: body.group,
    shop: headers.shop,
    connection_id: connectionId,
    amount: body.amount,
    amount_amd: amountAmd,
    currency: body.currency,
    test: body.test ? 1 : 0,
    kind: body.kind,
    cancel_url: body.payment_method.data.cancel_url,
    gateway_payment_uuid: null,
    checkout_url: null,
    state: 'open',
    resolution: null,
    next_action_url: null,
    flag: null,
    attempts: 0,
    next_attempt_at: null,
    next_poll_at: null,
    last_error: null,
    created_at: now,
    updated_at: now,
    api_version: headers.apiVersion.slice(0, 32),
    locale: buyerLocale(body),
    decided_at: null,
  };
}

const UNDECIDED: readonly ShopifyPaymentSessionState[] = ['open', 'pending'];
const PAID = new Set(['completed', 'refunded']);
const NOT_PAID = new Set(['failed', 'expired']);

/** Whether the payment is what the session asked for: paid, or (an authorization) held or paid. */
function isPaidFor(session: ShopifyPaymentSession, payment: GatewayPayment): boolean {
  return PAID.has(payment.status) || (session.kind === 'authorization' && payment.status === 'authorized');
}

/** An authorization whose hold ended (`capture_before`) by the time it was read. */
function holdRanOut(payment: GatewayPayment, nowMs: number): boolean {
  return (
    payment.status === 'authorized' && payment.capture_before !== null && Date.parse(payment.capture_before) <= nowMs
  );
}

/**
 * Applies the gateway's payment (read back, never a webhook body) to its session: writes the decision
 * once. Answers true when the session now has a decision to send.
 */
export async function applyGatewayPayment(
  deps: ConnectorDeps,
  session: ShopifyPaymentSession,
  payment: GatewayPayment,
): Promise<boolean> {
  if (payment.uuid !== session.gateway_payment_uuid) return false;
  const nowMs = deps.clock.nowMs();
  const now = toStoredInstant(nowMs);
  const decide = (resolution: Resolution, extra: { flag?: string } = {}) =>
    movePaymentSession(deps.db, session.id, UNDECIDED, {
      state: resolution.action === 'resolve' ? 'resolve_due' : 'reject_due',
      resolution: JSON.stringify(resolution),
      attempts: 0,
      next_attempt_at: now,
      next_poll_at: null,
      decided_at: now,
      updated_at: now,
      ...extra,
    });

  if (session.kind === 'authorization' && holdRanOut(payment, nowMs)) {
    // Held, but the hold had already ended when it was read: the gateway releases it and reports the
    // payment expired, which decides the session then. Shopify is never told it may capture a hold
    // that is gone.
    await movePaymentSession(deps.db, session.id, UNDECIDED, {
      next_poll_at: toStoredInstant(nowMs + POLL_EVERY_MS),
      updated_at: now,
    });
    return false;
  }
  if (isPaidFor(session, payment)) {
    const winner = await claimPaymentGroup(deps.db, session.payment_group, session.id, now);
    if (winner === session.id) {
      const held = payment.status === 'authorized' && payment.capture_before !== null;
      return decide(
        held ? { action: 'resolve', authorizationExpiresAt: payment.capture_before ?? '' } : { action: 'resolve' },
      );
    }
    if (payment.status === 'authorized') {
      // Nothing was taken: the second hold of one checkout is released, not refunded.
      const message = `Duplicated group payment: session ${winner} of this checkout was paid first; the hold of gateway payment ${payment.uuid} is released.`;
      const moved = await decide({ action: 'reject', code: 'PROCESSING_ERROR', message });
      await releaseHold(deps, session, payment);
      return moved;
    }
    const message = `Duplicated group payment: session ${winner} of this checkout was paid first; gateway payment ${payment.uuid} is to be refunded.`;
    const moved = await decide({ action: 'reject', code: 'PROCESSING_ERROR', message }, { flag: 'refund_needed' });
    if (!moved) await flagPaidAfterDecision(deps, session, payment, now);
    deps.logger.warn(
      { shop: session.shop, session: session.id, payment_uuid: payment.uuid, group_winner: winner },
      'a second payment of one Shopify checkout was paid: rejected and flagged for a refund',
    );
    return moved;
  }
  if (NOT_PAID.has(payment.status)) {
    return decide({
      action: 'reject',
      code: rejectReasonOf(payment.failure_code),
      message: merchantMessageOf(payment.status, payment.failure_code),
    });
  }
  // pending / processing: read again later.
  await movePaymentSession(deps.db, session.id, UNDECIDED, {
    next_poll_at: nowMs - Date.parse(session.created_at) > POLL_FOR_MS ? null : toStoredInstant(nowMs + POLL_EVERY_MS),
    updated_at: now,
  });
  return false;
}

/**
 * Releases a hold no session will be resolved for (a second authorized session of one checkout),
 * once, with the session's own key; should the call fail, the gateway releases it when it runs out.
 */
async function releaseHold(deps: ConnectorDeps, session: ShopifyPaymentSession, payment: GatewayPayment) {
  const connection = await findConnection(deps.db, session.connection_id);
  if (connection === undefined) return;
  try {
    await gatewayOf(deps, connection).voidPayment(payment.uuid, {
      idempotencyKey: `shopify-release:${session.id}`,
    });
    deps.logger.warn(
      { session: session.id, payment_uuid: payment.uuid },
      'a second hold of one Shopify checkout: released',
    );
  } catch (error) {
    deps.logger.warn(
      { session: session.id, payment_uuid: payment.uuid, err: error instanceof Error ? error.message : String(error) },
      'a second hold of one Shopify checkout was not released now; it runs out by itself',
    );
  }
}

/** A payment that completed after its session was rejected (a late confirmation): money to give back. */
async function flagPaidAfterDecision(
  deps: ConnectorDeps,
  session: ShopifyPaymentSession,
  payment: GatewayPayment,
  now: string,
): Promise<void> {
  const moved = await movePaymentSession(deps.db, session.id, ['reject_due', 'rejected', 'failed'], {
    flag: 'refund_needed',
    updated_at: now,
  });
  if (moved) {
    deps.logger.warn(
      { session: session.id, payment_uuid: payment.uuid },
      'paid after its Shopify session was rejected',
    );
  }
}

/** Reads the session's payment back from the gateway and applies it. */
export async function readBackSession(
  deps: ConnectorDeps,
  session: ShopifyPaymentSession,
): Promise<GatewayPayment | null> {
  if (session.gateway_payment_uuid === null) return null;
  const connection = await findConnection(deps.db, session.connection_id);
  if (connection === undefined) return null;
  const payment = await gatewayOf(deps, connection).getPayment(session.gateway_payment_uuid);
  await applyGatewayPayment(deps, session, payment);
  return payment;
}
