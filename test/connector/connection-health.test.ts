/**
 * A connection as the plugin's settings page and health notice see it: `GET /v1/connection` asks the
 * gateway every time, a store that refuses the connector's key is detected and offered a reconnect
 * (or a key made by hand), a revoked connect token stops polling and reconciliation (the issue's
 * figure: 466 failing polls in 8 minutes for 15 orders), failing polls back off per order, and a
 * connection can be removed. The connector's calls to the gateway go through a counting `fetch`
 * that a test can also make fail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConnectorConfig } from '../../connector/config.js';
import { ACCEPTED_TOKEN_TTL_MS } from '../../connector/connections/accepted-tokens.js';
import { keyExchangeProblems } from '../../connector/connections/connection-health.js';
import { STORE_UNAUTHORIZED_MESSAGE } from '../../connector/errors.js';
import { STORE_KEY_CHECK_EVERY_MS } from '../../connector/jobs/due-work.js';
import { type Connector, startConnector } from '../../connector/runtime/start.js';
import { createConnectToken, revokeConnectToken } from '../../gateway/connect/connect-token.service.js';
import { MINUTE_MS, toStoredInstant } from '../../gateway/domain/clock.js';
import { createLogger } from '../../gateway/runtime/logger.js';
import { connector as connectorCli } from '../support/cli.js';
import { CONNECTOR_SECRET } from '../support/connector.js';
import { DIALECTS, freshDatabase, type TestDatabase } from '../support/databases.js';
import { type FakeWooCommerce, LOOPBACK_TEST_CALLBACKS, startFakeWooCommerce } from '../support/fake-woocommerce.js';
import { startTestGateway, type TestGateway, type TestMerchant } from '../support/gateway.js';
import { requestJson } from '../support/http.js';
import { freePort } from '../support/ports.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field in assertions
type Json = Record<string, any>;

const TICK_MS = 5_000;

describe('the key exchange callback WooCommerce can deliver to', () => {
  it('names every reason a public URL cannot receive keys', () => {
    expect(keyExchangeProblems('https://connector.example')).toEqual([]);
    expect(keyExchangeProblems('https://connector.example:8080/base')).toEqual([]);
    expect(keyExchangeProblems('http://connector.example')).toEqual(['callback_not_https']);
    expect(keyExchangeProblems('https://connector.example:8443')).toEqual(['callback_port_not_allowed']);
    expect(keyExchangeProblems('http://localhost:8090')).toEqual([
      'callback_not_https',
      'callback_port_not_allowed',
      'callback_host_not_public',
    ]);
    expect(keyExchangeProblems('https://10.1.2.3')).toEqual(['callback_host_not_public']);
    expect(keyExchangeProblems('https://[::1]')).toEqual(['callback_host_not_public']);
    expect(keyExchangeProblems('https://shop.localhost')).toEqual(['callback_host_not_public']);
    // WordPress lets a callback on the store's own host through, private or on the store's port.
    expect(keyExchangeProblems('https://localhost:8090', 'https://localhost:8090')).toEqual([]);
    expect(keyExchangeProblems('https://10.1.2.3', 'http://10.1.2.3:8000')).toEqual([]);
    expect(keyExchangeProblems('https://10.1.2.3:8443', 'http://10.1.2.3:8000')).toEqual(['callback_port_not_allowed']);
    expect(keyExchangeProblems('http://localhost:8090', 'http://localhost:8080')).toEqual([
      'callback_not_https',
      'callback_port_not_allowed',
    ]);
  });
});

describe.each(DIALECTS)('connection health (%s)', (dialect) => {
  let gw: TestGateway;
  let merchant: TestMerchant;
  let database: TestDatabase;
  let connector: Connector;
  let url: string;
  let env: Record<string, string>;
  /** Every gateway call the connector made, as `METHOD /path`, with the connect token it used. */
  const gatewayCalls: string[] = [];
  const callTokens: string[] = [];
  /** The gateway calls made with `token` since call number `from`. */
  const callsWith = (token: string, from: number) =>
    gatewayCalls.slice(from).filter((_, i) => callTokens[from + i] === token);
  /** While set, gateway calls whose path matches fail as if the gateway did not answer. */
  let gatewayDown: RegExp | null = null;

  const countingFetch: typeof fetch = async (input, init) => {
    const target = new URL(input instanceof Request ? input.url : String(input));
    gatewayCalls.push(`${init?.method ?? 'GET'} ${target.pathname}`);
    callTokens.push(new Headers(init?.headers).get('X-Service-Connect') ?? '');
    if (gatewayDown?.test(target.pathname)) throw new TypeError('fetch failed');
    return fetch(input, init);
  };
  const call = (method: string, path: string, token: string | undefined, body?: unknown) =>
    requestJson<Json>(method, `${url}${path}`, {
      headers: token === undefined ? {} : { 'X-Service-Connect': token },
      ...(body === undefined ? {} : { body }),
    });
  const row = (id: string) =>
    connector.deps.db.selectFrom('store_connections').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const links = (id: string) =>
    connector.deps.db.selectFrom('order_links').selectAll().where('connection_id', '=', id).execute();
  async function tick(ms: number, step = TICK_MS): Promise<void> {
    for (let elapsed = 0; elapsed < ms; elapsed += step) {
      await connector.runDueWork();
      gw.clock.advance(step);
    }
  }
  const snapshot = (total: string, number: string) => ({
    number,
    total,
    currency: 'AMD',
    status: 'pending',
    created_at: toStoredInstant(gw.clock.nowMs()),
    payment_method: 'armenian_gateway',
  });
  const checkout = (token: string, store: FakeWooCommerce, orderId: number, total = '1000.00') =>
    call('POST', `/v1/orders/${orderId}/payment`, token, {
      return_url: `${store.url}/?wc-api=wc_armenian_gateway`,
      cancel_url: `${store.url}/cart/`,
      order: snapshot(total, String(orderId)),
    });

  /** A store connected through the key exchange, with its own token. */
  async function connectedStore(): Promise<{ store: FakeWooCommerce; token: string; tokenId: string; id: string }> {
    const store = await startFakeWooCommerce({ testCallbacks: LOOPBACK_TEST_CALLBACKS });
    const issued = await createConnectToken(gw.gateway.deps, {
      merchantId: merchant.merchantId,
      domain: merchant.hostedDomain,
      platform: 'woocommerce',
    });
    const registered = await call('POST', '/v1/connections', issued.connect_token, { store_url: store.url });
    expect(registered.status).toBe(201);
    await store.approve(registered.body.authorize_url);
    return { store, token: issued.connect_token, tokenId: issued.id, id: registered.body.connection_id };
  }

  beforeAll(async () => {
    gw = await startTestGateway(dialect, {
      env: { GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1', GATEWAY_CLOCK: 'manual', GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' },
    });
    merchant = await gw.merchant();
    database = await freshDatabase(dialect, 'connector');
    const port = await freePort();
    env = {
      CONNECTOR_PORT: String(port),
      CONNECTOR_HOST: '127.0.0.1',
      CONNECTOR_PUBLIC_URL: `http://127.0.0.1:${port}`,
      CONNECTOR_DATABASE_URL: database.url,
      GATEWAY_URL: gw.url,
      GATEWAY_SECRET: CONNECTOR_SECRET,
      CONNECTOR_JOB_INTERVAL_SECONDS: '0',
      LOG_LEVEL: 'silent',
      GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1',
    };
    connector = await startConnector({
      config: loadConnectorConfig(env),
      clock: gw.clock,
      logger: createLogger('silent'),
      fetch: countingFetch,
    });
    url = connector.url;
  }, 60_000);

  afterAll(async () => {
    await connector?.close();
    await database?.drop();
    await gw?.close();
  });

  it('asks the gateway on every GET /v1/connection and describes health and the key exchange', async () => {
    const { store, token, id } = await connectedStore();
    try {
      const before = gatewayCalls.length;
      const first = await call('GET', '/v1/connection', token);
      const second = await call('GET', '/v1/connection', token);
      expect(gatewayCalls.slice(before)).toEqual(['GET /api/v1/connect_token', 'GET /api/v1/connect_token']);
      expect(second.status).toBe(200);
      expect(first.body).toMatchObject({
        connection_id: id,
        status: 'active',
        last_webhook_at: null,
        health: {
          gateway: 'ok',
          store: 'ok', // the delivered key was tested with one read
          store_error: null,
          webhooks: 'none_yet',
          last_missed_webhook_at: null,
          problems: [],
        },
        key_exchange: {
          callback_url: `${url}/woocommerce/auth/callback`,
          // On the store's own host (both on 127.0.0.1): private is allowed; another port is not.
          problems: ['callback_not_https', 'callback_port_not_allowed'],
        },
        // The key as WooCommerce lists it (its last 7 characters), never the key itself.
        store_key: { truncated_key: expect.stringMatching(/^[0-9a-f]{7}$/), app_name: 'Armenian payment gateway' },
      });

      gatewayDown = /connect_token/;
      const unreachable = await call('GET', '/v1/connection', token);
      gatewayDown = null;
      expect(unreachable.status).toBe(200);
      expect(unreachable.body.health.gateway).toBe('unreachable');
      expect(unreachable.body.status).toBe('active');
    } finally {
      await store.close();
    }
  });

  it('asks the gateway about the token once per burst of order calls, again after a few seconds or any refusal', async () => {
    const { store, token, tokenId } = await connectedStore();
    try {
      const order = store.addOrder({ total: '1200.00' });
      gw.clock.advance(ACCEPTED_TOKEN_TTL_MS);
      const asked = (from: number) => callsWith(token, from).filter((c) => c === 'GET /api/v1/connect_token').length;
      const before = gatewayCalls.length;
      expect((await checkout(token, store, order.id, '1200.00')).status).toBe(201);
      for (let i = 0; i < 3; i++) {
        expect((await call('GET', `/v1/orders/${order.id}/payment`, token)).status).toBe(200);
      }
      expect(asked(before)).toBe(1);
      // The connection's own page always asks.
      expect((await call('GET', '/v1/connection', token)).status).toBe(200);
      expect(asked(before)).toBe(2);
      gw.clock.advance(ACCEPTED_TOKEN_TTL_MS);
      expect((await call('GET', `/v1/orders/${order.id}/payment`, token)).status).toBe(200);
      expect(asked(before)).toBe(3);

      // Revoked: the first order call within the few seconds reaches the gateway, which refuses it;
      // from then on every call is refused before anything is read.
      await revokeConnectToken(gw.gateway.deps, tokenId);
      const first = await call('GET', `/v1/orders/${order.id}/payment`, token);
      expect(first.status).toBe(401);
      const next = await call('GET', `/v1/orders/${order.id}/payment`, token);
      expect(next.status).toBe(401);
      expect(next.body).toEqual({
        error: 'invalid_connect_token',
        message: expect.any(String),
        request_id: expect.any(String),
      });
    } finally {
      await store.close();
    }
  });

  it('finds a REST key revoked in the store on its own within 15 minutes, before any buyer pays', async () => {
    const { store, token, id } = await connectedStore();
    try {
      await connector.runDueWork();
      const checked = (await row(id)).store_checked_at;
      expect(checked).not.toBeNull();
      store.revokeKeys(); // the shop owner deleted the REST key; no order, no buyer
      // Not asked again before its 15 minutes are up: a store is not read on every tick.
      const readsBefore = store.requests.length;
      gw.clock.advance(5 * MINUTE_MS);
      await connector.runDueWork();
      expect(store.requests.length).toBe(readsBefore);
      expect((await row(id)).status).toBe('active');
      gw.clock.advance(STORE_KEY_CHECK_EVERY_MS);
      await connector.runDueWork();
      expect((await row(id)).status).toBe('store_unauthorized');
      const described = await call('GET', '/v1/connection', token);
      expect(described.body).toMatchObject({ status: 'store_unauthorized', health: { store: 'unauthorized' } });
    } finally {
      await store.close();
    }
  });

  it('detects a store that refuses the key, refuses payments clearly, and takes a new key by reconnecting', async () => {
    const { store, token, id } = await connectedStore();
    try {
      const order = store.addOrder({ total: '1200.00' });
      const created = await checkout(token, store, order.id, '1200.00');
      expect(created.status).toBe(201);
      store.revokeKeys(); // the shop owner deleted the REST key
      await gw.call('POST', `/api/v1/test_helpers/payments/${created.body.payment_uuid}/pay`, {
        key: merchant.testKey,
        body: { card_number: '4111 1111 1111 1111' },
      });
      // The webhook's store calls are refused: the connection is marked, the order waits (parked).
      const until = performance.now() + 8_000;
      while ((await row(id)).status !== 'store_unauthorized' && performance.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect((await row(id)).status).toBe('store_unauthorized');

      const described = await call('GET', '/v1/connection', token);
      expect(described.body.status).toBe('store_unauthorized');
      expect(described.body.health.store).toBe('unauthorized');
      expect(described.body.health.store_error.message).toBe(
        'The store answered 401: the REST key is wrong or was deleted.',
      );
      expect(JSON.stringify(described.body)).not.toMatch(/ck_[0-9a-f]{8}|cs_[0-9a-f]{8}/);

      const another = store.addOrder({ total: '800.00' });
      const refused = await checkout(token, store, another.id, '800.00');
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ error: 'store_unauthorized', message: STORE_UNAUTHORIZED_MESSAGE });
      const refund = await call('POST', `/v1/orders/${order.id}/refunds`, token, { amount: 100 });
      expect(refund.body.error).toBe('store_unauthorized');

      // Reconnect: a new key exchange; a key the store refuses is refused at the callback.
      const reconnected = await call('POST', '/v1/connection/reconnect', token);
      expect(reconnected.status).toBe(200);
      expect(reconnected.body.status).toBe('awaiting_keys');
      const userId = new URL(reconnected.body.authorize_url).searchParams.get('user_id');
      const bogus = await call('POST', '/woocommerce/auth/callback', undefined, {
        key_id: 99,
        user_id: userId,
        consumer_key: `ck_${'1'.repeat(40)}`,
        consumer_secret: `cs_${'2'.repeat(40)}`,
        key_permissions: 'read_write',
      });
      expect(bogus.status).toBe(400);
      expect(bogus.body.error).toBe('store_credentials_refused');
      expect((await checkout(token, store, another.id, '800.00')).body.error).toBe('store_unauthorized');

      await store.approve(reconnected.body.authorize_url);
      expect((await row(id)).status).toBe('active');
      // The order paid while the key was refused is marked paid now.
      await tick(TICK_MS);
      await connector.deps.background.idle();
      expect(store.order(order.id)?.date_paid_gmt).not.toBeNull();
      expect((await checkout(token, store, another.id, '800.00')).status).toBe(201);
      expect((await call('GET', '/v1/connection', token)).body.health).toMatchObject({
        store: 'ok',
        store_error: null,
      });
    } finally {
      await store.close();
    }
  });

  it('tests a key made by hand before keeping it, and says what the store answered', async () => {
    const { store, token, id } = await connectedStore();
    try {
      const wrong = await call('POST', '/v1/connection/credentials', token, {
        consumer_key: `ck_${'3'.repeat(40)}`,
        consumer_secret: `cs_${'4'.repeat(40)}`,
      });
      expect(wrong.status).toBe(422);
      expect(wrong.body).toMatchObject({
        error: 'store_credentials_refused',
        message: 'The store refused the key: The store answered 401: the REST key is wrong or was deleted.',
      });
      const keys = store.issueKeys();
      store.failNext(1, 403, { method: 'GET', route: /^orders$/ });
      const forbidden = await call('POST', '/v1/connection/credentials', token, {
        consumer_key: keys.consumerKey,
        consumer_secret: keys.consumerSecret,
      });
      expect(forbidden.status).toBe(422);
      expect(forbidden.body.message).toContain('read-only or lacks permission');
      expect(JSON.stringify(forbidden.body)).not.toContain(keys.consumerSecret);

      const malformed = await call('POST', '/v1/connection/credentials', token, { consumer_key: 'x' });
      expect(malformed.status).toBe(422);
      expect(Object.keys(malformed.body.errors)).toEqual(['consumer_key', 'consumer_secret']);

      await call('POST', '/v1/connection/reconnect', token);
      const accepted = await call('POST', '/v1/connection/credentials', token, {
        consumer_key: keys.consumerKey,
        consumer_secret: keys.consumerSecret,
      });
      expect(accepted.status).toBe(200);
      expect(accepted.body.status).toBe('active');
      expect(accepted.body.authorize_url).toBeUndefined();
      expect((await row(id)).key_exchange_hash).toBeNull();
    } finally {
      await store.close();
    }
  });

  it('stops after a revoked token: 15 orders, 8 minutes of job ticks, one gateway call (the issue saw 466)', async () => {
    const { store, token, tokenId, id } = await connectedStore();
    try {
      const at = toStoredInstant(gw.clock.nowMs());
      for (let i = 0; i < 15; i += 1) {
        const order = store.addOrder({ total: '1000.00' }, at);
        expect((await checkout(token, store, order.id)).status).toBe(201);
      }
      // An order reconciliation linked without a payment is never polled.
      store.addOrder({ total: '1000.00' }, at);
      await revokeConnectToken(gw.gateway.deps, tokenId);
      gw.clock.advance(10_000); // past the gateway's few-second cache of token checks
      const before = gatewayCalls.length;

      await tick(8 * MINUTE_MS);

      // The first call that met the revocation (the scheduled reconciliation's first read) marks the
      // connection; nothing of it calls the gateway again: no polls, no further runs.
      expect(callsWith(token, before)).toHaveLength(1);
      expect((await row(id)).status).toBe('token_revoked');
      const refused = await call('GET', '/v1/connection', token);
      expect(refused.status).toBe(401);
      expect(refused.body.error).toBe('invalid_connect_token');
      const scheduled = await connector.deps.db
        .selectFrom('reconciliation_runs')
        .selectAll()
        .where('connection_id', '=', id)
        .execute();
      expect(scheduled.map((r) => [r.trigger, r.status])).toEqual([['scheduled', 'failed']]);
      expect(scheduled[0]?.error).toBe('The payment gateway refused the connect token (revoked or expired).');
    } finally {
      await store.close();
    }
  });

  it('backs off a failing poll per order (5 minutes, doubling), and a successful poll resets it', async () => {
    const { store, token, id } = await connectedStore();
    try {
      const at = toStoredInstant(gw.clock.nowMs());
      const order = store.addOrder({ total: '900.00' }, at);
      expect((await checkout(token, store, order.id, '900.00')).status).toBe(201);
      gatewayDown = /^\/api\/v1\/orders\//;
      // An hour of 30-second ticks: polls at 2, 7, 17 and 37 minutes, each failing.
      await tick(60 * MINUTE_MS, 30_000);
      const [failing] = await links(id);
      expect(failing?.poll_failures).toBe(4);
      const lastPollMs = Date.parse(failing?.next_poll_at ?? '') - 40 * MINUTE_MS;
      expect(gw.clock.nowMs() - lastPollMs).toBeLessThan(40 * MINUTE_MS);

      gatewayDown = null;
      gw.clock.advance(Date.parse(failing?.next_poll_at ?? '') - gw.clock.nowMs());
      // The gateway's own expiry job (its timer ticks in real time; run it rather than race it).
      await gw.gateway.scheduler.runDueNow();
      await connector.runDueWork();
      const [recovered] = await links(id);
      expect(recovered?.poll_failures).toBe(0);
      // The payment expired meanwhile (20 minutes unpaid): final, so it is not polled again.
      expect(recovered?.gateway_status).toBe('expired');
      expect(recovered?.next_poll_at).toBeNull();
    } finally {
      gatewayDown = null;
      await store.close();
    }
  });

  it('notes a webhook that never came when polling learns a final status long after it happened', async () => {
    const { store, token, id } = await connectedStore();
    try {
      const order = store.addOrder({ total: '700.00' });
      const created = await checkout(token, store, order.id, '700.00');
      // Every delivery for this connection is refused: it holds a wrong webhook secret, and fetching
      // the right one fails (the gateway's token endpoint does not answer the connector).
      await connector.deps.db
        .updateTable('store_connections')
        .set({
          webhook_secrets_ciphertext: connector.deps.sealer.seal(
            JSON.stringify(['not-the-secret']),
            `store_connections:${id}:webhook_secrets`,
          ),
          secrets_refreshed_at: toStoredInstant(gw.clock.nowMs()),
        })
        .where('id', '=', id)
        .execute();
      gatewayDown = /connect_token/;
      await gw.call('POST', `/api/v1/test_helpers/payments/${created.body.payment_uuid}/pay`, {
        key: merchant.testKey,
        body: { card_number: '4111 1111 1111 1111' },
      });
      // Polls before the payment is 10 minutes old learn it in time: no missed webhook yet.
      gw.clock.advance(15 * MINUTE_MS);
      await tick(5 * MINUTE_MS, 30_000);
      await connector.deps.background.idle();
      expect(store.order(order.id)?.date_paid_gmt).not.toBeNull();
      const described = await call('GET', '/v1/connection', token);
      expect(described.status).toBe(200);
      expect(described.body.health).toMatchObject({ gateway: 'unreachable', webhooks: 'stale' });
      expect(described.body.health.last_missed_webhook_at).not.toBeNull();
    } finally {
      gatewayDown = null;
      await store.close();
    }
  });

  it('removes a connection: nothing more is polled, its secrets are erased, the store may connect again', async () => {
    const { store, token, id } = await connectedStore();
    try {
      const order = store.addOrder({ total: '600.00' });
      expect((await checkout(token, store, order.id, '600.00')).status).toBe(201);
      const removed = await call('DELETE', '/v1/connection', token);
      expect(removed.status).toBe(200);
      expect(removed.body).toEqual({ connection_id: id, status: 'removed' });
      const erased = await row(id);
      expect(erased).toMatchObject({ status: 'removed', token_ciphertext: '', credentials_ciphertext: null });
      expect((await links(id)).map((l) => l.next_poll_at)).toEqual([null]);

      const before = gatewayCalls.length;
      await tick(10 * MINUTE_MS, 30_000);
      expect(callsWith(token, before)).toEqual([]);
      expect((await call('GET', '/v1/connection', token)).body.error).toBe('connection_not_found');
      const webhook = await call('POST', `/v1/webhooks/gateway/${id}`, undefined, {});
      expect(webhook.status).toBe(404);

      // Registered again: the same store, so the same connection, through the key exchange again.
      const again = await call('POST', '/v1/connections', token, { store_url: store.url });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ connection_id: id, status: 'awaiting_keys' });
      expect(again.body.authorize_url).toEqual(expect.any(String));
    } finally {
      await store.close();
    }
  });

  it('removes a connection from the command line', async () => {
    const { store, id } = await connectedStore();
    try {
      const removed = await connectorCli(env, 'connection', 'remove', '--connection', id, '--json');
      expect(removed.code, removed.stderr).toBe(0);
      expect(JSON.parse(removed.stdout)).toEqual({ connection_id: id, status: 'removed' });
      expect((await row(id)).status).toBe('removed');
      const twice = await connectorCli(env, 'connection', 'remove', '--connection', id, '--json');
      expect(twice.code).toBe(1);
      expect(JSON.parse(twice.stderr)).toMatchObject({ error: 'connection_not_found' });
      expect((await connectorCli(env, 'connection', 'remove')).code).toBe(2);
    } finally {
      await store.close();
    }
  }, 60_000);
});
