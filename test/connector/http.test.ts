/**
 * The connector's HTTP shell, over real HTTP: every answer (errors and unknown routes included)
 * carries a request id and `X-Content-Type-Options: nosniff`, every error body quotes the request id,
 * a body that is not JSON is refused with 415 (a plugin route without a token with 401 first), the connector listens on 127.0.0.1 unless told
 * otherwise, and slow clients are held to the gateway's HTTP timeouts. None of these needs the gateway, so it is configured at an address nobody listens on.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConnectorConfig } from '../../connector/config.js';
import { type Connector, startConnector } from '../../connector/runtime/start.js';
import { ManualClock } from '../../gateway/domain/clock.js';
import { HTTP_TIMEOUTS } from '../../gateway/runtime/http-timeouts.js';
import { createLogger } from '../../gateway/runtime/logger.js';
import { CONNECTOR_SECRET } from '../support/connector.js';
import { DIALECTS, freshDatabase, type TestDatabase } from '../support/databases.js';
import { type ApiResponse, requestJson } from '../support/http.js';
import { freePort } from '../support/ports.js';

describe.each(DIALECTS)('connector HTTP (%s)', (dialect) => {
  let database: TestDatabase;
  let connector: Connector;

  beforeAll(async () => {
    database = await freshDatabase(dialect, 'connector');
    // No CONNECTOR_HOST: the default applies.
    const config = loadConnectorConfig({
      CONNECTOR_PORT: '0',
      CONNECTOR_DATABASE_URL: database.url,
      GATEWAY_URL: `http://127.0.0.1:${await freePort()}`,
      GATEWAY_SECRET: CONNECTOR_SECRET,
      CONNECTOR_JOB_INTERVAL_SECONDS: '0',
      LOG_LEVEL: 'silent',
    });
    connector = await startConnector({
      config,
      clock: new ManualClock(Date.UTC(2026, 10, 21)),
      logger: createLogger('silent'),
    });
  });

  afterAll(async () => {
    await connector?.close();
    await database?.drop();
  });

  const call = <T = Record<string, unknown>>(
    method: string,
    path: string,
    options: Parameters<typeof requestJson>[2] = {},
  ) => requestJson<T>(method, `${connector.url}${path}`, options);

  function expectIdentified(answer: ApiResponse): string {
    const id = answer.headers.get('x-request-id') ?? '';
    expect(id).toMatch(/^req_[A-Za-z0-9_-]+$/);
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    if (answer.status >= 400) expect(answer.body.request_id).toBe(id);
    return id;
  }

  it('holds clients to the same HTTP timeouts as the gateway', () => {
    expect(connector.server.headersTimeout).toBe(HTTP_TIMEOUTS.headersMs);
    expect(connector.server.requestTimeout).toBe(HTTP_TIMEOUTS.requestMs);
    expect(connector.server.keepAliveTimeout).toBe(HTTP_TIMEOUTS.keepAliveMs);
  });

  it('listens on 127.0.0.1 when CONNECTOR_HOST is not set', () => {
    expect((connector.server.address() as AddressInfo).address).toBe('127.0.0.1');
    expect(loadConnectorConfig({}).host).toBe('127.0.0.1');
    expect(loadConnectorConfig({ CONNECTOR_HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });

  it('identifies every answer, and quotes the id in every error body', async () => {
    const answers = [
      await call('GET', '/health'),
      await call('GET', '/no/such/route'),
      await call('PUT', '/v1/connection'),
      await call('GET', '/v1/connection'),
      await call('POST', '/v1/connections', { rawBody: 'store_url=x', headers: { 'Content-Type': 'text/plain' } }),
      await call('POST', '/v1/orders/12/payment', { body: {}, headers: { 'X-Service-Connect': ' ' } }),
      await call('POST', '/v1/webhooks/gateway/00000000-0000-4000-8000-000000000000', { body: {} }),
    ];
    // A plugin route checks the token before it reads the body: no token is 401 whatever the body is.
    expect(answers.map((a) => a.status)).toEqual([200, 404, 404, 401, 401, 401, 404]);
    expect(answers[6]?.body).toMatchObject({ error: 'connection_not_found' });
    const ids = answers.map(expectIdentified);
    expect(new Set(ids).size).toBe(ids.length);
    for (const answer of answers.slice(1)) {
      expect(Object.keys(answer.body).slice(0, 3)).toEqual(['error', 'message', 'request_id']);
    }
  });

  it('refuses a body that is not JSON with 415, and still reads JSON with a charset or no body at all', async () => {
    const notJson = [
      ['text/plain', '{"store_url": "https://shop.example"}'],
      ['application/x-www-form-urlencoded', 'store_url=https%3A%2F%2Fshop.example'],
      ['multipart/form-data; boundary=x', '--x--'],
    ];
    for (const [contentType = '', rawBody] of notJson) {
      const answer = await call('POST', '/woocommerce/auth/callback', {
        rawBody,
        headers: { 'Content-Type': contentType },
      });
      expect(answer.status, `${contentType}`).toBe(415);
      expect(answer.body).toMatchObject({ error: 'unsupported_media_type' });
      expectIdentified(answer);
      // A plugin route without a token is refused for that first, its body unread.
      const tokenless = await call('POST', '/v1/connections', { rawBody, headers: { 'Content-Type': contentType } });
      expect(tokenless.status, `${contentType} to /v1/connections`).toBe(401);
      expect(tokenless.body).toMatchObject({ error: 'invalid_connect_token' });
    }
    const charset = await call('POST', '/woocommerce/auth/callback', {
      rawBody: '{"key_id": 1}',
      headers: { 'Content-Type': 'application/json;charset=UTF-8' },
    });
    expect(charset.status).toBe(400);
    expect(charset.body.error).toBe('invalid_key_delivery');
    const empty = await call('POST', '/woocommerce/auth/callback');
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe('invalid_key_delivery');
  });
});
