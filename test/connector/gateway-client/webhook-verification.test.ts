/**
 * The receiver-side webhook verification helper (spec "Authentication" 8, "Webhook delivery body",
 * "Delivery rules" 6). Expected signatures are computed here with node:crypto directly, never with the
 * module under test, so a wrong HMAC input or key in the module cannot agree with itself.
 */
import * as nodeCrypto from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type VerificationResult,
  verifyStandardWebhook,
  verifyWebhook,
} from '../../../connector/gateway-client/index.js';
import { authorizedDelivery } from '../../../gateway/api/openapi/examples/holds.js';

/** Counts the module's constant-time comparisons; the real function still answers. */
const comparisons = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  const timingSafeEqual: typeof actual.timingSafeEqual = (a, b) => {
    comparisons.count += 1;
    return actual.timingSafeEqual(a, b);
  };
  return { ...actual, default: { ...actual, timingSafeEqual }, timingSafeEqual };
});

const { createHmac } = nodeCrypto;

const CURRENT = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const NEXT = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD';
const OTHER = 'whsec_3q2+7wAAAAAAAAAAAAAAAAAAAAAAAAAA';
const NOW = 1_780_000_000;

/** Lower-case hex HMAC-SHA256 of the bytes, keyed with the secret string as UTF-8. */
function serviceSignature(secret: string, body: string | Uint8Array): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex');
}

/** Standard Webhooks: base64 HMAC-SHA256 of `${id}.${timestamp}.${body}` under the decoded secret. */
function standardSignature(secret: string, id: string, timestamp: number | string, body: string | Uint8Array): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64');
}

function statusEvent(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    delivery_id: 'dlv_0192b7c4-5d3e-7aa1-9f00-1c2d3e4f5a6b',
    event: 'transaction.status.updated',
    livemode: false,
    timestamp: NOW,
    transaction: {
      uuid: '0192b7c4-0000-7000-8000-000000000001',
      order_id: 'order-1001',
      status: 'completed',
      amount: 15000,
      refunded_amount: 0,
      currency: 'AMD',
      processor: 'sandbox',
      completed_at: '2026-05-28T20:26:40+04:00',
      created_at: '2026-05-28T20:20:00+04:00',
      failure_code: null,
    },
    refund: null,
    receipt: null,
    ...overrides,
  };
}

function refundEvent(reason: string | null = 'customer request'): Record<string, unknown> {
  const base = statusEvent({ event: 'payment.refunded' });
  return {
    ...base,
    transaction: { ...(base.transaction as object), status: 'refunded', refunded_amount: 15000 },
    refund: { uuid: '0192b7c4-0000-7000-8000-0000000000aa', amount: 15000, reason },
  };
}

const BODY = JSON.stringify(statusEvent());

function expectOk(result: VerificationResult) {
  if (!result.ok) throw new Error(`expected success, got ${result.reason}: ${result.message}`);
  return result;
}

function expectReason(result: VerificationResult, reason: string): void {
  expect(result.ok).toBe(false);
  if (!result.ok) {
    expect(result.reason).toBe(reason);
    expect(result.message).not.toBe('');
  }
}

beforeEach(() => {
  comparisons.count = 0;
});

describe('verifyWebhook: success', () => {
  it('accepts X-Service-Signature under the current secret and answers the typed event', () => {
    const result = expectOk(
      verifyWebhook({
        rawBody: BODY,
        headers: { 'x-service-signature': serviceSignature(CURRENT, BODY) },
        secrets: CURRENT,
      }),
    );
    expect(result.secretIndex).toBe(0);
    expect(result.header).toBe('x-service-signature');
    expect(result.event).toEqual(statusEvent());
    expect(result.event.event).toBe('transaction.status.updated');
    expect(result.event.transaction.order_id).toBe('order-1001');
    expect(result.event.refund).toBeNull();
  });

  it('accepts X-Service-Signature-Next when the receiver already knows only the new secret', () => {
    const result = expectOk(
      verifyWebhook({
        rawBody: BODY,
        headers: {
          'x-service-signature': serviceSignature(CURRENT, BODY),
          'x-service-signature-next': serviceSignature(NEXT, BODY),
        },
        secrets: [NEXT],
      }),
    );
    expect(result.header).toBe('x-service-signature-next');
    expect(result.secretIndex).toBe(0);
  });

  it('accepts when the receiver knows both secrets, reporting which one matched', () => {
    const both = {
      'x-service-signature': serviceSignature(CURRENT, BODY),
      'x-service-signature-next': serviceSignature(NEXT, BODY),
    };
    const viaCurrent = expectOk(verifyWebhook({ rawBody: BODY, headers: both, secrets: [CURRENT, NEXT] }));
    expect(viaCurrent.secretIndex).toBe(0);
    expect(viaCurrent.header).toBe('x-service-signature');

    // After the rotation the gateway signs X-Service-Signature with the new secret alone.
    const afterRotation = { 'x-service-signature': serviceSignature(NEXT, BODY) };
    const viaNext = expectOk(verifyWebhook({ rawBody: BODY, headers: afterRotation, secrets: [CURRENT, NEXT] }));
    expect(viaNext.secretIndex).toBe(1);
    expect(viaNext.header).toBe('x-service-signature');
  });

  it('ignores empty entries in the secret list but reports indexes into the list given', () => {
    const result = expectOk(
      verifyWebhook({
        rawBody: BODY,
        headers: { 'x-service-signature': serviceSignature(NEXT, BODY) },
        secrets: ['', NEXT],
      }),
    );
    expect(result.secretIndex).toBe(1);
  });

  it('answers payment.refunded with its refund object', () => {
    const body = JSON.stringify(refundEvent());
    const result = expectOk(
      verifyWebhook({
        rawBody: body,
        headers: { 'x-service-signature': serviceSignature(CURRENT, body) },
        secrets: CURRENT,
      }),
    );
    expect(result.event.event).toBe('payment.refunded');
    expect(result.event.refund).toEqual({
      uuid: '0192b7c4-0000-7000-8000-0000000000aa',
      amount: 15000,
      reason: 'customer request',
    });
  });

  it("answers payment.authorized as the gateway's document shows it, the hold on its transaction", () => {
    const body = JSON.stringify(authorizedDelivery);
    const result = expectOk(
      verifyWebhook({
        rawBody: body,
        headers: { 'x-service-signature': serviceSignature(CURRENT, body) },
        secrets: CURRENT,
      }),
    );
    expect(result.event.event).toBe('payment.authorized');
    expect(result.event.refund).toBeNull();
    expect(result.event.transaction).toMatchObject({
      status: 'authorized',
      capture_method: 'manual',
      authorized_amount: authorizedDelivery.transaction.authorized_amount,
    });
  });

  it('keeps keys the gateway adds later on the parsed event', () => {
    const body = JSON.stringify(statusEvent({ some_future_key: { nested: true } }));
    const result = expectOk(
      verifyWebhook({
        rawBody: body,
        headers: { 'x-service-signature': serviceSignature(CURRENT, body) },
        secrets: CURRENT,
      }),
    );
    expect((result.event as unknown as Record<string, unknown>).some_future_key).toEqual({ nested: true });
  });
});

describe('verifyWebhook: raw bytes', () => {
  it('verifies a Buffer, a plain Uint8Array and a string of the same body', () => {
    const headers = { 'x-service-signature': serviceSignature(CURRENT, BODY) };
    const bytes = Buffer.from(BODY, 'utf8');
    for (const rawBody of [bytes, new Uint8Array(bytes), BODY]) {
      expect(expectOk(verifyWebhook({ rawBody, headers, secrets: CURRENT })).event.delivery_id).toBe(
        'dlv_0192b7c4-5d3e-7aa1-9f00-1c2d3e4f5a6b',
      );
    }
  });

  it('refuses the same data re-serialised (other whitespace, other key order): the bytes are signed', () => {
    const headers = { 'x-service-signature': serviceSignature(CURRENT, BODY) };
    const pretty = JSON.stringify(JSON.parse(BODY), null, 2);
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(BODY)).reverse()));
    for (const rawBody of [pretty, reordered]) {
      expect(JSON.parse(rawBody)).toEqual(JSON.parse(BODY));
      expect(rawBody).not.toBe(BODY);
      expectReason(verifyWebhook({ rawBody, headers, secrets: CURRENT }), 'signature_mismatch');
    }
    expect(verifyWebhook({ rawBody: BODY, headers, secrets: CURRENT }).ok).toBe(true);
  });

  it('verifies a non-ASCII refund reason from the bytes, and refuses the bytes decoded wrongly', () => {
    const bytes = Buffer.from(JSON.stringify(refundEvent('Վերադարձ')), 'utf8');
    const headers = { 'X-Service-Signature': serviceSignature(CURRENT, bytes) };
    const result = expectOk(verifyWebhook({ rawBody: bytes, headers, secrets: CURRENT }));
    expect(result.event.refund?.reason).toBe('Վերադարձ');
    expect(
      expectOk(verifyWebhook({ rawBody: bytes.toString('utf8'), headers, secrets: CURRENT })).event.refund?.reason,
    ).toBe('Վերադարձ');
    expectReason(verifyWebhook({ rawBody: bytes.toString('latin1'), headers, secrets: CURRENT }), 'signature_mismatch');
  });
});

describe('verifyWebhook: header forms', () => {
  const signature = serviceSignature(CURRENT, BODY);

  it('finds the header in mixed case in a plain object', () => {
    const result = expectOk(
      verifyWebhook({ rawBody: BODY, headers: { 'X-SERVICE-Signature': signature }, secrets: CURRENT }),
    );
    expect(result.header).toBe('x-service-signature');
    const next = expectOk(
      verifyWebhook({
        rawBody: BODY,
        headers: { 'X-Service-Signature-NEXT': serviceSignature(NEXT, BODY) },
        secrets: NEXT,
      }),
    );
    expect(next.header).toBe('x-service-signature-next');
  });

  it('reads a fetch Headers object', () => {
    const headers = new Headers({ 'X-Service-Signature': signature, 'Content-Type': 'application/json' });
    expect(expectOk(verifyWebhook({ rawBody: BODY, headers, secrets: CURRENT })).header).toBe('x-service-signature');
    expectReason(
      verifyWebhook({
        rawBody: BODY,
        headers: new Headers({ 'X-Service-Signature': 'f'.repeat(64) }),
        secrets: CURRENT,
      }),
      'signature_mismatch',
    );
  });

  it('reads array values, matching any element', () => {
    expect(verifyWebhook({ rawBody: BODY, headers: { 'x-service-signature': [signature] }, secrets: CURRENT }).ok).toBe(
      true,
    );
    expect(
      verifyWebhook({
        rawBody: BODY,
        headers: { 'x-service-signature': ['0'.repeat(64), signature] },
        secrets: CURRENT,
      }).ok,
    ).toBe(true);
    expectReason(
      verifyWebhook({ rawBody: BODY, headers: { 'x-service-signature': ['0'.repeat(64)] }, secrets: CURRENT }),
      'signature_mismatch',
    );
  });

  it('reads a repeated header joined with ", " (how Node and Headers combine them)', () => {
    const joined = `${'0'.repeat(64)}, ${signature}`;
    expect(verifyWebhook({ rawBody: BODY, headers: { 'x-service-signature': joined }, secrets: CURRENT }).ok).toBe(
      true,
    );
  });

  it('accepts upper-case hex (compared as bytes), and still refuses a wrong upper-case signature', () => {
    expect(
      verifyWebhook({ rawBody: BODY, headers: { 'x-service-signature': signature.toUpperCase() }, secrets: CURRENT })
        .ok,
    ).toBe(true);
    expectReason(
      verifyWebhook({
        rawBody: BODY,
        headers: { 'x-service-signature': serviceSignature(OTHER, BODY).toUpperCase() },
        secrets: CURRENT,
      }),
      'signature_mismatch',
    );
  });
});

describe('verifyWebhook: one failure per reason', () => {
  const headers = { 'x-service-signature': serviceSignature(CURRENT, BODY) };

  it.each([
    ['an empty string', ''],
    ['an empty list', []],
    ['a list of empty strings', ['', '']],
  ])('no_secret: %s', (_name, secrets) => {
    expectReason(verifyWebhook({ rawBody: BODY, headers, secrets }), 'no_secret');
  });

  it.each([
    ['an already-parsed body', JSON.parse(BODY)],
    ['undefined', undefined],
    ['null', null],
    ['a number', 42],
    ['an ArrayBuffer', new ArrayBuffer(8)],
  ])('body_not_raw: %s', (_name, rawBody) => {
    expectReason(verifyWebhook({ rawBody: rawBody as unknown as string, headers, secrets: CURRENT }), 'body_not_raw');
  });

  it('missing_signature: no signature header, or only blank ones', () => {
    expectReason(
      verifyWebhook({ rawBody: BODY, headers: { 'content-type': 'application/json' }, secrets: CURRENT }),
      'missing_signature',
    );
    expectReason(verifyWebhook({ rawBody: BODY, headers: new Headers(), secrets: CURRENT }), 'missing_signature');
    expectReason(
      verifyWebhook({
        rawBody: BODY,
        headers: { 'x-service-signature': ' ', 'x-service-signature-next': undefined },
        secrets: CURRENT,
      }),
      'missing_signature',
    );
  });

  it.each([
    ['too short', 'abc123'],
    ['63 characters', serviceSignature(CURRENT, BODY).slice(1)],
    ['65 characters', `${serviceSignature(CURRENT, BODY)}0`],
    ['not hex', 'z'.repeat(64)],
    ['a sha256= prefix', `sha256=${serviceSignature(CURRENT, BODY)}`],
    ['base64', createHmac('sha256', CURRENT).update(BODY).digest('base64')],
  ])('malformed_signature: %s', (_name, value) => {
    expectReason(
      verifyWebhook({ rawBody: BODY, headers: { 'x-service-signature': value }, secrets: CURRENT }),
      'malformed_signature',
    );
  });

  it('malformed_signature: more signatures than the limit', () => {
    const many = Array.from({ length: 9 }, () => serviceSignature(CURRENT, BODY));
    expectReason(
      verifyWebhook({ rawBody: BODY, headers: { 'x-service-signature': many }, secrets: CURRENT }),
      'malformed_signature',
    );
  });

  it('signature_mismatch: a secret the gateway did not sign with, and a tampered body', () => {
    expectReason(verifyWebhook({ rawBody: BODY, headers, secrets: [OTHER, NEXT] }), 'signature_mismatch');
    const tampered = BODY.replace('"amount":15000', '"amount":15');
    expect(tampered).not.toBe(BODY);
    expectReason(verifyWebhook({ rawBody: tampered, headers, secrets: CURRENT }), 'signature_mismatch');
  });

  it('invalid_json: a correctly signed body that is not JSON, or not UTF-8', () => {
    const text = 'delivery_id=1&event=payment.refunded';
    expectReason(
      verifyWebhook({
        rawBody: text,
        headers: { 'x-service-signature': serviceSignature(CURRENT, text) },
        secrets: CURRENT,
      }),
      'invalid_json',
    );
    const notUtf8 = Buffer.concat([Buffer.from('{"delivery_id":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    expectReason(
      verifyWebhook({
        rawBody: notUtf8,
        headers: { 'x-service-signature': serviceSignature(CURRENT, notUtf8) },
        secrets: CURRENT,
      }),
      'invalid_json',
    );
  });

  const { delivery_id: _d, ...withoutDeliveryId } = statusEvent();
  const { event: _e, ...withoutEvent } = statusEvent();
  const { transaction: _t, ...withoutTransaction } = statusEvent();
  it.each([
    ['an array', [statusEvent()]],
    ['a string', 'transaction.status.updated'],
    ['no delivery_id', withoutDeliveryId],
    ['no event', withoutEvent],
    ['no transaction', withoutTransaction],
    [
      'transaction.order_id not a string',
      statusEvent({ transaction: { ...(statusEvent().transaction as object), order_id: 7 } }),
    ],
    ['timestamp not a number', statusEvent({ timestamp: '1780000000' })],
    ['payment.refunded without refund', statusEvent({ event: 'payment.refunded' })],
    ['transaction.status.updated with a refund', { ...refundEvent(), event: 'transaction.status.updated' }],
    ['payment.authorized with a refund', { ...refundEvent(), event: 'payment.authorized' }],
  ])('not_a_webhook: %s', (_name, value) => {
    const body = JSON.stringify(value);
    expectReason(
      verifyWebhook({
        rawBody: body,
        headers: { 'x-service-signature': serviceSignature(CURRENT, body) },
        secrets: CURRENT,
      }),
      'not_a_webhook',
    );
  });

  it('unsupported_event: an authentic delivery of an event name this client does not know', () => {
    const body = JSON.stringify(statusEvent({ event: 'payment.disputed' }));
    expectReason(
      verifyWebhook({
        rawBody: body,
        headers: { 'x-service-signature': serviceSignature(CURRENT, body) },
        secrets: CURRENT,
      }),
      'unsupported_event',
    );
  });

  it('stale_timestamp: only with toleranceSeconds, in both directions, and only beyond it', () => {
    const verify = (toleranceSeconds: number | undefined, nowSeconds: number) =>
      verifyWebhook({ rawBody: BODY, headers, secrets: CURRENT, toleranceSeconds, nowSeconds });
    expectReason(verify(300, NOW + 301), 'stale_timestamp');
    expectReason(verify(300, NOW - 301), 'stale_timestamp');
    expect(verify(300, NOW + 300).ok).toBe(true);
    expect(verify(300, NOW - 300).ok).toBe(true);
    expect(verify(undefined, NOW + 86_400).ok).toBe(true);
  });

  it('stale_timestamp: uses the system clock when nowSeconds is not given', () => {
    // NOW lies in 2026; a body signed at 1_000_000_000 (2001) is stale against any present clock.
    const old = JSON.stringify(statusEvent({ timestamp: 1_000_000_000 }));
    const oldHeaders = { 'x-service-signature': serviceSignature(CURRENT, old) };
    expectReason(
      verifyWebhook({ rawBody: old, headers: oldHeaders, secrets: CURRENT, toleranceSeconds: 3600 }),
      'stale_timestamp',
    );
    const fresh = JSON.stringify(statusEvent({ timestamp: Math.floor(Date.now() / 1000) }));
    const freshHeaders = { 'x-service-signature': serviceSignature(CURRENT, fresh) };
    expect(verifyWebhook({ rawBody: fresh, headers: freshHeaders, secrets: CURRENT, toleranceSeconds: 3600 }).ok).toBe(
      true,
    );
  });

  it('throws on a nonsensical tolerance (a programming error, not a bad request)', () => {
    expect(() => verifyWebhook({ rawBody: BODY, headers, secrets: CURRENT, toleranceSeconds: -1 })).toThrow(RangeError);
    expect(() => verifyWebhook({ rawBody: BODY, headers, secrets: CURRENT, toleranceSeconds: Number.NaN })).toThrow(
      RangeError,
    );
  });

  it('checks the signature before the body: a forged non-JSON body is a mismatch, not invalid_json', () => {
    expectReason(verifyWebhook({ rawBody: 'not json', headers, secrets: CURRENT }), 'signature_mismatch');
  });
});

describe('verifyWebhook: constant-time comparison', () => {
  it('compares every secret with every signature with timingSafeEqual, without stopping at the match', () => {
    const headers = {
      'x-service-signature': serviceSignature(CURRENT, BODY),
      'x-service-signature-next': serviceSignature(NEXT, BODY),
    };
    expect(verifyWebhook({ rawBody: BODY, headers, secrets: [CURRENT, NEXT, OTHER] }).ok).toBe(true);
    expect(comparisons.count).toBe(3 * 2);
  });

  it('also compares every pair when nothing matches', () => {
    const headers = { 'x-service-signature': serviceSignature(OTHER, BODY) };
    expectReason(verifyWebhook({ rawBody: BODY, headers, secrets: [CURRENT, NEXT] }), 'signature_mismatch');
    expect(comparisons.count).toBe(2);
  });
});

describe('verifyStandardWebhook', () => {
  const id = 'dlv_0192b7c4-5d3e-7aa1-9f00-1c2d3e4f5a6b';
  const standardHeaders = (signature: string, timestamp: number | string = NOW, webhookId = id) => ({
    'webhook-id': webhookId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signature,
  });

  it('accepts v1,<base64 HMAC> of "id.timestamp.body" under the decoded secret', () => {
    const headers = standardHeaders(`v1,${standardSignature(CURRENT, id, NOW, BODY)}`);
    const result = expectOk(
      verifyStandardWebhook({ rawBody: Buffer.from(BODY), headers, secrets: CURRENT, nowSeconds: NOW }),
    );
    expect(result.header).toBe('webhook-signature');
    expect(result.secretIndex).toBe(0);
    expect(result.event.delivery_id).toBe(id);
  });

  it('accepts either entry during a rotation, from a Headers object', () => {
    const signature = `v1,${standardSignature(CURRENT, id, NOW, BODY)} v1,${standardSignature(NEXT, id, NOW, BODY)}`;
    const headers = new Headers(standardHeaders(signature));
    const result = expectOk(verifyStandardWebhook({ rawBody: BODY, headers, secrets: [OTHER, NEXT], nowSeconds: NOW }));
    expect(result.secretIndex).toBe(1);
  });

  it('refuses a signature under another secret, over another timestamp, or with the service hex key', () => {
    const verify = (headers: Record<string, string>) =>
      verifyStandardWebhook({ rawBody: BODY, headers, secrets: CURRENT, nowSeconds: NOW });
    expectReason(verify(standardHeaders(`v1,${standardSignature(OTHER, id, NOW, BODY)}`)), 'signature_mismatch');
    expectReason(
      verify(standardHeaders(`v1,${standardSignature(CURRENT, id, NOW, BODY)}`, NOW + 1)),
      'signature_mismatch',
    );
    // Keyed with the secret string itself (the X-Service-Signature key) instead of its decoded bytes.
    const wrongKey = createHmac('sha256', CURRENT).update(`${id}.${NOW}.${BODY}`).digest('base64');
    expectReason(verify(standardHeaders(`v1,${wrongKey}`)), 'signature_mismatch');
  });

  it('refuses missing headers, malformed entries, a stale timestamp and an id that is not the delivery_id', () => {
    const good = `v1,${standardSignature(CURRENT, id, NOW, BODY)}`;
    const verify = (headers: Record<string, string>, nowSeconds = NOW) =>
      verifyStandardWebhook({ rawBody: BODY, headers, secrets: CURRENT, nowSeconds });
    const { 'webhook-id': _i, ...noId } = standardHeaders(good);
    expectReason(verify(noId), 'missing_signature');
    expectReason(verify(standardHeaders('v2,abc')), 'malformed_signature');
    expectReason(verify(standardHeaders(good, 'yesterday')), 'malformed_signature');
    expectReason(verify(standardHeaders(good), NOW + 301), 'stale_timestamp');
    expect(verify(standardHeaders(good), NOW + 300).ok).toBe(true);
    const otherId = 'dlv_someone-else';
    expectReason(
      verify(standardHeaders(`v1,${standardSignature(CURRENT, otherId, NOW, BODY)}`, NOW, otherId)),
      'not_a_webhook',
    );
    expectReason(verifyStandardWebhook({ rawBody: BODY, headers: standardHeaders(good), secrets: '' }), 'no_secret');
  });

  it('checks webhook-timestamp against 300 s by default, and not at all with toleranceSeconds: null', () => {
    const headers = standardHeaders(`v1,${standardSignature(CURRENT, id, NOW, BODY)}`);
    expectReason(
      verifyStandardWebhook({ rawBody: BODY, headers, secrets: CURRENT, nowSeconds: NOW - 301 }),
      'stale_timestamp',
    );
    expect(
      verifyStandardWebhook({ rawBody: BODY, headers, secrets: CURRENT, nowSeconds: NOW - 301, toleranceSeconds: null })
        .ok,
    ).toBe(true);
  });
});

describe('verifyWebhook behind a real Node http server', () => {
  let server: Server;
  let url: string;
  const received: VerificationResult[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const result = verifyWebhook({
          rawBody: Buffer.concat(chunks),
          headers: req.headers,
          secrets: [CURRENT, NEXT],
        });
        received.push(result);
        res.writeHead(result.ok ? 200 : 400, { 'content-type': 'application/json' });
        res.end(JSON.stringify(result.ok ? { delivery_id: result.event.delivery_id } : { reason: result.reason }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/gateway`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  });

  it('verifies a signed POST from the raw request bytes and refuses a tampered one', async () => {
    const body = JSON.stringify(refundEvent('Վերադարձ'));
    const signature = serviceSignature(CURRENT, Buffer.from(body, 'utf8'));
    const post = (payload: string) =>
      fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Service-Signature': signature },
        body: payload,
      });

    const accepted = await post(body);
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toEqual({ delivery_id: 'dlv_0192b7c4-5d3e-7aa1-9f00-1c2d3e4f5a6b' });
    const first = received.at(-1);
    expect(first?.ok && first.event.refund?.reason).toBe('Վերադարձ');

    const refused = await post(body.replace('Վերադարձ', 'Refund'));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ reason: 'signature_mismatch' });
    expect(received).toHaveLength(2);
  });
});
