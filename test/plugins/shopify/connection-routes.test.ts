/**
 * The plugin-facing connection routes with a Shopify connection (its connect token in
 * X-Service-Connect): the WooCommerce-only ways to grant access (key exchange, manual REST key) are
 * refused with 422 `unsupported_platform` and leave the connection as it was; removing it (the API or
 * `bin/connector connection remove`) stops the bridge, and the app's page can connect the shop again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_TEST_TIMEOUT_MS, connector as connectorCli } from '../../support/cli.js';
import { DIALECTS } from '../../support/databases.js';
import { type BridgeHarness, METHOD, startBridgeHarness } from './bridge-support.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers read field by field
type Json = Record<string, any>;

const SHOP = 'routes-shop.myshopify.com';
const SETTINGS = { way: 'manual_bridge', manual_method_name: METHOD, test_mode: true };

describe.each(DIALECTS)('connection routes with a Shopify connection (%s)', (dialect) => {
  let b: BridgeHarness;
  let connectionId: string;

  const plugin = (method: string, path: string, body?: unknown) =>
    b.h.connector.call<Json>(method, path, { token: b.shopifyToken, ...(body === undefined ? {} : { body }) });
  const linksOf = async (id: string) =>
    b.h.connector
      .current()
      .deps.db.selectFrom('order_links')
      .select('store_order_id')
      .where('connection_id', '=', id)
      .execute();
  const orderCreated = async () => {
    const order = b.admin.addOrder({ total: '2000.00', gateway: METHOD });
    expect((await b.webhook('orders/create', b.orderCreated(order, { total_price: '2000.00' }))).status).toBe(200);
    return order;
  };

  beforeAll(async () => {
    b = await startBridgeHarness(dialect, SHOP);
    const saved = await b.api('PUT', '/settings', { ...SETTINGS, connect_token: b.shopifyToken });
    expect(saved.status, saved.text).toBe(200);
    connectionId = saved.body.connection.connection_id;
  }, 60_000);

  afterAll(async () => {
    await b?.close();
  });

  it('refuses POST /v1/connection/reconnect with 422 unsupported_platform, leaving the connection active', async () => {
    const answer = await plugin('POST', '/v1/connection/reconnect');
    expect(answer.status, answer.text).toBe(422);
    expect(Object.keys(answer.body).sort()).toEqual(['error', 'message', 'request_id']);
    expect(answer.body.error).toBe('unsupported_platform');
    expect(answer.body.message).toContain('WooCommerce stores only');
    expect(answer.body.message).toContain('Shopify admin');

    const described = await plugin('GET', '/v1/connection');
    expect(described.status).toBe(200);
    expect(described.body).toMatchObject({ connection_id: connectionId, platform: 'shopify', status: 'active' });
    expect(described.body.authorize_url).toBeUndefined();
    // The bridge still works.
    const order = await orderCreated();
    expect((await linksOf(connectionId)).map((l) => l.store_order_id)).toContain(String(order.id));
  });

  it('refuses POST /v1/connection/credentials with 422 unsupported_platform, whatever the body, keeping the settings', async () => {
    for (const body of [{ consumer_key: 'ck_0123456789abcdef', consumer_secret: 'cs_0123456789abcdef' }, {}]) {
      const answer = await plugin('POST', '/v1/connection/credentials', body);
      expect(answer.status, answer.text).toBe(422);
      expect(answer.body.error).toBe('unsupported_platform');
      expect(answer.body.message).toContain('Shopify admin');
    }
    const settings = await b.api('GET', '/settings');
    expect(settings.body.settings).toEqual({ ...SETTINGS, api_version: '2026-07' });
    expect(settings.body.connection).toMatchObject({ connection_id: connectionId, status: 'active' });
  });

  it('refuses a key delivery posted to /shopify/auth/callback (Shopify has no key exchange)', async () => {
    const answer = await b.h.connector.call<Json>('POST', '/shopify/auth/callback', {
      body: {
        key_id: 1,
        user_id: 'anything',
        consumer_key: 'ck_0123456789abcdef',
        consumer_secret: 'cs_0123456789abcdef',
        key_permissions: 'read_write',
      },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('invalid_key_delivery');
  });

  it('DELETE /v1/connection ends it: orders are no longer bridged, and the app page connects the shop again', async () => {
    const removed = await plugin('DELETE', '/v1/connection');
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body).toEqual({ connection_id: connectionId, status: 'removed' });

    const described = await plugin('GET', '/v1/connection');
    expect(described.status).toBe(404);
    expect(described.body.error).toBe('connection_not_found');
    const page = await b.api('GET', '/settings');
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ install: { status: 'installed' }, connection: null, settings: null });
    const before = (await linksOf(connectionId)).length;
    await orderCreated();
    expect(await linksOf(connectionId)).toHaveLength(before);
    // Its gateway webhooks are refused.
    const webhook = await b.h.connector.call('POST', `/v1/webhooks/gateway/${connectionId}`, { body: {} });
    expect(webhook.status).toBe(404);

    // Saving the settings with the token again connects the shop again: the same connection (a
    // shop is one store for ever, its earlier orders stay its own), and the bridge works again.
    const saved = await b.api('PUT', '/settings', { ...SETTINGS, connect_token: b.shopifyToken });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.connection.connection_id).toBe(connectionId);
    expect(saved.body.connection.status).toBe('active');
    const order = await orderCreated();
    const linked = (await linksOf(connectionId)).map((l) => l.store_order_id);
    expect(linked).toHaveLength(before + 1);
    expect(linked).toContain(String(order.id));
  });

  it(
    '`bin/connector connection remove` ends a Shopify connection as DELETE does',
    async () => {
      const run = await connectorCli(b.h.connector.env, 'connection', 'remove', '--connection', connectionId, '--json');
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual({ connection_id: connectionId, status: 'removed' });
      const page = await b.api('GET', '/settings');
      expect(page.body.connection).toBeNull();
      expect((await plugin('GET', '/v1/connection')).status).toBe(404);
      const again = await connectorCli(b.h.connector.env, 'connection', 'remove', '--connection', connectionId);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain(`No connection ${connectionId}`);
    },
    CLI_TEST_TIMEOUT_MS,
  );
});
