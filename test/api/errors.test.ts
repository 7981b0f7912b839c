/**
 * The error body (spec "Error body", "Errors"): every failure, ours or the transport's, answers
 * `{error, message, request_id, docs_url}` (+ `errors` for 422 and the extra keys of some codes),
 * `request_id` equal to the `X-Request-Id` header, `docs_url` pointing at `/docs/errors#<code>`,
 * a page that explains every code. One table maps each code to its HTTP status.
 */
import { Router } from '@koa/router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayState } from '../../gateway/api/context.js';
import { ApiError, ERROR_CODES, type ErrorCode } from '../../gateway/domain/errors.js';
import { DIALECTS } from '../support/databases.js';
import { type ApiResponse, PUBLIC_URL, paymentBody, startTestGateway, type TestGateway } from '../support/gateway.js';

/** The spec's table, then the transport codes we added: a change to any status must fail here. */
const EXPECTED_STATUS: Record<ErrorCode, number> = {
  missing_credentials: 401,
  invalid_api_key: 401,
  invalid_connect_token: 401,
  domain_required: 403,
  domain_not_registered: 403,
  domain_mismatch: 403,
  VERIFICATION_REQUIRED: 403,
  insufficient_scope: 403,
  BALANCE_EXHAUSTED: 402,
  not_found: 404,
  order_not_found: 404,
  conflict: 409,
  not_refundable: 409,
  payment_not_cancellable: 409,
  no_webhook_target: 409,
  already_refunded: 409,
  refund_in_progress: 409,
  refund_outcome_unknown: 409,
  refund_declined: 409,
  processor_unavailable: 409,
  payment_not_authorized: 409,
  hold_operation_in_progress: 409,
  capture_outcome_unknown: 409,
  void_outcome_unknown: 409,
  capture_declined: 409,
  void_declined: 409,
  authorization_expired: 409,
  validation_failed: 422,
  no_payment_method_configured: 422,
  amount_limit_exceeded: 422,
  velocity_exceeded: 422,
  refund_not_supported: 422,
  receipts_not_enabled: 422,
  invalid_amount: 422,
  amount_exceeds_authorized: 422,
  amount_exceeds_remaining: 422,
  below_minimum: 422,
  rate_limited: 429,
  too_many_attempts: 429,
  invalid_json: 400,
  malformed_request: 400,
  request_timeout: 408,
  headers_too_large: 431,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  internal_error: 500,
  service_unavailable: 503,
};

const CODES = Object.keys(ERROR_CODES) as ErrorCode[];
const BASE_KEYS = ['docs_url', 'error', 'message', 'request_id'];

/** Throws each code through the real error middleware, and one fault that is not an ApiError. */
function errorProbeRouter(): Router<GatewayState> {
  const router = new Router<GatewayState>({ prefix: '/api/v1/error-probe' });
  router.get('/crash', () => {
    throw new Error('database password is hunter2');
  });
  router.get('/:code', (ctx) => {
    throw new ApiError(ctx.params.code as ErrorCode, `probe of ${ctx.params.code}`);
  });
  return router;
}

/** The assertions every error answer must pass; `extraKeys` are the keys its code adds. */
function expectErrorShape(res: ApiResponse, code: ErrorCode, extraKeys: string[] = []): void {
  expect(res.status, code).toBe(EXPECTED_STATUS[code]);
  expect(res.headers.get('content-type'), code).toMatch(/^application\/json/);
  expect(res.headers.get('cache-control'), code).toBe('no-store');
  expect(Object.keys(res.body).sort(), code).toEqual([...BASE_KEYS, ...extraKeys].sort());
  expect(res.body.error, code).toBe(code);
  expect(typeof res.body.message, code).toBe('string');
  expect(String(res.body.message).length, code).toBeGreaterThan(0);
  const requestId = res.headers.get('x-request-id');
  expect(requestId, code).toMatch(/^req_[A-Za-z0-9_-]{10,}$/);
  expect(res.body.request_id, code).toBe(requestId);
  expect(res.body.docs_url, code).toBe(`${PUBLIC_URL}/docs/errors#${code}`);
}

describe('the error code table', () => {
  it('holds exactly the codes listed here', () => {
    expect([...CODES].sort()).toEqual(Object.keys(EXPECTED_STATUS).sort());
  });

  it.each(CODES)('%s maps to its status', (code) => {
    expect(ERROR_CODES[code].status).toBe(EXPECTED_STATUS[code]);
    expect(new ApiError(code, 'x').status).toBe(EXPECTED_STATUS[code]);
  });

  it.each(CODES)('%s has a title and an explanation for the docs page', (code) => {
    expect(ERROR_CODES[code].title.length).toBeGreaterThan(0);
    expect(ERROR_CODES[code].explanation.length).toBeGreaterThan(20);
  });
});

describe.each(DIALECTS)('error answers on %s', (dialect) => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway(dialect, { routers: [errorProbeRouter()] });
  });
  afterAll(async () => t?.close());

  it.each(CODES)('%s leaves through the error middleware with its status and the error body', async (code) => {
    const res = await t.call('GET', `/api/v1/error-probe/${code}`);
    expectErrorShape(res, code);
    expect(res.body.message).toBe(`probe of ${code}`);
  });

  it('turns an unexpected fault into 500 internal_error that reveals nothing', async () => {
    const res = await t.call('GET', '/api/v1/error-probe/crash');
    expectErrorShape(res, 'internal_error');
    expect(res.text).not.toContain('hunter2');
    expect(res.text).not.toMatch(/at .*\.ts:\d+/);
  });

  describe('real failures have the same shape', () => {
    it('missing_credentials', async () => {
      expectErrorShape(await t.call('GET', '/api/v1/payments'), 'missing_credentials');
    });

    it('invalid_api_key', async () => {
      const res = await t.call('GET', '/api/v1/payments', { key: 'sk_test_not-a-key-we-ever-issued-000' });
      expectErrorShape(res, 'invalid_api_key');
    });

    it('invalid_connect_token', async () => {
      const res = await t.call('GET', '/api/v1/payments', { headers: { 'X-Service-Connect': 'abc' } });
      expectErrorShape(res, 'invalid_connect_token');
    });

    it('VERIFICATION_REQUIRED adds verification_url', async () => {
      const m = await t.merchant();
      const res = await t.call('GET', '/api/v1/payments', { key: await t.key(m.merchantId, 'live') });
      expectErrorShape(res, 'VERIFICATION_REQUIRED', ['verification_url']);
      expect(res.body.verification_url).toBe(`${PUBLIC_URL}/docs/verification`);
    });

    it('validation_failed adds errors as {field: [messages]}', async () => {
      const m = await t.merchant();
      const res = await t.call('POST', '/api/v1/payments', { key: m.testKey, body: { amount: 'ten' } });
      expectErrorShape(res, 'validation_failed', ['errors']);
      const errors = res.body.errors as Record<string, unknown>;
      expect(Object.keys(errors).sort()).toEqual(['amount', 'order_id', 'return_url']);
      for (const messages of Object.values(errors)) {
        expect(Array.isArray(messages)).toBe(true);
        expect((messages as unknown[]).every((text) => typeof text === 'string' && text.length > 0)).toBe(true);
      }
    });

    it('validation_failed for invalid list parameters', async () => {
      const m = await t.merchant();
      const res = await t.call('GET', '/api/v1/payments?per_page=0', { key: m.testKey });
      expectErrorShape(res, 'validation_failed', ['errors']);
      expect(Object.keys(res.body.errors as object)).toEqual(['per_page']);
    });

    it('not_found for a payment the key cannot see', async () => {
      const m = await t.merchant();
      const res = await t.call('GET', '/api/v1/payments/0190a0e0-0000-7000-8000-000000000000', { key: m.testKey });
      expectErrorShape(res, 'not_found');
    });

    it('order_not_found for an unknown order', async () => {
      const m = await t.merchant();
      const res = await t.call('GET', '/api/v1/orders/no%20such%20order/payment', { key: m.testKey });
      expectErrorShape(res, 'order_not_found');
    });

    it.each(['/api/v1/nothing-here', '/nowhere', '/api/v2/payments'])(
      'not_found for the unknown route %s',
      async (path) => {
        expectErrorShape(await t.call('GET', path), 'not_found');
      },
    );

    it('method_not_allowed with Allow for a known route and a wrong method', async () => {
      const res = await t.call('DELETE', '/api/v1/payments');
      expectErrorShape(res, 'method_not_allowed');
      const allow = (res.headers.get('allow') ?? '').split(/,\s*/).sort();
      expect(allow).toEqual(expect.arrayContaining(['GET', 'POST']));
      expect(allow).not.toContain('DELETE');
    });

    it('invalid_json for a body that is not JSON', async () => {
      const m = await t.merchant();
      const res = await t.call('POST', '/api/v1/payments', {
        key: m.testKey,
        rawBody: '{"amount": 5000, "order_id": ',
        headers: { 'Content-Type': 'application/json' },
      });
      expectErrorShape(res, 'invalid_json');
    });

    it('unsupported_media_type for a body that is not sent as JSON', async () => {
      const m = await t.merchant();
      const res = await t.call('POST', '/api/v1/payments', {
        key: m.testKey,
        rawBody: 'amount=5000&order_id=1',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
      expectErrorShape(res, 'unsupported_media_type');
    });

    it('payload_too_large for a body over 64 KiB', async () => {
      const m = await t.merchant();
      const res = await t.call('POST', '/api/v1/payments', {
        key: m.testKey,
        body: paymentBody({ description: 'x'.repeat(70 * 1024) }),
      });
      expectErrorShape(res, 'payload_too_large', ['max_bytes']);
      expect(res.body.max_bytes).toBe(64 * 1024);
    });
  });

  describe('request ids', () => {
    it('gives every answer its own X-Request-Id, successes included', async () => {
      const m = await t.merchant();
      const ok = await t.call('GET', '/api/v1/payments', { key: m.testKey });
      const failures = await Promise.all([t.call('GET', '/api/v1/payments'), t.call('GET', '/api/v1/payments')]);
      expect(ok.status).toBe(200);
      const ids = [ok, ...failures].map((r) => r.headers.get('x-request-id'));
      for (const id of ids) expect(id).toMatch(/^req_/);
      expect(new Set(ids).size).toBe(3);
      expect(failures.map((r) => r.body.request_id)).toEqual(ids.slice(1));
    });
  });

  describe('the docs page behind docs_url', () => {
    let page: ApiResponse;
    beforeAll(async () => {
      page = await t.call('GET', '/docs/errors');
    });

    it('is served as HTML', () => {
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.text).toMatch(/^<!doctype html>/i);
    });

    it('may not be framed, nor may the verification page', async () => {
      for (const res of [page, await t.call('GET', '/docs/verification')]) {
        expect(res.status).toBe(200);
        expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
        expect(res.headers.get('x-frame-options')).toBe('DENY');
      }
    });

    it('has one anchor per code of the table, and no other', () => {
      const ids = [...page.text.matchAll(/\sid="([^"]+)"/g)].map((match) => match[1]);
      expect([...ids].sort()).toEqual([...CODES].sort());
    });

    it.each(CODES)('explains %s with its HTTP status', (code) => {
      const section = new RegExp(`<section id="${code}">([\\s\\S]*?)</section>`).exec(page.text);
      expect(section, code).not.toBeNull();
      const text = section?.[1] ?? '';
      expect(text).toContain(`<code>${code}</code>`);
      expect(text).toContain(`HTTP ${EXPECTED_STATUS[code]}`);
    });

    it('is where every docs_url points', async () => {
      const res = await t.call('GET', '/api/v1/payments');
      const url = new URL(String(res.body.docs_url));
      expect(url.origin).toBe(PUBLIC_URL);
      const fetched = await t.call('GET', url.pathname);
      expect(fetched.status).toBe(200);
      expect(fetched.text).toContain(`id="${url.hash.slice(1)}"`);
    });
  });
});
