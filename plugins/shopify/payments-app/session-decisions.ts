/**
 * Sending a session's decision to Shopify (`paymentSessionResolve`, with `authorizationExpiresAt`
 * for an authorization, / `paymentSessionReject`) from the row, retried on the schedule of ./queue.ts until Shopify takes it; Shopify's `nextAction` URL
 * is kept for the buyer's return page.
 */
import type { ConnectorDeps } from '../../../connector/runtime/deps.js';
import {
  findPaymentSession,
  movePaymentSession,
  type ShopifyPaymentSession,
} from '../../../connector/storage/shopify-payment-session.repository.js';
import { toStoredInstant } from '../../../gateway/domain/clock.js';
import type { ShopifyRuntime } from '../runtime.js';
import { paymentsAppsOf, sessionApiVersion } from './access.js';
import { failedDecision } from './call-failures.js';
import type { Resolution } from './payment-sessions.js';
import { CLAIM_LEASE_MS, FINALIZE_FOR_MS } from './queue.js';

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
        ? await client.mutate('paymentSessionResolve', {
            id: session.gid,
            // An authorization: until when Shopify may ask to capture it (the gateway's capture_before).
            ...(resolution.authorizationExpiresAt ? { authorizationExpiresAt: resolution.authorizationExpiresAt } : {}),
          })
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
