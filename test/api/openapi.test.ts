/**
 * The OpenAPI document (`gateway/api/openapi/`): it is valid OpenAPI 3.1, it documents exactly the
 * API routes the gateway's routers register (a new route without documentation fails here), and it
 * is served, cacheably, at `/api/v1/openapi.json`.
 */
import { randomUUID } from 'node:crypto';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../gateway/api/app.js';
import { buildOpenApiDocument } from '../../gateway/api/openapi/document.js';
import { OPERATIONS } from '../../gateway/api/openapi/operations.js';
import { createMailer } from '../../gateway/notifications/mailer.js';
import { testStatusUpdatedEvent } from '../../gateway/webhooks/events.js';
import {
  checkAgainstContract,
  checkWebhookAgainstContract,
  takeContractViolations,
  watchGatewayContract,
} from '../support/contract.js';
import { PUBLIC_URL, startTestGateway, type TestGateway } from '../support/gateway.js';
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
    const result = await validator.validate(buildOpenApiDocument(PUBLIC_URL) as never);
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
    const document = buildOpenApiDocument(PUBLIC_URL);
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
    const document = buildOpenApiDocument(PUBLIC_URL);
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
    expect(res.body).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument(PUBLIC_URL))));
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
    for (const asset of ['swagger-ui-bundle.js', 'swagger-ui.css', 'init.js']) {
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
