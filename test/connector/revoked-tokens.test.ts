/**
 * A connect token the gateway no longer accepts (revoked, expired) or never issued, on every
 * plugin-facing route (docs/connector.md "Plugin-facing HTTP API"): 401 `invalid_connect_token` with
 * the connector's error shape and nothing about the connection (its id, store, status, whether its
 * keys arrived), whatever the connection's state and whatever the request carries; and the call
 * changes nothing. A revoked token of a registered connection used to reach the connection first
 * and answer its state (409 `connection_not_ready`, 422 ...).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { INTROSPECTIONS_PER_MINUTE } from '../../connector/api/introspection-limit.js';
import { createConnectToken, revokeConnectToken } from '../../gateway/connect/connect-token.service.js';
import { DAY_MS, toStoredInstant } from '../../gateway/domain/clock.js';
import { startTestConnector, type TestConnector } from '../support/connector.js';
import { DIALECTS } from '../support/databases.js';
import { type FakeWooCommerce, LOOPBACK_TEST_CALLBACKS, startFakeWooCommerce } from '../support/fake-woocommerce.js';
import { startTestGateway, type TestGateway, type TestMerchant } from '../support/gateway.js';
import type { ApiResponse } from '../support/http.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field in assertions
type Json = Record<string, any>;

/** Every route a plugin calls with its connect token, with a request that would otherwise be served. */
function pluginRoutes(store: FakeWooCommerce, orderId: string): Array<[string, string, unknown]> {
  const at = new Date(Date.UTC(2026, 10, 21)).toISOString();
  return [
    ['POST', '/v1/connections', { store_url: store.url }],
    ['GET', '/v1/connection', undefined],
    ['POST', '/v1/connection/reconnect', undefined],
    ['POST', '/v1/connection/credentials', { consumer_key: 'ck_abc', consumer_secret: 'cs_def' }],
    ['DELETE', '/v1/connection', undefined],
    ['POST', `/v1/orders/${orderId}/payment`, { return_url: `${store.url}/done`, cancel_url: `${store.url}/cart` }],
    ['GET', `/v1/orders/${orderId}/payment`, undefined],
    ['POST', `/v1/orders/${orderId}/refunds`, { amount: 100 }],
    ['POST', '/v1/reconciliation', { from: at, to: new Date(Date.parse(at) + DAY_MS).toISOString() }],
    ['GET', '/v1/reconciliation', undefined],
    ['GET', '/v1/reconciliation/0193c1a0-0000-7000-8000-000000000000', undefined],
    // Requests the connection would refuse for what they carry: the token is refused first.
    ['POST', '/v1/connections', { store_url: 'not a url' }],
    ['POST', '/v1/connection/credentials', { consumer_key: 'nope' }],
    ['POST', '/v1/orders/not%20an%20id/payment', {}],
  ];
}

describe.each(DIALECTS)('a connect token the gateway refuses, on every plugin route (%s)', (dialect) => {
  let gw: TestGateway;
  let store: FakeWooCommerce;
  let connector: TestConnector;
  let merchant: TestMerchant;

  beforeAll(async () => {
    gw = await startTestGateway(dialect, {
      env: { GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1', GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' },
    });
    store = await startFakeWooCommerce({ testCallbacks: LOOPBACK_TEST_CALLBACKS });
    merchant = await gw.merchant();
  }, 60_000);

  // A connector of its own for each test: its per-address count of token checks (kept in memory)
  // starts at zero, so each test's refusals are 401s rather than the limit's 429.
  beforeEach(async () => {
    connector = await startTestConnector(dialect, gw);
  }, 60_000);
  afterEach(async () => {
    await connector?.close();
  });

  afterAll(async () => {
    await store?.close();
    await gw?.close();
  });

  async function issue(expiresInDays?: number): Promise<{ token: string; id: string }> {
    const created = await createConnectToken(gw.gateway.deps, {
      merchantId: merchant.merchantId,
      domain: merchant.hostedDomain,
      platform: 'woocommerce',
      ...(expiresInDays === undefined ? {} : { expiresInDays }),
    });
    return { token: created.connect_token, id: created.id };
  }

  /** Registers a connection for `token`; with `approve`, the store grants its keys (active). */
  async function register(token: string, approve: boolean): Promise<string> {
    const registered = await connector.call<Json>('POST', '/v1/connections', {
      token,
      body: { store_url: store.url },
    });
    expect(registered.status, registered.text).toBe(201);
    if (approve) await store.approve(registered.body.authorize_url);
    return registered.body.connection_id;
  }

  const connectionRow = (id: string) =>
    connector
      .current()
      .deps.db.selectFrom('store_connections')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  /** 401 `invalid_connect_token`, the connector's error shape, and nothing about `connectionId`. */
  function expectRefused(res: ApiResponse<Json>, what: string, connectionId: string | null): void {
    expect(res.status, `${what}: ${res.text}`).toBe(401);
    expect(Object.keys(res.body).sort(), what).toEqual(['error', 'message', 'request_id']);
    expect(res.body.error, what).toBe('invalid_connect_token');
    expect(res.body.request_id, what).toBe(res.headers.get('x-request-id'));
    for (const revealing of [
      store.url,
      'awaiting',
      'active',
      'not ready',
      'authorize',
      'key exchange',
      'WooCommerce',
      ...(connectionId === null ? [] : [connectionId]),
    ]) {
      expect(res.text, `${what} tells ${revealing}`).not.toContain(revealing);
    }
  }

  async function expectEveryRouteRefuses(token: string, connectionId: string | null): Promise<void> {
    const order = store.addOrder({ total: '1500.00' });
    for (const [method, path, body] of pluginRoutes(store, String(order.id))) {
      const answer = await connector.call<Json>(method, path, { token, ...(body === undefined ? {} : { body }) });
      expectRefused(answer, `${method} ${path} ${JSON.stringify(body)}`, connectionId);
    }
  }

  it('refuses a revoked token of an active connection on every route, and changes nothing', async () => {
    const { token, id } = await issue();
    const connectionId = await register(token, true);
    const before = await connectionRow(connectionId);
    expect(before.status).toBe('active');
    await revokeConnectToken(gw.gateway.deps, id);

    await expectEveryRouteRefuses(token, connectionId);
    const after = await connectionRow(connectionId);
    // Not removed, no key exchange started, no payment made: the gateway's refusal is all it learnt.
    expect(after.status).toBe('token_revoked');
    expect(after.token_hash).toBe(before.token_hash);
    expect(after.key_exchange_hash).toBeNull();
    expect(after.credentials_ciphertext).toBe(before.credentials_ciphertext);
    const links = await connector
      .current()
      .deps.db.selectFrom('order_links')
      .select('id')
      .where('connection_id', '=', connectionId)
      .execute();
    expect(links).toEqual([]);
  });

  it('refuses a revoked token of a connection still awaiting its keys (which used to answer 409)', async () => {
    const { token, id } = await issue();
    const connectionId = await register(token, false);
    expect((await connectionRow(connectionId)).status).toBe('awaiting_keys');
    await revokeConnectToken(gw.gateway.deps, id);

    await expectEveryRouteRefuses(token, connectionId);
    const after = await connectionRow(connectionId);
    expect(after.status).toBe('token_revoked');
  });

  it('refuses a token it never saw, and a token the gateway never issued', async () => {
    const { token } = await issue();
    await expectEveryRouteRefuses(`${token.slice(0, -4)}AAAA`, null);
  });

  it('refuses a string that is no token at all', async () => {
    await expectEveryRouteRefuses('not-a-connect-token', null);
  });

  it('stops asking the gateway about a refused token past the per-address limit (429, nothing about the connection)', async () => {
    const { token, id } = await issue();
    const connectionId = await register(token, true);
    await revokeConnectToken(gw.gateway.deps, id);
    const answers: ApiResponse<Json>[] = [];
    for (let i = 0; i < INTROSPECTIONS_PER_MINUTE + 2; i += 1) {
      answers.push(await connector.call<Json>('GET', '/v1/connection', { token }));
    }
    // The first call learns the refusal; each later one counts as a token check of this address.
    expect(answers.slice(0, INTROSPECTIONS_PER_MINUTE + 1).map((a) => a.status)).toEqual(
      Array(INTROSPECTIONS_PER_MINUTE + 1).fill(401),
    );
    const limited = answers.at(-1) as ApiResponse<Json>;
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('too_many_attempts');
    expect(limited.text).not.toContain(connectionId);
    expect(limited.text).not.toContain(store.url);
  });

  it('refuses an expired token of an active connection on every route', async () => {
    const { token } = await issue(1);
    const connectionId = await register(token, true);
    expect((await connectionRow(connectionId)).status).toBe('active');
    gw.clock.advance(2 * DAY_MS);
    expect(toStoredInstant(gw.clock.nowMs()) > (await connectionRow(connectionId)).created_at).toBe(true);

    await expectEveryRouteRefuses(token, connectionId);
    expect((await connectionRow(connectionId)).status).toBe('token_revoked');
  });
});
