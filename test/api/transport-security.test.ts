/**
 * `Strict-Transport-Security` on every answer when the service is public over https (PUBLIC_URL
 * https): API successes and errors, checkout and docs pages, the SDK script, and the answers the
 * HTTP parser's refusals get; one year, without `includeSubDomains`. Over http it is never sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { paymentBody, startTestGateway, type TestGateway } from '../support/gateway.js';
import { exchange } from '../support/raw-http.js';

const HSTS = 'max-age=31536000';

/** One answer of each kind the service gives, with its headers. */
async function answersOf(t: TestGateway): Promise<Array<[string, string | null]>> {
  const { testKey } = await t.merchant();
  const created = await t.call('POST', '/api/v1/payments', { key: testKey, body: paymentBody() });
  expect(created.status, created.text).toBe(201);
  const checkoutPath = new URL(String(created.body.checkout_url)).pathname;
  const pages: Array<[string, Response]> = [];
  for (const path of [checkoutPath, '/checkout/unknown-link', '/docs/errors', '/docs/billing', '/sdk/v1/', '/health']) {
    pages.push([path, await fetch(`${t.url}${path}`)]);
  }
  const refused = await exchange(t.url, 'NOT HTTP\r\n\r\n');
  return [
    ['POST /api/v1/payments (201)', created.headers.get('strict-transport-security')],
    [
      'GET /api/v1/payments without a key (401)',
      (await t.call('GET', '/api/v1/payments')).headers.get('strict-transport-security'),
    ],
    ...pages.map(([path, res]): [string, string | null] => [
      `GET ${path} (${res.status})`,
      res.headers.get('strict-transport-security'),
    ]),
    ['a request the parser refuses (400)', refused.headers['strict-transport-security'] ?? null],
  ];
}

describe.each(DIALECTS)('Strict-Transport-Security on %s', (dialect) => {
  let https: TestGateway;
  let http: TestGateway;

  beforeAll(async () => {
    https = await startTestGateway(dialect, { env: { PUBLIC_URL: 'https://pay.example.am' } });
    http = await startTestGateway(dialect);
  });
  afterAll(async () => {
    await https?.close();
    await http?.close();
  });

  it('is on every answer when PUBLIC_URL is https: one year, this host only', async () => {
    for (const [answer, header] of await answersOf(https)) expect(header, answer).toBe(HSTS);
  });

  it('is never sent when PUBLIC_URL is http', async () => {
    for (const [answer, header] of await answersOf(http)) expect(header, answer).toBeNull();
  });
});
