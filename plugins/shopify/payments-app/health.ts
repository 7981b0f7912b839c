/**
 * What the payments app tells the shop owner through the connection's health (`GET /v1/connection`
 * `health.problems`, shown on the app's page): payment decisions Shopify has not taken after
 * {@link ALERT_AFTER_ATTEMPTS} calls (still sent again on their schedule), decisions it never took
 * (`failed`: a person settles them), captures and voids not settled yet (the gateway's outcome still
 * unknown, or Shopify not taking the decision, after as many calls; or `failed`), and a
 * `paymentsAppConfigure` Shopify refused.
 */
import type { ConnectionProblem } from '../../../connector/connections/problems.js';
import type { ConnectorDeps } from '../../../connector/runtime/deps.js';
import type { StoreConnection } from '../../../connector/storage/connection.repository.js';
import { unsettledHoldSessions } from '../../../connector/storage/shopify-hold-session.repository.js';
import { unconfirmedPaymentSessions } from '../../../connector/storage/shopify-payment-session.repository.js';
import { findPaymentsConfiguration } from '../../../connector/storage/shopify-payments-configuration.repository.js';
import { findShopOfConnection } from '../../../connector/storage/shopify-shop.repository.js';
import { ALERT_AFTER_ATTEMPTS } from './queue.js';

/** At most this many sessions are counted for the health (the page lists them). */
const COUNTED = 100;

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

export async function paymentsAppProblems(
  deps: ConnectorDeps,
  connection: StoreConnection,
): Promise<ConnectionProblem[]> {
  if (connection.platform !== 'shopify') return [];
  const problems: ConnectionProblem[] = [];
  const sessions = await unconfirmedPaymentSessions(
    deps.db,
    { connectionId: connection.id },
    ALERT_AFTER_ATTEMPTS,
    COUNTED,
  );
  const waiting = sessions.filter((session) => session.state !== 'failed');
  const failed = sessions.filter((session) => session.state === 'failed');
  const since = (rows: typeof sessions) => rows[0]?.decided_at ?? rows[0]?.updated_at ?? null;
  if (waiting.length > 0) {
    problems.push({
      code: 'shopify_payments_unconfirmed',
      message: `Shopify has not confirmed ${plural(waiting.length, 'payment', 'payments')} yet; the connector keeps sending ${waiting.length === 1 ? 'it' : 'them'} to Shopify. Buyers who paid were told their payment was received.`,
      count: waiting.length,
      since: since(waiting),
    });
  }
  if (failed.length > 0) {
    problems.push({
      code: 'shopify_payments_not_finalized',
      message: `Shopify did not take the outcome of ${plural(failed.length, 'payment', 'payments')}: check ${failed.length === 1 ? 'it' : 'them'} in the Shopify admin and the gateway dashboard (the app's page lists the sessions).`,
      count: failed.length,
      since: since(failed),
    });
  }
  const shop = await findShopOfConnection(deps.db, connection.id);
  const holds =
    shop === undefined ? [] : await unsettledHoldSessions(deps.db, shop.shop, ALERT_AFTER_ATTEMPTS, COUNTED);
  if (holds.length > 0) {
    problems.push({
      code: 'shopify_holds_unsettled',
      message: `${plural(holds.length, 'capture or void', 'captures or voids')} of held payments ${holds.length === 1 ? 'is' : 'are'} not settled yet (the gateway's outcome not known, or Shopify not taking it); the connector keeps asking and never captures twice. Check ${holds.some((h) => h.state === 'failed') ? 'the failed ones ' : ''}in the Shopify admin and the gateway dashboard.`,
      count: holds.length,
      since: holds[0]?.created_at ?? null,
    });
  }
  const configuration = shop === undefined ? undefined : await findPaymentsConfiguration(deps.db, shop.shop);
  if (configuration?.state === 'failed') {
    problems.push({
      code: 'shopify_payments_app_refused',
      message: `Shopify refused to enable the payments app: ${configuration.last_error ?? 'no reason given'}.`,
      count: null,
      since: configuration.updated_at,
    });
  }
  return problems;
}
