/**
 * Telling Shopify the payments provider is ready for a shop (`paymentsAppConfigure`), the step of
 * Shopify's merchant onboarding for payments extensions that lets the merchant activate the payment
 * method in Settings > Payments (shopify.dev, "Onboard a merchant to a payments extension", and the
 * Payments Apps reference of `paymentsAppConfigure`: `ready: Boolean!`, `externalHandle: String`, "a
 * username or identifier associated with the account that the merchant has used with the partner",
 * shown in the Payments section of the Shopify admin).
 *
 * - `ready: true` with the gateway account as external handle once the merchant saved the settings
 *   with the payments app as the way buyers pay (embedded-api/settings.ts `saveSettings`);
 * - `ready: false` when that shop's connection is removed (`DELETE /v1/connection`,
 *   `bin/connector connection remove`) or its settings move to the manual bridge. An uninstall needs
 *   nothing: Shopify removes the app's payment method itself, and the token is gone.
 *
 * The call is written to `shopify_payments_configurations` first and sent from the row: at once, then
 * on the schedule of ./queue.ts while it fails (then every 6 hours: setting the same configuration
 * again is harmless). `userErrors` mean Shopify will not take it: `failed`, logged as an error, and
 * shown on the app's page.
 */
import { errorDetail } from '../../../connector/errors.js';
import type { ConnectorDeps } from '../../../connector/runtime/deps.js';
import type { StoreConnection } from '../../../connector/storage/connection.repository.js';
import {
  deletePaymentsConfiguration,
  findPaymentsConfiguration,
  movePaymentsConfiguration,
  paymentsConfigurationsDue,
  requestPaymentsConfiguration,
  type ShopifyPaymentsConfiguration,
} from '../../../connector/storage/shopify-payments-configuration.repository.js';
import { findShopifyShop, findShopOfConnection } from '../../../connector/storage/shopify-shop.repository.js';
import { toStoredInstant } from '../../../gateway/domain/clock.js';
import type { ShopifyRuntime } from '../runtime.js';
import { paymentsAppsOf } from './access.js';
import { CLAIM_LEASE_MS, RETRY_DELAYS_MS, retryDelayMs } from './queue.js';

/** What the app's page shows of the shop's configuration at Shopify. */
export interface PaymentsAppStatus {
  /** What the connector asks Shopify for. */
  ready: boolean;
  external_handle: string | null;
  /** `due`: being sent (or retried); `sent`: Shopify took it; `failed`: Shopify refused it. */
  state: ShopifyPaymentsConfiguration['state'];
  configured_at: string | null;
  last_error: string | null;
}

export function statusOf(row: ShopifyPaymentsConfiguration | undefined): PaymentsAppStatus | null {
  if (row === undefined) return null;
  return {
    ready: row.ready === 1,
    external_handle: row.external_handle,
    state: row.state,
    configured_at: row.configured_at,
    last_error: row.last_error,
  };
}

/** The external handle: the merchant's gateway account, and the environment when it is a test one. */
export function externalHandleOf(merchantId: string, environment: 'test' | 'live'): string {
  return environment === 'test' ? `Gateway account ${merchantId} (test)` : `Gateway account ${merchantId}`;
}

/** Asks for `ready` to be sent for `shop` and sends it now; the status afterwards (sending failures are retried). */
export async function configurePaymentsApp(
  deps: ConnectorDeps,
  shopify: ShopifyRuntime,
  shop: string,
  ready: boolean,
  externalHandle: string | null,
): Promise<PaymentsAppStatus | null> {
  const now = toStoredInstant(deps.clock.nowMs());
  if (await requestPaymentsConfiguration(deps.db, shop, ready, externalHandle, now)) {
    await sendPaymentsConfiguration(deps, shopify, shop);
  }
  return statusOf(await findPaymentsConfiguration(deps.db, shop));
}

/**
 * A connection ended: a shop it was linked to, made ready on Shopify, is told it is not ready any
 * more (sent after the answer). An uninstall needs nothing (see the module's comment).
 */
export async function paymentsAppConnectionEnded(
  deps: ConnectorDeps,
  shopify: ShopifyRuntime,
  connection: StoreConnection,
  status: 'removed' | 'uninstalled',
): Promise<void> {
  if (connection.platform !== 'shopify') return;
  const shop = await findShopOfConnection(deps.db, connection.id);
  if (shop === undefined) return;
  const row = await findPaymentsConfiguration(deps.db, shop.shop);
  if (row === undefined) return;
  if (status === 'uninstalled') {
    await deletePaymentsConfiguration(deps.db, shop.shop);
    return;
  }
  if (row.ready === 0) return;
  const now = toStoredInstant(deps.clock.nowMs());
  if (await requestPaymentsConfiguration(deps.db, shop.shop, false, row.external_handle, now)) {
    deps.background.start('Shopify payments app configuration', () =>
      sendPaymentsConfiguration(deps, shopify, shop.shop),
    );
  }
}

/** Sends the shop's due configuration (claimed first, so one instance sends it). */
export async function sendPaymentsConfiguration(
  deps: ConnectorDeps,
  shopify: ShopifyRuntime,
  shop: string,
): Promise<void> {
  const row = await findPaymentsConfiguration(deps.db, shop);
  const nowMs = deps.clock.nowMs();
  if (row === undefined || row.state !== 'due') return;
  if (row.next_attempt_at !== null && Date.parse(row.next_attempt_at) > nowMs) return;
  const same = { ready: row.ready, externalHandle: row.external_handle };
  const claimed = await movePaymentsConfiguration(
    deps.db,
    shop,
    'due',
    { next_attempt_at: toStoredInstant(nowMs + CLAIM_LEASE_MS) },
    same,
  );
  if (!claimed) return;
  const installed = await findShopifyShop(deps.db, shop);
  if (installed?.status !== 'installed') {
    // Uninstalled meanwhile: Shopify has removed the payment method, and there is no token to call with.
    await deletePaymentsConfiguration(deps.db, shop);
    return;
  }
  const attempts = row.attempts + 1;
  const at = () => toStoredInstant(deps.clock.nowMs());
  try {
    const client = await paymentsAppsOf(shopify, shop);
    const result = await client.mutate('paymentsAppConfigure', {
      ready: row.ready === 1,
      externalHandle: row.external_handle,
    });
    if (result.ok) {
      const taken = result.payload.paymentsAppConfiguration;
      await movePaymentsConfiguration(
        deps.db,
        shop,
        'due',
        { state: 'sent', attempts, next_attempt_at: null, last_error: null, configured_at: at(), updated_at: at() },
        same,
      );
      deps.logger.info(
        { shop, ready: taken?.ready ?? row.ready === 1, external_handle: taken?.externalHandle ?? row.external_handle },
        row.ready === 1
          ? 'Shopify told the payments app is ready: the merchant can activate it in Settings > Payments'
          : 'Shopify told the payments app is not ready',
      );
      return;
    }
    const message = result.userErrors
      .map((e) => e.message)
      .join('; ')
      .slice(0, 500);
    await movePaymentsConfiguration(
      deps.db,
      shop,
      'due',
      { state: 'failed', attempts, next_attempt_at: null, last_error: message, updated_at: at() },
      same,
    );
    deps.logger.error({ shop, ready: row.ready === 1, user_errors: message }, 'Shopify refused paymentsAppConfigure');
  } catch (error) {
    // Not taken (or not known to be): sent again later; the same configuration twice is harmless.
    const delay = retryDelayMs(attempts) ?? RETRY_DELAYS_MS.at(-1) ?? CLAIM_LEASE_MS;
    const detail = errorDetail(error).slice(0, 500);
    await movePaymentsConfiguration(
      deps.db,
      shop,
      'due',
      { attempts, next_attempt_at: toStoredInstant(deps.clock.nowMs() + delay), last_error: detail, updated_at: at() },
      same,
    );
    deps.logger.warn({ shop, attempts, err: detail }, 'paymentsAppConfigure not sent; retried later');
  }
}

/** The due work's part: configurations whose retry time came. */
export async function sendDueConfigurations(deps: ConnectorDeps, shopify: ShopifyRuntime, limit: number) {
  let sent = 0;
  for (const row of await paymentsConfigurationsDue(deps.db, toStoredInstant(deps.clock.nowMs()), limit)) {
    try {
      await sendPaymentsConfiguration(deps, shopify, row.shop);
    } catch (error) {
      deps.logger.warn({ shop: row.shop, err: errorDetail(error) }, 'paymentsAppConfigure did not finish');
    }
    sent += 1;
  }
  return sent;
}
