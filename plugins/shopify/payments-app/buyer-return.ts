/**
 * The buyer coming back through the shop's storefront (Shopify's app proxy) from the gateway's
 * checkout: sent on to Shopify once the session is decided, told to wait while it is not, or shown
 * a final page.
 */
import { ConnectorError, errorDetail } from '../../../connector/errors.js';
import type { GatewayPayment } from '../../../connector/gateway-client/client.js';
import type { ConnectorDeps } from '../../../connector/runtime/deps.js';
import {
  findPaymentSession,
  movePaymentSession,
  type ShopifyPaymentSession,
} from '../../../connector/storage/shopify-payment-session.repository.js';
import { DAY_MS, toStoredInstant } from '../../../gateway/domain/clock.js';
import type { ShopifyRuntime } from '../runtime.js';
import { paymentsAppsOf, sessionApiVersion } from './access.js';
import { type Resolution, readBackSession } from './payment-sessions.js';
import { sendDecision } from './session-decisions.js';

/** `pendingExpiresAt` of a `paymentSessionPending` (Shopify recommends within 3 days). */
export const PENDING_FOR_MS = DAY_MS;

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
