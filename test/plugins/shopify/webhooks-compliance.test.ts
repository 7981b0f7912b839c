/**
 * Shopify webhooks over HTTP, signed by the fake as Shopify signs them: `app/uninstalled` (twice),
 * the three compliance topics with good and bad HMACs and what each does to the data the connector
 * holds, a delivery id handled once, and the job deleting an uninstalled shop's data after 48 h.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  findPaymentsConfiguration,
  requestPaymentsConfiguration,
} from '../../../connector/storage/shopify-payments-configuration.repository.js';
import { linkShopConnection } from '../../../connector/storage/shopify-shop.repository.js';
import { HOUR_MS, toStoredInstant } from '../../../gateway/domain/clock.js';
import { DIALECTS } from '../../support/databases.js';
import { startTestGateway, type TestGateway } from '../../support/gateway.js';
import { install, type ShopifyHarness, startShopifyHarness, webhookFixture } from './install-support.js';

const TOPICS = ['customers/data_request', 'customers/redact', 'shop/redact', 'app/uninstalled'] as const;
const FIXTURE: Record<(typeof TOPICS)[number], string> = {
  'customers/data_request': 'customers-data-request',
  'customers/redact': 'customers-redact',
  'shop/redact': 'shop-redact',
  'app/uninstalled': 'app-uninstalled',
};

describe.each(DIALECTS)('Shopify webhooks and privacy (%s)', (dialect) => {
  let gw: TestGateway;
  let h: ShopifyHarness;
  let shopCount = 0;
  const nextShop = () => `hook-shop-${++shopCount}.myshopify.com`;

  beforeAll(async () => {
    gw = await startTestGateway(dialect);
    h = await startShopifyHarness(dialect, gw);
  });
  afterAll(async () => {
    await h?.close();
    await gw?.close();
  });

  const db = () => h.connector.current().deps.db;
  const url = () => `${h.connector.url}/shopify/webhooks`;
  const send = (topic: (typeof TOPICS)[number], shop: string, extra: { secret?: string; webhookId?: string } = {}) =>
    h.fake.sendWebhook({ url: url(), topic, shop, body: webhookFixture(FIXTURE[topic], shop), ...extra });

  /** An installed shop with a linked store connection holding two orders: 299938 (the customer's) and 555. */
  async function shopWithOrders(): Promise<{ shop: string; connectionId: string }> {
    const shop = nextShop();
    await install(h, shop);
    const deps = h.connector.current().deps;
    const now = toStoredInstant(gw.clock.nowMs());
    const connectionId = randomUUID();
    await db()
      .insertInto('store_connections')
      .values({
        id: connectionId,
        platform: 'shopify',
        store_url: `https://${shop}`,
        domain: 'shop.example.am',
        environment: 'test',
        token_id: randomUUID(),
        token_hash: `hash-${connectionId}`,
        token_ciphertext: deps.sealer.seal('ct_test_secret', `${connectionId}:token`),
        credentials_ciphertext: deps.sealer.seal('{"access_token":"x"}', `${connectionId}:credentials`),
        webhook_secrets_ciphertext: deps.sealer.seal('["whsec"]', `${connectionId}:webhook_secrets`),
        secrets_refreshed_at: now,
        key_exchange_hash: null,
        key_exchange_ciphertext: null,
        status: 'active',
        last_webhook_at: null,
        created_at: now,
        updated_at: now,
        store_state: 'ok',
        store_error_at: null,
        store_error_message: null,
        last_missed_webhook_at: null,
      })
      .execute();
    await linkShopConnection(db(), shop, connectionId, now);
    for (const [orderId, uuid] of [
      ['299938', randomUUID()],
      ['gid://shopify/Order/280263', randomUUID()],
      ['555', randomUUID()],
    ] as const) {
      const linkId = randomUUID();
      await db()
        .insertInto('order_links')
        .values({
          id: linkId,
          connection_id: connectionId,
          store_order_id: orderId,
          gateway_order_id: `${connectionId}:${orderId}`,
          amount: 12000,
          currency: 'AMD',
          gateway_status: 'completed',
          paid_payment_uuid: uuid,
          store_sync: 'done',
          sync_attempts: 1,
          next_sync_at: null,
          last_sync_error: null,
          flag: null,
          next_poll_at: null,
          created_at: now,
          updated_at: now,
          poll_failures: 0,
          last_webhook_at: now,
        })
        .execute();
      await db()
        .insertInto('order_payments')
        .values({
          uuid,
          link_id: linkId,
          status: 'completed',
          amount: 12000,
          currency: 'AMD',
          noted_status: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await db()
        .insertInto('webhook_receipts')
        .values({
          delivery_id: randomUUID(),
          connection_id: connectionId,
          event: 'payment.completed',
          payment_uuid: uuid,
          received_at: now,
        })
        .execute();
      await db()
        .insertInto('refund_records')
        .values({
          id: randomUUID(),
          connection_id: connectionId,
          link_id: linkId,
          gateway_refund_uuid: randomUUID(),
          store_refund_id: null,
          amount: 1000,
          origin: 'gateway',
          created_at: now,
          updated_at: now,
          status: 'succeeded',
          reason: null,
          next_check_at: null,
          checks: 0,
        })
        .execute();
    }
    return { shop, connectionId };
  }

  const links = (connectionId: string) =>
    db()
      .selectFrom('order_links')
      .select('store_order_id')
      .where('connection_id', '=', connectionId)
      .orderBy('store_order_id')
      .execute();

  it.each(TOPICS)('refuses %s with a bad HMAC (401) and changes nothing', async (topic) => {
    const { shop, connectionId } = await shopWithOrders();
    const forged = await send(topic, shop, { secret: 'shpss_someone-else' });
    expect(forged.status).toBe(401);
    expect(forged.body).toMatchObject({ error: 'invalid_hmac' });
    const missing = await h.fake.sendWebhook({
      url: url(),
      topic,
      shop,
      body: webhookFixture(FIXTURE[topic], shop),
      hmac: '',
    });
    expect(missing.status).toBe(401);
    expect((await links(connectionId)).length).toBe(3);
    const shopRow = await db()
      .selectFrom('shopify_shops')
      .selectAll()
      .where('shop', '=', shop)
      .executeTakeFirstOrThrow();
    expect(shopRow.status).toBe('installed');
    expect(await db().selectFrom('shopify_data_requests').selectAll().where('shop', '=', shop).execute()).toEqual([]);
  });

  it('checks the HMAC on the raw bytes: the same JSON re-serialised does not pass', async () => {
    const { shop } = await shopWithOrders();
    const body = webhookFixture('customers-redact', shop);
    const pretty = JSON.stringify(body, null, 2);
    const { createHmac } = await import('node:crypto');
    const hmacOfCompact = createHmac('sha256', h.app.apiSecret).update(JSON.stringify(body)).digest('base64');
    const answer = await h.fake.sendWebhook({
      url: url(),
      topic: 'customers/redact',
      shop,
      body: pretty,
      hmac: hmacOfCompact,
    });
    expect(answer.status).toBe(401);
  });

  it('customers/data_request stores an export of the orders asked about for the merchant', async () => {
    const { shop, connectionId } = await shopWithOrders();
    const answer = await send('customers/data_request', shop);
    expect(answer.status).toBe(200);
    const rows = await db().selectFrom('shopify_data_requests').selectAll().where('shop', '=', shop).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ data_request_id: '9999', customer_id: '191167' });
    const exported = JSON.parse(rows[0]?.export ?? '{}');
    expect(exported.orders_requested).toEqual(['299938', '280263', '220458']);
    expect(exported.orders.map((o: { store_order_id: string }) => o.store_order_id).sort()).toEqual([
      '299938',
      'gid://shopify/Order/280263',
    ]);
    expect(exported.orders[0].payments[0]).toMatchObject({ status: 'completed', amount: 12000, currency: 'AMD' });
    expect(exported.orders[0].refunds[0]).toMatchObject({ amount: 1000, origin: 'gateway' });
    // Nothing else about the customer is kept.
    expect(rows[0]?.export).not.toContain('john@example.com');
    expect(rows[0]?.export).not.toContain('555-625-1199');
    // Nothing was deleted.
    expect((await links(connectionId)).length).toBe(3);
  });

  it('customers/redact deletes what is held for the listed orders only', async () => {
    const { shop, connectionId } = await shopWithOrders();
    expect((await send('customers/data_request', shop)).status).toBe(200);
    const answer = await send('customers/redact', shop);
    expect(answer.status).toBe(200);
    expect((await links(connectionId)).map((l) => l.store_order_id)).toEqual(['555']);
    const payments = await db()
      .selectFrom('order_payments')
      .innerJoin('order_links', 'order_links.id', 'order_payments.link_id')
      .select('order_payments.uuid')
      .where('order_links.connection_id', '=', connectionId)
      .execute();
    expect(payments).toHaveLength(1);
    const receipts = await db()
      .selectFrom('webhook_receipts')
      .select('delivery_id')
      .where('connection_id', '=', connectionId)
      .execute();
    expect(receipts).toHaveLength(1);
    const refunds = await db()
      .selectFrom('refund_records')
      .select('id')
      .where('connection_id', '=', connectionId)
      .execute();
    expect(refunds).toHaveLength(1);
    // The customer's export is gone too.
    expect(await db().selectFrom('shopify_data_requests').selectAll().where('shop', '=', shop).execute()).toEqual([]);
  });

  it('app/uninstalled twice: shop uninstalled, sessions and connection secrets gone, second delivery harmless', async () => {
    const { shop, connectionId } = await shopWithOrders();
    for (let i = 0; i < 2; i += 1) {
      const answer = await send('app/uninstalled', shop);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ received: true });
    }
    const shopRow = await db()
      .selectFrom('shopify_shops')
      .selectAll()
      .where('shop', '=', shop)
      .executeTakeFirstOrThrow();
    expect(shopRow).toMatchObject({
      status: 'uninstalled',
      uninstalled_at: toStoredInstant(gw.clock.nowMs()),
      redacted_at: null,
    });
    expect(await db().selectFrom('shopify_sessions').select('id').where('shop', '=', shop).execute()).toEqual([]);
    const connection = await db()
      .selectFrom('store_connections')
      .selectAll()
      .where('id', '=', connectionId)
      .executeTakeFirstOrThrow();
    expect(connection).toMatchObject({
      status: 'uninstalled',
      token_ciphertext: '',
      credentials_ciphertext: null,
      webhook_secrets_ciphertext: '',
      token_hash: `removed:${connectionId}`,
    });
    // The order map stays (payments at the gateway are untouched); it is not polled any more.
    expect((await links(connectionId)).length).toBe(3);
  });

  it('a delivery already handled (same X-Shopify-Webhook-Id) is acknowledged without running again', async () => {
    const { shop } = await shopWithOrders();
    const webhookId = randomUUID();
    const first = await send('customers/data_request', shop, { webhookId });
    expect(first.body).toEqual({ received: true });
    await db().deleteFrom('shopify_data_requests').where('shop', '=', shop).execute();
    const again = await send('customers/data_request', shop, { webhookId });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ received: true, duplicate: true });
    expect(await db().selectFrom('shopify_data_requests').selectAll().where('shop', '=', shop).execute()).toEqual([]);
  });

  it('shop/redact deletes all of the shop data after uninstall', async () => {
    const { shop, connectionId } = await shopWithOrders();
    expect((await send('customers/data_request', shop)).status).toBe(200);
    expect((await send('app/uninstalled', shop)).status).toBe(200);
    // A payments app configuration left from before (the connection was removed, then the app uninstalled).
    const now = toStoredInstant(gw.clock.nowMs());
    await requestPaymentsConfiguration(db(), shop, false, 'Gateway account m-1', now);
    gw.clock.advance(48 * HOUR_MS);
    const answer = await send('shop/redact', shop);
    expect(answer.status).toBe(200);
    await expectShopGone(shop, connectionId);
    expect(await findPaymentsConfiguration(db(), shop)).toBeUndefined();
    // Safe to receive again.
    expect((await send('shop/redact', shop)).status).toBe(200);
  });

  it('shop/redact leaves a shop that installed the app again alone', async () => {
    const { shop, connectionId } = await shopWithOrders();
    const answer = await send('shop/redact', shop);
    expect(answer.status).toBe(200);
    expect((await links(connectionId)).length).toBe(3);
  });

  it('the job deletes an uninstalled shop data 48 h after uninstall when shop/redact never came', async () => {
    const { shop, connectionId } = await shopWithOrders();
    expect((await send('app/uninstalled', shop)).status).toBe(200);
    gw.clock.advance(47 * HOUR_MS);
    await h.connector.runDueWork(); // may delete shops uninstalled by earlier tests, not this one
    expect((await links(connectionId)).length).toBe(3);
    const kept = await db().selectFrom('shopify_shops').selectAll().where('shop', '=', shop).executeTakeFirstOrThrow();
    expect(kept.redacted_at).toBeNull();
    gw.clock.advance(HOUR_MS);
    const result = await h.connector.runDueWork();
    expect(result.redacted).toBeGreaterThanOrEqual(1);
    await expectShopGone(shop, connectionId);
    expect((await h.connector.runDueWork()).redacted).toBe(0);
  });

  it('a malformed but signed body is refused (400), an unknown topic is acknowledged', async () => {
    const shop = nextShop();
    const bad = await h.fake.sendWebhook({ url: url(), topic: 'customers/redact', shop, body: { shop_domain: shop } });
    expect(bad.status).toBe(400);
    const notJson = await h.fake.sendWebhook({ url: url(), topic: 'customers/redact', shop, body: 'not json' });
    expect(notJson.status).toBe(400);
    const other = await h.fake.sendWebhook({ url: url(), topic: 'products/update', shop, body: { id: 1 } });
    expect(other).toMatchObject({ status: 200, body: { received: true } });
  });

  async function expectShopGone(shop: string, connectionId: string) {
    expect(await links(connectionId)).toEqual([]);
    expect(await db().selectFrom('store_connections').select('id').where('id', '=', connectionId).execute()).toEqual(
      [],
    );
    expect(
      await db()
        .selectFrom('webhook_receipts')
        .select('delivery_id')
        .where('connection_id', '=', connectionId)
        .execute(),
    ).toEqual([]);
    expect(
      await db().selectFrom('refund_records').select('id').where('connection_id', '=', connectionId).execute(),
    ).toEqual([]);
    expect(await db().selectFrom('shopify_data_requests').selectAll().where('shop', '=', shop).execute()).toEqual([]);
    expect(await db().selectFrom('shopify_sessions').selectAll().where('shop', '=', shop).execute()).toEqual([]);
    const row = await db().selectFrom('shopify_shops').selectAll().where('shop', '=', shop).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'uninstalled', connection_id: null, scopes: '' });
    expect(row.redacted_at).not.toBeNull();
  }
});
