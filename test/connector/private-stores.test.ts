/**
 * The connector is not a way into private networks: whoever holds a test connect token chooses the
 * store URL, so store calls go through the same guard as webhook deliveries (gateway/outbound).
 * Without `GATEWAY_ALLOW_PRIVATE_WEBHOOKS`, a private address is refused when the store is
 * registered, a name that resolves to one is refused at every call, and a listener on 127.0.0.1
 * receives nothing. Whatever made a store call fail, the plugin is told only that the store could
 * not be reached: no answer tells an open port from a closed one.
 */
import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { STORE_UNREACHABLE_MESSAGE } from '../../connector/errors.js';
import { updateConnection } from '../../connector/storage/connection.repository.js';
import { createConnectToken } from '../../gateway/connect/connect-token.service.js';
import { startTestConnector, type TestConnector } from '../support/connector.js';
import { DIALECTS } from '../support/databases.js';
import { startTestGateway, type TestGateway, type TestMerchant } from '../support/gateway.js';
import type { ApiResponse } from '../support/http.js';
import { freePort } from '../support/ports.js';

/** The forms a private address takes in a DNS answer. */
const PRIVATE_ANSWERS = [
  '127.0.0.1',
  '10.0.0.5',
  '192.168.1.10',
  '169.254.169.254',
  '::1',
  '::ffff:127.0.0.1',
  '::ffff:0:7f00:1',
  '64:ff9b:1::7f00:1',
];

/** A listener on 127.0.0.1 that counts what reaches it; `answer` decides how it treats a request. */
async function startListener(): Promise<{
  server: Server;
  port: number;
  connections: number;
  requests: number;
  answer: 'ok' | 'error' | 'hang-up';
}> {
  const state = { connections: 0, requests: 0, answer: 'ok' as 'ok' | 'error' | 'hang-up' };
  const server = createServer((request, response) => {
    state.requests += 1;
    if (state.answer === 'hang-up') request.socket.destroy();
    else if (state.answer === 'error') response.writeHead(500).end('{"code":"internal_server_error"}');
    else response.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
  });
  server.on('connection', () => {
    state.connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(state, { server, port });
}

describe.each(DIALECTS)('store calls and private networks (%s)', (dialect) => {
  let gw: TestGateway;
  let merchant: TestMerchant;
  let listener: Awaited<ReturnType<typeof startListener>>;
  let guarded: TestConnector;
  let development: TestConnector;
  /** What the injected resolver answers, per name; `resolved` lists the names asked for. */
  const dns: Record<string, string[]> = {};
  const resolved: string[] = [];
  const lookup: LookupFunction = (hostname, options, callback) => {
    resolved.push(hostname);
    const addresses: LookupAddress[] = (dns[hostname] ?? []).map((address) => ({
      address,
      family: address.includes(':') ? 6 : 4,
    }));
    if (addresses.length === 0) {
      callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
    } else if (options.all === true) {
      (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    } else {
      const first = addresses[0] as LookupAddress;
      callback(null, first.address, first.family);
    }
  };

  const newToken = async () =>
    (
      await createConnectToken(gw.gateway.deps, {
        merchantId: merchant.merchantId,
        domain: merchant.hostedDomain,
        platform: 'woocommerce',
      })
    ).connect_token;

  /**
   * Registers the store and keeps a key pair for it, as if the key exchange had succeeded while the
   * store was reachable (the callback tests a delivered key against the store, which these cannot
   * answer). Answers the token.
   */
  async function connectStore(connector: TestConnector, storeUrl: string): Promise<string> {
    const token = await newToken();
    const registered = await connector.call<{ connection_id: string }>('POST', '/v1/connections', {
      token,
      body: { store_url: storeUrl },
    });
    expect(registered.status).toBe(201);
    const id = registered.body.connection_id;
    const deps = connector.current().deps;
    const credentials = { consumer_key: `ck_${'a'.repeat(40)}`, consumer_secret: `cs_${'b'.repeat(40)}` };
    await updateConnection(deps.db, id, {
      credentials_ciphertext: deps.sealer.seal(JSON.stringify(credentials), `store_connections:${id}:credentials`),
      key_exchange_hash: null,
      key_exchange_ciphertext: null,
      status: 'active',
    });
    return token;
  }

  const payFor = (connector: TestConnector, token: string, orderId = 12) =>
    connector.call('POST', `/v1/orders/${orderId}/payment`, {
      token,
      body: { return_url: 'https://shop.example/done', cancel_url: 'https://shop.example/cart' },
    });

  /** The store could not be reached, and nothing more. */
  function expectUnreachable(answer: ApiResponse): void {
    expect(answer.status).toBe(502);
    expect(answer.body).toEqual({
      error: 'platform_unavailable',
      message: STORE_UNREACHABLE_MESSAGE,
      request_id: answer.headers.get('x-request-id'),
    });
  }

  beforeAll(async () => {
    gw = await startTestGateway(dialect);
    merchant = await gw.merchant();
    listener = await startListener();
    guarded = await startTestConnector(dialect, gw, { allowPrivateStores: false, lookup });
    development = await startTestConnector(dialect, gw);
  }, 60_000);

  afterAll(async () => {
    await guarded?.close();
    await development?.close();
    listener?.server.closeAllConnections();
    await new Promise<void>((resolve) => (listener ? listener.server.close(() => resolve()) : resolve()));
    await gw?.close();
  });

  beforeEach(() => {
    listener.answer = 'ok';
  });

  it('refuses a store URL on a private address when the store is registered', async () => {
    const port = listener.port;
    const token = await newToken();
    for (const storeUrl of [
      `http://127.0.0.1:${port}`,
      `http://localhost:${port}`,
      'http://10.0.0.5',
      'http://192.168.1.10',
      'http://169.254.169.254',
      `http://[::1]:${port}`,
      `http://[::ffff:127.0.0.1]:${port}`,
      `http://[::ffff:0:127.0.0.1]:${port}`,
      `http://[64:ff9b:1::7f00:1]:${port}`,
      `http://2130706433:${port}`,
    ]) {
      const answer = await guarded.call('POST', '/v1/connections', { token, body: { store_url: storeUrl } });
      expect(answer.status, storeUrl).toBe(422);
      expect(answer.body.error).toBe('validation_failed');
      expect(answer.body.errors).toEqual({
        store_url: ['must be a public address of the store: loopback, private and link-local addresses are refused'],
      });
    }
    expect((await guarded.call('GET', '/v1/connection', { token })).body.error).toBe('connection_not_found');
    expect(listener.connections).toBe(0);
  });

  it('never calls a store whose name resolves to a private address, in any form', async () => {
    dns['shop.example'] = ['127.0.0.1'];
    const token = await connectStore(guarded, `http://shop.example:${listener.port}`);
    for (const address of PRIVATE_ANSWERS) {
      dns['shop.example'] = [address];
      resolved.length = 0;
      const answer = await payFor(guarded, token);
      expectUnreachable(answer);
      expect(answer.text).not.toContain(address);
      expect(resolved, address).toContain('shop.example');
    }
    dns['shop.example'] = ['127.0.0.1'];
    // Reading an order's payment back asks only the gateway (no store call while the plugin waits).
    const readBack = await guarded.call('GET', '/v1/orders/12/payment', { token });
    expect(readBack.status).toBe(200);
    expect(readBack.body).toMatchObject({ payment_uuid: null, status: null, paid: false });
    const reconciliation = await guarded.call('POST', '/v1/reconciliation', {
      token,
      body: { from: '2026-11-20T00:00:00Z', to: '2026-11-21T00:00:00Z' },
    });
    expectUnreachable(reconciliation);
    await guarded.runDueWork();
    expect(listener.connections).toBe(0);
    expect(listener.requests).toBe(0);
  });

  it('tells nothing of why a store could not be reached: closed port, error answer and hang-up read the same', async () => {
    const closed = await connectStore(development, `http://127.0.0.1:${await freePort()}`);
    const open = await connectStore(development, `http://127.0.0.1:${listener.port}`);
    const bodies: unknown[] = [];
    const withoutId = (answer: ApiResponse) => ({ ...answer.body, request_id: undefined });

    const refused = await payFor(development, closed);
    expectUnreachable(refused);
    bodies.push(withoutId(refused));
    for (const answer of ['error', 'hang-up'] as const) {
      listener.answer = answer;
      const failed = await payFor(development, open);
      expectUnreachable(failed);
      bodies.push(withoutId(failed));
    }
    expect(listener.requests).toBe(2);
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
    expect(JSON.stringify(bodies)).not.toMatch(/ECONN|127\.0\.0\.1|socket|hang up|500/i);
  });
});
