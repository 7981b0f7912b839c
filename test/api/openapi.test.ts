/**
 * The OpenAPI document (`gateway/api/openapi/`): it is valid OpenAPI 3.1, it documents exactly the
 * API routes the gateway's routers register (a new route without documentation fails here), it
 * shows a valid example of every request body and success answer, it states the bounds the server
 * applies, and it is served, cacheably, at `/api/v1/openapi.json`. Its lint and its examples against
 * a real server: openapi-lint.test.ts, openapi-examples.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../gateway/api/app.js';
import { buildOpenApiDocument } from '../../gateway/api/openapi/document.js';
import { OPERATIONS } from '../../gateway/api/openapi/operations.js';
import { loadConfig } from '../../gateway/config.js';
import { createMailer } from '../../gateway/notifications/mailer.js';
import { testStatusUpdatedEvent } from '../../gateway/webhooks/events.js';
import {
  checkAgainstContract,
  checkWebhookAgainstContract,
  exampleSites,
  invalidExamples,
  takeContractViolations,
  watchGatewayContract,
} from '../support/contract.js';
import { PUBLIC_URL, startTestGateway, type TestGateway, uniqueHost } from '../support/gateway.js';
import { requestJson } from '../support/http.js';

/**
 * Routes that are not part of the API: pages for people (checkout, docs, receipts, a purchase's pay
 * link), the browser SDK script, and the addresses processors call back. Everything else must be
 * in the document.
 */
const NOT_API = [
  /^\/checkout\//,
  /^\/docs\//,
  /^\/sdk\//,
  /^\/processors\//,
  /^\/receipts\//,
  /^\/billing\/purchases\//,
  // The merchant dashboard's pages and forms (docs/dashboard.md).
  /^\/dashboard(\/|$)/,
  // The operators' Prometheus scrape (plain text, its own token; docs/operations.md "Metrics").
  /^\/metrics$/,
  // A payment link's page for the buyer (docs/api.md "Payment links").
  /^\/l\//,
  // The service's icon, for browsers' tabs.
  /^\/favicon\.ico$/,
];

interface RouterLike {
  readonly stack: ReadonlyArray<{ readonly path: string | RegExp; readonly methods: readonly string[] }>;
}

/** `METHOD /path/{param}` of every route of every router the app mounts. */
function mountedRoutes(t: TestGateway): string[] {
  const mailer = createMailer(t.gateway.deps.config, t.gateway.deps.logger);
  const app = createApp(t.gateway.deps, { scheduler: t.gateway.scheduler, secret: t.gateway.secret, mailer });
  mailer.close();
  const routes: string[] = [];
  for (const middleware of app.middleware) {
    const router = (middleware as { router?: RouterLike }).router;
    if (router === undefined) continue;
    for (const layer of router.stack) {
      if (typeof layer.path !== 'string') throw new Error(`a route with a RegExp path: ${layer.path}`);
      const path = layer.path.replace(/\/$/, '').replace(/:(\w+)/g, '{$1}') || '/';
      for (const method of layer.methods.filter((m) => m !== 'HEAD')) routes.push(`${method} ${path}`);
    }
  }
  return routes;
}

let t: TestGateway;

beforeAll(async () => {
  t = await startTestGateway('sqlite');
});

afterAll(async () => {
  await t?.close();
});

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(buildOpenApiDocument(t.gateway.deps.config) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('documents exactly the API routes the routers register', () => {
    const mounted = mountedRoutes(t);
    const api = mounted.filter((route) => !NOT_API.some((pattern) => pattern.test(route.split(' ')[1] ?? '')));
    const documented = OPERATIONS.map((o) => `${o.method.toUpperCase()} ${o.path}`);
    expect(new Set(api)).toEqual(new Set(documented));
    // Sanity: the walk saw the pages too, so the list above is not empty by accident.
    expect(mounted).toContain('GET /docs/api');
    expect(mounted).toContain('GET /checkout/{token}');
  });

  it('names each operation once', () => {
    const ids = OPERATIONS.map((o) => o.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('describes every parameter and every field of every request body, and keeps the fields described in the components', () => {
    const document = buildOpenApiDocument(t.gateway.deps.config);
    const undescribed: string[] = [];
    // biome-ignore lint/suspicious/noExplicitAny: the document read as plain JSON
    const fieldsOf = (schema: any, at: string) => {
      for (const [name, field] of Object.entries<Record<string, unknown>>(schema?.properties ?? {})) {
        if (typeof field.description !== 'string') undescribed.push(`${at}.${name}`);
      }
    };
    for (const [path, item] of Object.entries(document.paths)) {
      // biome-ignore lint/suspicious/noExplicitAny: the document read as plain JSON
      for (const [method, operation] of Object.entries<any>(item as object)) {
        for (const parameter of operation.parameters ?? []) {
          if (parameter.$ref === undefined && typeof parameter.description !== 'string') {
            undescribed.push(`${method} ${path} ${parameter.in} ${parameter.name}`);
          }
        }
        const body = operation.requestBody?.content?.['application/json']?.schema;
        if (body !== undefined) fieldsOf(body, `${method} ${path} body`);
      }
    }
    expect(undescribed).toEqual([]);
    // biome-ignore lint/suspicious/noExplicitAny: the document read as plain JSON
    const schemas = (document.components as { schemas: Record<string, any> }).schemas;
    expect(schemas.Refund.properties.amount.description).toBe('Whole AMD.');
    expect(schemas.Customer.properties.id.description).toMatch(/^The customer id/);
    const create = document.paths['/api/v1/payments']?.post as {
      requestBody: {
        content: { 'application/json': { schema: { properties: Record<string, { description: string }> } } };
      };
    };
    expect(create.requestBody.content['application/json'].schema.properties.return_url?.description).toContain(
      'verified domains',
    );
  });

  it('answers every error code the table has with its status, and each listed status with the Error schema', () => {
    const document = buildOpenApiDocument(t.gateway.deps.config);
    const created = document.paths['/api/v1/payments']?.post as { responses: Record<string, unknown> };
    const unprocessable = created.responses['422'] as {
      content: { 'application/json': { schema: { $ref: string; properties: { error: { enum: string[] } } } } };
    };
    expect(unprocessable.content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
    expect(unprocessable.content['application/json'].schema.properties.error.enum).toEqual(
      expect.arrayContaining(['validation_failed', 'amount_limit_exceeded', 'velocity_exceeded']),
    );
    expect(Object.keys(created.responses)).toEqual(
      expect.arrayContaining(['200', '201', '400', '401', '402', '403', '409', '413', '415', '422', '429', '500']),
    );
  });
});

// biome-ignore lint/suspicious/noExplicitAny: the document read as plain JSON
type Json = any;

/** The JSON Schema of an operation's request body. */
const bodySchemaOf = (document: Json, path: string, method: string) =>
  document.paths[path][method].requestBody.content['application/json'].schema;

describe('the examples of the OpenAPI document', () => {
  it('show every request body, every success answer and every webhook body, each valid under its schema', () => {
    const document = buildOpenApiDocument(t.gateway.deps.config);
    const sites = exampleSites(document);
    // Every operation has a success answer, and the two webhooks a body: the walk saw them all.
    expect(sites.length).toBeGreaterThan(OPERATIONS.length + 2);
    expect(sites.filter((site) => site.media?.example === undefined).map((site) => site.at.join(' '))).toEqual([]);
    expect(invalidExamples(document)).toEqual([]);
  });

  it('are checked: an example off its schema is reported where it is', () => {
    const document: Json = structuredClone(buildOpenApiDocument(t.gateway.deps.config));
    const created = document.paths['/api/v1/payments'].post;
    created.responses['201'].content['application/json'].example = {
      ...created.responses['201'].content['application/json'].example,
      amount: '15000',
      colour: 'red',
    };
    created.requestBody.content['application/json'].example.currency = 7;
    const problems = invalidExamples(document);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^paths \/api\/v1\/payments post requestBody .*\/currency must be string/);
    expect(problems[1]).toMatch(/^paths \/api\/v1\/payments post responses 201 .*\/amount must be integer/);
    expect(problems[1]).toContain('must NOT have additional properties');
  });
});

describe('the bounds the document states', () => {
  it("are the server's: the minimum purchase and an auto top-up's refill, the largest payment link", () => {
    const document = buildOpenApiDocument(
      loadConfig({ PUBLIC_URL, GATEWAY_MIN_PURCHASE: '250', GATEWAY_MAX_PAYMENT_AMOUNT: '700000' }),
    );
    const purchase = bodySchemaOf(document, '/api/v1/billing/purchases', 'post');
    expect(purchase.properties.quantity).toMatchObject({ type: 'integer', minimum: 250, maximum: 1_000_000 });
    expect(purchase.properties.quantity.description).toContain('250');
    expect(purchase.additionalProperties).toBe(false);
    const topUp = bodySchemaOf(document, '/api/v1/billing/auto-topup/{counter}', 'put');
    expect(topUp.properties.refill_qty).toMatchObject({ minimum: 250, maximum: 1_000_000 });
    expect(topUp.properties.threshold_qty).toMatchObject({ minimum: 0 });
    const link = bodySchemaOf(document, '/api/v1/payment_links', 'post');
    expect(JSON.stringify(link.properties.amount)).toContain('"maximum":700000');
  });

  it('are the rules the server applies: a purchase one unit below the documented minimum is refused, at it is taken', async () => {
    const document: Json = buildOpenApiDocument(t.gateway.deps.config);
    const minimum = bodySchemaOf(document, '/api/v1/billing/purchases', 'post').properties.quantity.minimum;
    expect(minimum).toBe(100);
    const m = await t.liveMerchant(uniqueHost('units'));
    const buy = (quantity: number) =>
      t.call('POST', '/api/v1/billing/purchases', {
        key: m.testKey,
        headers: { 'Idempotency-Key': randomUUID() },
        body: { counter: 'transactions', quantity },
      });
    const below = await buy(minimum - 1);
    expect(below.status, below.text).toBe(422);
    expect(below.body).toMatchObject({ error: 'below_minimum', min_quantity: minimum });
    const at = await buy(minimum);
    expect(at.status, at.text).toBe(201);
    const topUp = (refill: number) =>
      t.call('PUT', '/api/v1/billing/auto-topup/transactions', {
        key: m.testKey,
        body: { enabled: true, threshold_qty: 10, refill_qty: refill },
      });
    expect((await topUp(minimum - 1)).status).toBe(422);
    expect((await topUp(minimum)).status).toBe(200);
  });

  it("use OpenAPI 3.1's own JSON Schema dialect, and describe every group of operations", () => {
    const document: Json = buildOpenApiDocument(t.gateway.deps.config);
    // Absent: the default, OpenAPI 3.1's dialect (draft 2020-12 and its keywords), which Swagger UI reads.
    expect(document).not.toHaveProperty('jsonSchemaDialect');
    const tags = document.tags as Array<{ name: string; description?: string }>;
    expect(tags.map((tag) => tag.name).sort()).toEqual([...new Set(OPERATIONS.map((o) => o.tag))].sort());
    for (const tag of tags) expect(tag.description, tag.name).toMatch(/\w/);
  });
});

describe('the contract check of the API tests', () => {
  it('records an undocumented status, a body off its schema and an error code the operation does not answer', () => {
    const origin = 'http://127.0.0.1:9';
    watchGatewayContract(origin);
    const notFound = {
      error: 'not_found',
      message: 'No payment.',
      request_id: 'req_1',
      docs_url: `${PUBLIC_URL}/docs/errors#not_found`,
    };
    const check = (status: number, body: unknown) =>
      checkAgainstContract('GET', `${origin}/api/v1/payments/x`, status, body, JSON.stringify(body));
    check(404, notFound);
    expect(takeContractViolations()).toEqual([]);
    check(418, notFound);
    check(404, { ...notFound, error: 'order_not_found' });
    check(200, { ...notFound });
    // Not a test gateway, or not an operation of the document: not the contract's business.
    checkAgainstContract('GET', 'http://127.0.0.1:8/api/v1/payments/x', 418, null, '');
    checkAgainstContract('DELETE', `${origin}/api/v1/payments/x`, 405, null, '');
    const violations = takeContractViolations();
    expect(violations).toHaveLength(3);
    expect(violations[0]).toContain('→ 418: status not documented');
    expect(violations[1]).toContain('/error must be equal to one of the allowed values');
    expect(violations[2]).toContain("must have required property 'uuid'");
  });
});

describe('the contract check of webhooks', () => {
  it('records a delivery without its signature headers or off the schema, and leaves other requests alone', () => {
    const body = {
      ...testStatusUpdatedEvent('2026-11-21T10:00:30.000Z'),
      delivery_id: randomUUID(),
      timestamp: 1795255230,
    };
    const headers = {
      'x-service-signature': 'ab',
      'webhook-id': body.delivery_id,
      'webhook-timestamp': '1795255230',
      'webhook-signature': 'v1,x',
    };
    checkWebhookAgainstContract(headers, body);
    expect(takeContractViolations()).toEqual([]);
    checkWebhookAgainstContract({ ...headers, 'x-service-signature': undefined }, body);
    checkWebhookAgainstContract(headers, { ...body, timestamp: 'now' });
    checkWebhookAgainstContract({}, { ...body, timestamp: 'now' });
    checkWebhookAgainstContract(headers, { ...body, event: 'payment.captured', timestamp: 'now' });
    const violations = takeContractViolations();
    expect(violations).toHaveLength(2);
    expect(violations[0]).toContain('header X-Service-Signature missing');
    expect(violations[1]).toContain('/timestamp must be integer');
  });
});

describe('GET /api/v1/openapi.json', () => {
  it('serves the document without a key, cacheable and revalidated by ETag', async () => {
    const res = await requestJson<Record<string, unknown>>('GET', `${t.url}/api/v1/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.body).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument(t.gateway.deps.config))));
    const etag = res.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(`${t.url}/api/v1/openapi.json`, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });
});

describe('GET /docs/api', () => {
  it('serves the reference page and its assets from the gateway, with a CSP of self only', async () => {
    const page = await fetch(`${t.url}/docs/api`);
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain('unsafe');
    const html = await page.text();
    for (const asset of ['swagger-ui-bundle.js', 'swagger-ui.css', 'start.js', 'overrides.css']) {
      expect(html).toContain(`/docs/api/assets/${asset}`);
      const res = await fetch(`${t.url}/docs/api/assets/${asset}`);
      expect(res.status, asset).toBe(200);
      expect((await res.text()).length, asset).toBeGreaterThan(0);
    }
    expect(html).not.toMatch(/<script>/);
    const unknown = await requestJson('GET', `${t.url}/docs/api/assets/package.json`);
    expect(unknown.status).toBe(404);
  });
});
