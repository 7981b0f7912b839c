/**
 * Requests refused by Node's HTTP parser, sent over raw sockets to a real server: a malformed
 * request line, headers over 16 KiB, and requests sent too slowly (with timeouts shortened for the
 * test) answer a complete HTTP/1.1 response with the spec's error body, its `request_id` equal to
 * `X-Request-Id`, `Connection: close`, and the connection closed. The service's own timeouts are
 * bounded, the headers' within the request's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTTP_TIMEOUTS } from '../../gateway/runtime/http-timeouts.js';
import { DIALECTS } from '../support/databases.js';
import { PUBLIC_URL, startTestGateway, type TestGateway } from '../support/gateway.js';
import { exchange, type RawAnswer } from '../support/raw-http.js';

function expectErrorAnswer(answer: RawAnswer, status: number, code: string): void {
  expect(answer.status).toBe(status);
  expect(answer.rest).toBe('');
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.headers.connection).toBe('close');
  expect(answer.headers['cache-control']).toBe('no-store');
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(Object.keys(answer.body).sort()).toEqual(['docs_url', 'error', 'message', 'request_id']);
  expect(answer.body.error).toBe(code);
  expect(String(answer.body.message).length).toBeGreaterThan(0);
  expect(answer.headers['x-request-id']).toMatch(/^req_[A-Za-z0-9_-]{10,}$/);
  expect(answer.body.request_id).toBe(answer.headers['x-request-id']);
  expect(answer.body.docs_url).toBe(`${PUBLIC_URL}/docs/errors#${code}`);
}

describe('the service HTTP timeouts', () => {
  it('bound a request, the headers within the request, each checked every second', () => {
    expect(HTTP_TIMEOUTS.headersMs).toBeLessThanOrEqual(HTTP_TIMEOUTS.requestMs);
    expect(HTTP_TIMEOUTS.requestMs + HTTP_TIMEOUTS.checkIntervalMs).toBeLessThanOrEqual(30_000);
    expect(HTTP_TIMEOUTS.checkIntervalMs).toBeLessThanOrEqual(1_000);
  });
});

describe.each(DIALECTS)('requests the HTTP parser refuses, on %s', (dialect) => {
  let t: TestGateway;
  let short: TestGateway;

  beforeAll(async () => {
    t = await startTestGateway(dialect);
    short = await startTestGateway(dialect, {
      httpTimeouts: { headersMs: 400, requestMs: 800, checkIntervalMs: 100, keepAliveMs: 5_000 },
    });
  });
  afterAll(async () => {
    await t?.close();
    await short?.close();
  });

  it('a server started with the service timeouts applies them', () => {
    expect(t.gateway.server.headersTimeout).toBe(HTTP_TIMEOUTS.headersMs);
    expect(t.gateway.server.requestTimeout).toBe(HTTP_TIMEOUTS.requestMs);
    expect(t.gateway.server.keepAliveTimeout).toBe(HTTP_TIMEOUTS.keepAliveMs);
  });

  it('a malformed request line: 400 malformed_request with the error body, then the connection closes', async () => {
    const answer = await exchange(t.url, 'GET /api/v1/payments HTTP/1.1 extra\r\nHost: x\r\n\r\n');
    expectErrorAnswer(answer, 400, 'malformed_request');
  });

  it('a malformed header: 400 malformed_request', async () => {
    const answer = await exchange(t.url, 'GET /health HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n');
    expectErrorAnswer(answer, 400, 'malformed_request');
  });

  it('headers over 16 KiB: 431 headers_too_large, the answer read in full', async () => {
    const answer = await exchange(t.url, `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`);
    expectErrorAnswer(answer, 431, 'headers_too_large');
  });

  it('each refusal has its own request id', async () => {
    const [first, second] = await Promise.all([
      exchange(t.url, 'NOT HTTP\r\n\r\n'),
      exchange(t.url, 'NOT HTTP\r\n\r\n'),
    ]);
    expect(first?.body.request_id).not.toBe(second?.body.request_id);
  });

  it('headers dribbled past the headers timeout: 408 request_timeout, and the connection is closed', async () => {
    const answer = await exchange(short.url, 'GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ', {
      text: 'abc',
      everyMs: 50,
    });
    expectErrorAnswer(answer, 408, 'request_timeout');
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(400);
    expect(answer.closedAfterMs).toBeLessThan(2_500);
    // A request sent in time is served as usual.
    expect((await fetch(`${short.url}/health`)).status).toBe(200);
  });

  it('a body sent too slowly, past the request timeout: 408 request_timeout', async () => {
    const { testKey } = await short.merchant();
    const answer = await exchange(
      short.url,
      `POST /api/v1/payments HTTP/1.1\r\nHost: x\r\nX-Service-Key: ${testKey}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
      { text: ' ', everyMs: 50 },
    );
    expectErrorAnswer(answer, 408, 'request_timeout');
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(800);
    expect(answer.closedAfterMs).toBeLessThan(3_000);
  });

  it('a request already answered (401 before its body) that then times out gets no second answer', async () => {
    const answer = await exchange(
      short.url,
      'POST /api/v1/payments HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
      { text: ' ', everyMs: 50 },
    );
    expect(answer.status).toBe(401);
    expect(answer.body.error).toBe('missing_credentials');
    expect(answer.rest).toBe('');
    expect(answer.closedAfterMs).toBeLessThan(3_000);
  });
});
