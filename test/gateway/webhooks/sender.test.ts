/**
 * The webhook sender against a real local receiver (spec "Delivery rules" 2–3): what counts as
 * delivered, the answer wait, redirects never followed, and private addresses refused on the
 * address actually connected to, whatever the URL's host name says.
 */
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookSender, type WebhookSender } from '../../../gateway/webhooks/sender.js';
import { freePort } from '../../support/ports.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';

/** Name resolution as a DNS server would answer it; `calls` counts the lookups made. */
function fakeResolver(names: Record<string, string[]>) {
  const calls: string[] = [];
  const lookup: LookupFunction = (hostname, options, callback) => {
    calls.push(hostname);
    const addresses: LookupAddress[] = (names[hostname] ?? []).map((address) => ({
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
  return { lookup, calls };
}

const BODY = JSON.stringify({ delivery_id: 'd-1', event: 'transaction.status.updated' });
const HEADERS = { 'X-Service-Signature': 'abc' };

describe('webhook sender', () => {
  let receiver: WebhookReceiver;
  let port: string;
  const senders: WebhookSender[] = [];
  const sender = (options: Parameters<typeof createWebhookSender>[0]) => {
    const created = createWebhookSender(options);
    senders.push(created);
    return created;
  };

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    port = new URL(receiver.url).port;
  });
  afterEach(() => {
    receiver.replyWith({ status: 200 });
    receiver.received.length = 0;
  });
  afterAll(async () => {
    for (const s of senders) s.close();
    await receiver.close();
  });

  describe('with private addresses allowed (development)', () => {
    it('posts the body as JSON with the given headers, byte for byte, and counts a 2xx as delivered', async () => {
      const s = sender({ allowPrivate: true });
      receiver.replyWith({ status: 204 });
      const outcome = await s.send(`${receiver.url}/hooks/gateway?shop=1`, BODY, HEADERS);
      expect(outcome).toEqual({ delivered: true, statusCode: 204 });
      const [request] = receiver.received;
      expect(request?.path).toBe('/hooks/gateway?shop=1');
      expect(request?.raw.toString('utf8')).toBe(BODY);
      expect(request?.headers['content-type']).toBe('application/json');
      expect(request?.headers['x-service-signature']).toBe('abc');
    });

    it('counts a 500 as a failure with its status', async () => {
      const s = sender({ allowPrivate: true });
      receiver.replyWith({ status: 500 });
      expect(await s.send(receiver.url, BODY, HEADERS)).toEqual({
        delivered: false,
        statusCode: 500,
        error: 'HTTP 500',
      });
    });

    it('never follows a redirect: a 302 is a failure and the Location is not requested', async () => {
      const s = sender({ allowPrivate: true });
      receiver.replyWith((request) =>
        request.path === '/moved' ? { status: 200 } : { status: 302, headers: { Location: `${receiver.url}/moved` } },
      );
      const outcome = await s.send(`${receiver.url}/old`, BODY, HEADERS);
      expect(outcome).toEqual({
        delivered: false,
        statusCode: 302,
        error: `redirect (302 to ${receiver.url}/moved) not followed`,
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(receiver.received.map((r) => r.path)).toEqual(['/old']);
    });

    it('reports a redirect location with its credentials and query values hidden', async () => {
      const s = sender({ allowPrivate: true });
      receiver.replyWith({ status: 301, headers: { Location: '/login?session=sess-s3cret&next=%2Fhooks' } });
      const outcome = await s.send(`${receiver.url}/old`, BODY, HEADERS);
      expect(outcome).toEqual({
        delivered: false,
        statusCode: 301,
        error: `redirect (301 to ${receiver.url}/login?session=***&next=***) not followed`,
      });
    });

    it('waits for a slow answer that comes within the wait', async () => {
      const s = sender({ allowPrivate: true, timeoutMs: 1_000 });
      receiver.replyWith({ status: 200, delayMs: 300 });
      expect(await s.send(receiver.url, BODY, HEADERS)).toEqual({ delivered: true, statusCode: 200 });
    });

    it('gives up on a receiver that never answers', async () => {
      const s = sender({ allowPrivate: true, timeoutMs: 300 });
      receiver.replyWith({ hang: true });
      const started = performance.now();
      const outcome = await s.send(receiver.url, BODY, HEADERS);
      expect(outcome).toEqual({ delivered: false, statusCode: null, error: 'no answer within 0.3 s' });
      expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    });

    it('reports a receiver that hangs up, and a port nobody listens on', async () => {
      const s = sender({ allowPrivate: true });
      receiver.replyWith({ hangUp: true });
      const hungUp = await s.send(receiver.url, BODY, HEADERS);
      expect(hungUp.delivered).toBe(false);
      expect(hungUp.statusCode).toBeNull();
      const closed = await s.send(`http://127.0.0.1:${await freePort()}/`, BODY, HEADERS);
      expect(closed).toEqual({ delivered: false, statusCode: null, error: 'connection refused' });
    });

    it('refuses URLs that are not http(s)', async () => {
      const s = sender({ allowPrivate: true });
      expect(await s.send('ftp://127.0.0.1/x', BODY, HEADERS)).toEqual({
        delivered: false,
        statusCode: null,
        error: 'unsupported scheme ftp:',
      });
      expect((await s.send('not a url', BODY, HEADERS)).delivered).toBe(false);
    });

    it('resolves names through the given lookup and connects to what it answered', async () => {
      const resolver = fakeResolver({ 'shop.example': ['127.0.0.1'] });
      const s = sender({ allowPrivate: true, lookup: resolver.lookup });
      expect(await s.send(`http://shop.example:${port}/hook`, BODY, HEADERS)).toEqual({
        delivered: true,
        statusCode: 200,
      });
      expect(resolver.calls).toContain('shop.example');
      expect(receiver.received[0]?.headers.host).toBe(`shop.example:${port}`);
    });
  });

  describe('in production (private addresses refused)', () => {
    it('refuses an IP literal in a private range without connecting', async () => {
      const s = sender({ allowPrivate: false });
      expect(await s.send(`${receiver.url}/hook`, BODY, HEADERS)).toEqual({
        delivered: false,
        statusCode: null,
        error: 'refused: 127.0.0.1 is a private address',
      });
      expect(await s.send(`http://[::1]:${port}/hook`, BODY, HEADERS)).toEqual({
        delivered: false,
        statusCode: null,
        error: 'refused: ::1 is a private address',
      });
      expect(await s.send(`http://169.254.169.254/latest/meta-data`, BODY, HEADERS)).toMatchObject({
        delivered: false,
        error: 'refused: 169.254.169.254 is a private address',
      });
      expect(receiver.received).toHaveLength(0);
    });

    it('refuses localhost, which resolves to loopback', async () => {
      const s = sender({ allowPrivate: false });
      const outcome = await s.send(`http://localhost:${port}/hook`, BODY, HEADERS);
      expect(outcome.delivered).toBe(false);
      expect(outcome.delivered === false && outcome.error).toMatch(/^refused: localhost resolves to a private address/);
      expect(receiver.received).toHaveLength(0);
    });

    it('refuses a public-looking name whose DNS answer is 127.0.0.1 (rebinding)', async () => {
      const resolver = fakeResolver({ 'hooks.shop.example': ['127.0.0.1'] });
      const s = sender({ allowPrivate: false, lookup: resolver.lookup });
      const outcome = await s.send(`http://hooks.shop.example:${port}/hook`, BODY, HEADERS);
      expect(outcome).toEqual({
        delivered: false,
        statusCode: null,
        error: 'refused: hooks.shop.example resolves to a private address (127.0.0.1)',
      });
      expect(resolver.calls).toEqual(['hooks.shop.example']);
      expect(receiver.received).toHaveLength(0);
    });

    it('refuses IPv4-mapped and private IPv6 answers too', async () => {
      const resolver = fakeResolver({ 'v6.shop.example': ['::ffff:127.0.0.1', 'fd00::1'] });
      const s = sender({ allowPrivate: false, lookup: resolver.lookup });
      const outcome = await s.send(`http://v6.shop.example:${port}/hook`, BODY, HEADERS);
      expect(outcome.delivered === false && outcome.error).toBe(
        'refused: v6.shop.example resolves to a private address (::ffff:127.0.0.1, fd00::1)',
      );
    });

    it('reports a name that does not resolve', async () => {
      const s = sender({ allowPrivate: false, lookup: fakeResolver({}).lookup });
      expect(await s.send('http://nowhere.example/hook', BODY, HEADERS)).toEqual({
        delivered: false,
        statusCode: null,
        error: 'host name not found',
      });
    });
  });

  it('waits the spec’s 10 seconds by default, then gives up', { timeout: 20_000 }, async () => {
    const s = sender({ allowPrivate: true });
    receiver.replyWith({ status: 200, delayMs: 10_800 });
    const started = performance.now();
    const outcome = await s.send(receiver.url, BODY, HEADERS);
    const waited = performance.now() - started;
    expect(outcome).toEqual({ delivered: false, statusCode: null, error: 'no answer within 10 s' });
    expect(waited).toBeGreaterThanOrEqual(9_900);
    expect(waited).toBeLessThan(10_700);
  });
});
