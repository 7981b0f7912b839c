/**
 * The setup the connector's WooCommerce seam tests share: a test gateway on the manual clock, a
 * strict fake WooCommerce store, the connector, and the store connected with a test connect token
 * through WooCommerce's key exchange.
 */

import { createConnectToken } from '../../gateway/connect/connect-token.service.js';
import type { DialectName } from '../../storage/database.js';
import { startTestConnector, type TestConnector, type TestConnectorOptions } from './connector.js';
import { type FakeWooCommerce, LOOPBACK_TEST_CALLBACKS, startFakeWooCommerce } from './fake-woocommerce.js';
import { startTestGateway, type TestGateway, type TestMerchant } from './gateway.js';

export interface ConnectedWooStore {
  readonly gw: TestGateway;
  readonly store: FakeWooCommerce;
  readonly connector: TestConnector;
  readonly merchant: TestMerchant;
  /** The connect token the store is registered with. */
  readonly token: string;
}

export async function startConnectedWooStore(
  dialect: DialectName,
  connectorOptions: TestConnectorOptions = {},
): Promise<ConnectedWooStore> {
  const gw = await startTestGateway(dialect, {
    env: { GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1', GATEWAY_CLOCK: 'manual', GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' },
  });
  const store = await startFakeWooCommerce({ testCallbacks: LOOPBACK_TEST_CALLBACKS });
  const connector = await startTestConnector(dialect, gw, connectorOptions);
  const merchant = await gw.merchant();
  const token = (
    await createConnectToken(gw.gateway.deps, {
      merchantId: merchant.merchantId,
      domain: merchant.hostedDomain,
      platform: 'woocommerce',
    })
  ).connect_token;
  const registered = await connector.call<Record<string, string>>('POST', '/v1/connections', {
    token,
    body: { store_url: store.url },
  });
  await store.approve(registered.body.authorize_url as string);
  return { gw, store, connector, merchant, token };
}

/** Closes what `startConnectedWooStore` started (any part may be missing when it failed half-way). */
export async function closeConnectedWooStore(parts: Partial<ConnectedWooStore>): Promise<void> {
  await parts.connector?.close();
  await parts.store?.close();
  await parts.gw?.close();
}
