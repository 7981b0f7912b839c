/**
 * Payment sessions (`POST /shopify/payments/sessions`) and what follows them:
 *
 * 1. Shopify's POST is checked (headers, body, shop installed and linked, environment), refused with
 *    422 for `kind: authorization`, another currency or a fractional AMD amount; then the row is
 *    inserted with ON CONFLICT DO NOTHING and read back, so a repeated POST of the same `id` finds it.
 *    The gateway payment is created with the shop's connect token and the session `id` as the
 *    idempotency key: a repeat (even a racing one) gets the same payment and the same `redirect_url`.
 * 2. When the gateway's payment is final (its webhook, read back; the job's polling; the buyer's
 *    return), the decision is written to the row first: the first paid session of a `group` claims
 *    it and is resolved; a later paid session of the same group is rejected and flagged
 *    `refund_needed`; a failed or expired payment is rejected with the reason mapped from its
 *    `failure_code` (./reasons.ts). Every move is conditional on the state read, so it happens once.
 * 3. The decision is sent to Shopify (`paymentSessionResolve` / `paymentSessionReject`) from the row,
 *    retried on the schedule of ./queue.ts until Shopify takes it; Shopify's `nextAction` URL is kept
 *    for the buyer's return page.
 */

import { gatewayOf } from '../../../connector/connections/connection-access.js';
import { ConnectorError, errorDetail } from '../../../connector/errors.js';
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
import { shopDomainOf } from '../graphql.js';
import type { ShopifyRuntime } from '../runtime.js';
import { connectionOfShop, noteSessionVersion, paymentsAppsOf, sessionApiVersion } from './access.js';
import { wholeAmd } from './amount.js';
import { storefrontUrl } from './app-proxy.js';
import { PaymentsAppsError } from './client.js';
import { ALERT_AFTER_ATTEMPTS, CLAIM_LEASE_MS, decisionRetryDelayMs, FINALIZE_FOR_MS, retryDelayMs } from './queue.js';
import { merchantMessageOf, rejectReasonOf } from './reasons.js';
import { type PaymentSessionRequest, paymentSessionRequest } from './wire.js';

export const PAYMENTS_PATH = '/shopify/payments';
/** An undecided session's payment is read back this often (a webhook that never came). */
export const POLL_EVERY_MS = 2 * MINUTE_MS;
/** And for this long; the gateway's payment has expired well before. */
export const POLL_FOR_MS = DAY_MS;
/** `pendingExpiresAt` of a `paymentSessionPending` (Shopify recommends within 3 days). */
export const PENDING_FOR_MS = DAY_MS;

export type Resolution = { action: 'resolve' } | { action: 'reject'; code: string; message: string };

export interface SessionHeaders {
  shop: string;
  requestId: string;
  apiVersion: string;
}

/** The three headers Shopify sends (all required); the shop exactly `<name>.myshopify.com`. */
export function sessionHeaders(get: (name: string) => string): SessionHeaders {
  const raw = {
    shop: get('shopify-shop-domain'),
    requestId: get('shopify-request-id'),
    apiVersion: get('shopify-api-version'),
  };
  const missing = Object.entries({
    'Shopify-Shop-Domain': raw.shop,
    'Shopify-Request-Id': raw.requestId,
    'Shopify-Api-Version': raw.apiVersion,
  })
    .filter(([, value]) => value.trim() === '')
    .map(([name]) => name);
  if (missing.length > 0) {
    throw new ConnectorError(400, 'missing_headers', `Shopify's headers are missing: ${missing.join(', ')}.`);
  }
  const shop = shopDomainOf(raw.shop.trim());
  if (shop === null) throw new ConnectorError(400, 'invalid_shop', 'Shopify-Shop-Domain is not a shop domain.');
  return { shop, requestId: raw.requestId.trim(), apiVersion: raw.apiVersion.trim() };
}

export function parseBody<T>(
  schema: {
    safeParse(
      value: unknown,
    ): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
  },
  value: unknown,
): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length > 0 ? issue.path.map(String).join('.') : 'body';
    errors[field] = [...(errors[field] ?? []), issue.message];
  }
  throw new ConnectorError(400, 'invalid_request', 'The request is not shaped as Shopify sends it.', { errors });
}

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
  if (body.kind === 'authorization') {
    throw new ConnectorError(
      422,
      'authorization_not_supported',
      'The gateway captures at once: this app takes sale payments only (set the store to capture payments automatically).',
    );
  }
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
      },
      { idempotencyKey: `shopify-payment-session:${session.id}` },
    );
  } catch (error) {
    if (error instanceof GatewayError) {
      deps.logger.warn({ shop: headers.shop, session: session.id, code: error.code }, 'gateway refused the payment');
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

  if (PAID.has(payment.status)) {
    const winner = await claimPaymentGroup(deps.db, session.payment_group, session.id, now);
    if (winner === session.id) return decide({ action: 'resolve' });
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

/**
 * Sends the session's decision to Shopify if one is due now. Answers the session as it is afterwards.
 * A failed call is retried later (./queue.ts); `userErrors` mean Shopify will not take it: reported.
 */
export async function sendDecision(
  deps: ConnectorDeps,
  shopify: ShopifyRuntime,
  sessionId: string,
): Promise<ShopifyPaymentSession | undefined> {
  const session = await findPaymentSession(deps.db, sessionId);
  if (session === undefined || (session.state !== 'resolve_due' && session.state !== 'reject_due')) return session;
  const nowMs = deps.clock.nowMs();
  if (session.next_attempt_at === null || Date.parse(session.next_attempt_at) > nowMs) return session;
  const due = session.state;
  const claimed = await movePaymentSession(deps.db, session.id, [due], {
    next_attempt_at: toStoredInstant(nowMs + CLAIM_LEASE_MS),
  });
  if (!claimed) return findPaymentSession(deps.db, session.id);
  const resolution = JSON.parse(session.resolution ?? '{}') as Resolution;
  const attempts = session.attempts + 1;
  const done = (changes: Parameters<typeof movePaymentSession>[3]) =>
    movePaymentSession(deps.db, session.id, [due], {
      attempts,
      updated_at: toStoredInstant(deps.clock.nowMs()),
      ...changes,
    });
  try {
    const client = await paymentsAppsOf(shopify, session.shop, sessionApiVersion(shopify, session.api_version));
    const result =
      resolution.action === 'resolve'
        ? await client.mutate('paymentSessionResolve', { id: session.gid })
        : await client.mutate('paymentSessionReject', {
            id: session.gid,
            reason: { code: resolution.code, merchantMessage: resolution.message },
          });
    if (result.ok) {
      await done({
        state: resolution.action === 'resolve' ? 'resolved' : 'rejected',
        next_action_url: result.payload.paymentSession?.nextAction?.context.redirectUrl ?? null,
        next_attempt_at: null,
        last_error: null,
      });
      deps.logger.info(
        { shop: session.shop, session: session.id, action: resolution.action },
        'Shopify payment session finalized',
      );
    } else {
      const message = result.userErrors.map((e) => e.message).join('; ');
      await done({ state: 'failed', next_attempt_at: null, last_error: message.slice(0, 500) });
      deps.logger.error(
        { shop: session.shop, session: session.id, action: resolution.action, user_errors: message },
        'Shopify refused to finalize the payment session',
      );
    }
  } catch (error) {
    // Not taken (or not known to be): the same decision is sent again later, until Shopify takes it.
    const decidedMs = Date.parse(session.decided_at ?? session.updated_at);
    await failedDecision(deps, session, attempts, error, decidedMs + FINALIZE_FOR_MS, (changes) => done(changes));
  }
  return findPaymentSession(deps.db, session.id);
}

/**
 * Schedules the next try of a call that failed, or reports it as failed once the schedule is used up
 * (or at once when the error is not retryable). For a refund's gateway step; a session's decision
 * uses {@link failedDecision}.
 */
export async function failedAttempt(
  deps: ConnectorDeps,
  session: { id: string; shop: string },
  attempts: number,
  error: unknown,
  save: (changes: { state?: 'failed'; next_attempt_at: string | null; last_error: string }) => Promise<unknown>,
): Promise<void> {
  const message = errorDetail(error).slice(0, 500);
  const retryable = !(error instanceof PaymentsAppsError) || error.retryable;
  const delay = retryable ? retryDelayMs(attempts) : null;
  if (delay === null) {
    await save({ state: 'failed', next_attempt_at: null, last_error: message });
    deps.logger.error(
      { shop: session.shop, session: session.id, attempts, err: message },
      'Shopify session call failed for good',
    );
    return;
  }
  const retryAt = toStoredInstant(deps.clock.nowMs() + delay);
  await save({ next_attempt_at: retryAt, last_error: message });
  deps.logger.warn(
    { shop: session.shop, session: session.id, attempts, retry_at: retryAt, err: message },
    'Shopify session call failed; retried later',
  );
}

/**
 * A session's decision (resolve or reject) that Shopify did not take: sent again on the schedule of
 * ./queue.ts, then every 6 hours, until `untilMs` (a week after the decision); only then `failed`.
 * Whatever the error (no answer, throttled, a 5xx, even a refusal without `userErrors`, which a fix or
 * a new token may cure), the decision stands and the same call is made again: Shopify documents that
 * a repeated resolve or reject succeeds. Errors that no retry will cure by itself are logged as errors
 * at once, and every failure from the {@link ALERT_AFTER_ATTEMPTS}th.
 */
export async function failedDecision(
  deps: ConnectorDeps,
  session: { id: string; shop: string },
  attempts: number,
  error: unknown,
  untilMs: number,
  save: (changes: { state?: 'failed'; next_attempt_at: string | null; last_error: string }) => Promise<unknown>,
): Promise<void> {
  const message = errorDetail(error).slice(0, 500);
  const retryable = !(error instanceof PaymentsAppsError) || error.retryable;
  const nextMs = deps.clock.nowMs() + decisionRetryDelayMs(attempts);
  if (nextMs > untilMs) {
    await save({ state: 'failed', next_attempt_at: null, last_error: message });
    deps.logger.error(
      { shop: session.shop, session: session.id, attempts, err: message },
      'Shopify session call failed for good',
    );
    return;
  }
  const retryAt = toStoredInstant(nextMs);
  await save({ next_attempt_at: retryAt, last_error: message });
  const fields = { shop: session.shop, session: session.id, attempts, retry_at: retryAt, err: message };
  if (retryable && attempts < ALERT_AFTER_ATTEMPTS) {
    deps.logger.warn(fields, 'Shopify session call failed; retried later');
  } else {
    deps.logger.error(fields, 'Shopify has not taken the session decision; sent again later');
  }
}

/** What the buyer coming back through the storefront is answered. */
export type BuyerAnswer =
  /** To Shopify (its `nextAction`, or the checkout's `cancel_url`). */
  | { kind: 'redirect'; url: string }
  /** Nothing known yet: a page that checks again in a few seconds (the `next` check). */
  | { kind: 'waiting'; locale: string | null; next: number }
  /**
   * A final page with the way back to the shop: `paid` when the buyer paid and Shopify has not taken
   * the resolve yet (it is sent again on its schedule), else the outcome is still not known.
   */
  | { kind: 'final'; paid: boolean; locale: string | null };

/** How many times the waiting page checks again (every 3 s) before it gives the final page. */
export const RETURN_CHECKS = 20;

/**
 * Where the buyer goes from the storefront's return or cancel page (`GET /shopify/proxy/return/:id`
 * and `/cancel/:id`, ./app-proxy.ts), for a session of the shop the proxy signed for. The payment
 * is read back and the decision sent now if it can be; the buyer goes to Shopify's `nextAction` URL
 * (after resolve, reject or pending), or to the checkout's `cancel_url` after a reject without one.
 * A payment still processing is reported with `paymentSessionPending` (Shopify then sends the buyer
 * on). A buyer who paid while Shopify has not taken the resolve gets the final page at once (never
 * the checkout, where they could pay twice). Nothing known yet: the return page checks again every
 * 3 s, {@link RETURN_CHECKS} times (`checks` is how many it did), then gives the final page; the
 * cancel page sends the buyer back to Shopify's checkout, where another way to pay can be chosen (the
 * gateway payment then expires and the session is rejected).
 */
export async function buyerTarget(
  deps: ConnectorDeps,
  shopify: ShopifyRuntime,
  shop: string,
  sessionId: string,
  page: 'return' | 'cancel',
  checks = 0,
): Promise<BuyerAnswer> {
  let session = await findPaymentSession(deps.db, sessionId);
  if (session === undefined || session.shop !== shop) {
    throw new ConnectorError(404, 'not_found', 'No such payment session in this shop.');
  }
  let payment: GatewayPayment | null = null;
  if (session.state === 'open' || session.state === 'pending') {
    payment = await readBackSession(deps, session).catch(() => null);
    session = (await findPaymentSession(deps.db, sessionId)) ?? session;
  }
  if (session.state === 'resolve_due' || session.state === 'reject_due') {
    session = (await sendDecision(deps, shopify, sessionId).catch(() => undefined)) ?? session;
  }
  const { locale } = session;
  if (session.next_action_url !== null) return { kind: 'redirect', url: session.next_action_url };
  const resolution = session.resolution === null ? null : (JSON.parse(session.resolution) as Resolution);
  // Paid, and Shopify has not taken the resolve (yet): the final page, whatever the page asked.
  if (resolution?.action === 'resolve') return { kind: 'final', paid: true, locale };
  if (resolution?.action === 'reject' || page === 'cancel') return { kind: 'redirect', url: session.cancel_url };
  if (
    session.state === 'open' &&
    payment !== null &&
    (payment.status === 'pending' || payment.status === 'processing')
  ) {
    const url = await reportPending(deps, shopify, session, payment);
    if (url !== null) return { kind: 'redirect', url };
  }
  if (checks >= RETURN_CHECKS) return { kind: 'final', paid: false, locale };
  return { kind: 'waiting', locale, next: checks + 1 };
}

async function reportPending(
  deps: ConnectorDeps,
  shopify: ShopifyRuntime,
  session: ShopifyPaymentSession,
  payment: GatewayPayment,
): Promise<string | null> {
  try {
    const client = await paymentsAppsOf(shopify, session.shop, sessionApiVersion(shopify, session.api_version));
    const result = await client.mutate('paymentSessionPending', {
      id: session.gid,
      pendingExpiresAt: toStoredInstant(deps.clock.nowMs() + PENDING_FOR_MS),
      reason: payment.status === 'processing' ? 'NETWORK_ACTION_REQUIRED' : 'BUYER_ACTION_REQUIRED',
    });
    if (!result.ok) {
      deps.logger.warn(
        { session: session.id, user_errors: result.userErrors.map((e) => e.message).join('; ') },
        'pending refused',
      );
      return null;
    }
    const url = result.payload.paymentSession?.nextAction?.context.redirectUrl ?? null;
    await movePaymentSession(deps.db, session.id, ['open'], {
      state: 'pending',
      next_action_url: url,
      updated_at: toStoredInstant(deps.clock.nowMs()),
    });
    return url;
  } catch (error) {
    deps.logger.warn({ session: session.id, err: errorDetail(error) }, 'pending not reported');
    return null;
  }
}
