/**
 * The payments app's part of the connector's due work: undecided sessions' payments read back (a
 * webhook that never came), decisions, refund steps, capture and void steps (a gateway outcome asked
 * again, a decision sent again) and `paymentsAppConfigure` calls whose retry time came. Each item on
 * its own.
 */
import { errorDetail } from '../../../connector/errors.js';
import type { ConnectorDeps } from '../../../connector/runtime/deps.js';
import { holdSessionsDue } from '../../../connector/storage/shopify-hold-session.repository.js';
import {
  paymentSessionsDue,
  paymentSessionsToPoll,
  refundSessionsDue,
} from '../../../connector/storage/shopify-payment-session.repository.js';
import { toStoredInstant } from '../../../gateway/domain/clock.js';
import { sendDueConfigurations } from './configuration.js';
import { driveHoldSession } from './hold-sessions.js';
import { readBackSession } from './payment-sessions.js';
import { driveRefund } from './refund-sessions.js';
import { sendDecision } from './session-decisions.js';

const BATCH = 50;

export async function runPaymentsAppWork(
  deps: ConnectorDeps,
): Promise<{ polled: number; sent: number; refunds: number; holds: number; configurations: number }> {
  const shopify = deps.shopify;
  const result = { polled: 0, sent: 0, refunds: 0, holds: 0, configurations: 0 };
  if (shopify === undefined) return result;
  const now = () => toStoredInstant(deps.clock.nowMs());
  const each = async (what: string, work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (error) {
      deps.logger.warn({ err: errorDetail(error) }, `${what} did not finish; it runs again later`);
    }
  };
  for (const session of await paymentSessionsToPoll(deps.db, now(), BATCH)) {
    await each('Shopify session poll', () => readBackSession(deps, session));
    result.polled += 1;
  }
  for (const session of await paymentSessionsDue(deps.db, now(), BATCH)) {
    await each('Shopify session decision', () => sendDecision(deps, shopify, session.id));
    result.sent += 1;
  }
  for (const refund of await refundSessionsDue(deps.db, now(), BATCH)) {
    await each('Shopify refund session', () => driveRefund(deps, shopify, refund.id));
    result.refunds += 1;
  }
  for (const hold of await holdSessionsDue(deps.db, now(), BATCH)) {
    await each(`Shopify ${hold.kind} session`, () => driveHoldSession(deps, shopify, hold.id));
    result.holds += 1;
  }
  result.configurations = await sendDueConfigurations(deps, shopify, BATCH);
  return result;
}
