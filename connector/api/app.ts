/**
 * The connector's HTTP API (docs/connector.md): the plugin-facing routes authenticated by the shop's
 * connect token, the platform's key exchange callback, and the gateway's webhook target. Every
 * answer carries `X-Request-Id` and the gateway's baseline headers (the gateway's request-context
 * middleware); every refusal answers `{"error": code, "message": text, "request_id": id}`.
 */
import Router from '@koa/router';
import Koa, { type Next, type ParameterizedContext } from 'koa';
import { z } from 'zod';
import { isJsonType } from '../../gateway/api/middleware/json-body.js';
import { requestContext } from '../../gateway/api/middleware/request-context.js';
import { metricsOnMainPort, metricsRoute } from '../../gateway/observability/metrics-endpoint.js';
import { recordRequests } from '../../gateway/observability/request-metrics.js';
import { APP_PAGE_PATH, appPage } from '../../plugins/shopify/admin-page.js';
import { AUTH_PATH, CALLBACK_PATH, WEBHOOKS_PATH } from '../../plugins/shopify/app.js';
import {
  authenticateShop,
  dataRequests,
  domainVerificationSchema,
  EMBEDDED_API_PATH,
  flaggedSessions,
  ordersQuerySchema,
  paymentSessionsQuerySchema,
  readDomainVerification,
  readSettings,
  recentOrders,
  saveDomainVerification,
  saveSettings,
  servedVerification,
  settingsSchema,
  shopConnection,
  VERIFICATION_FILE,
} from '../../plugins/shopify/embedded-api.js';
import { beginInstall, completeInstall } from '../../plugins/shopify/oauth.js';
import { PROXY_PATH, proxiedShop } from '../../plugins/shopify/payments-app/app-proxy.js';
import { receivePaymentsWebhook } from '../../plugins/shopify/payments-app/gateway-webhook.js';
import { isShopifyCaller } from '../../plugins/shopify/payments-app/mtls.js';
import { buyerLanguage, finalPage, returnPage } from '../../plugins/shopify/payments-app/pages.js';
import {
  buyerTarget,
  PAYMENTS_PATH,
  sendDecision,
  sessionHeaders,
  startPaymentSession,
} from '../../plugins/shopify/payments-app/payment-sessions.js';
import { acceptRefundSession, driveRefund } from '../../plugins/shopify/payments-app/refund-sessions.js';
import type { ShopifyRuntime } from '../../plugins/shopify/runtime.js';
import { ensureOfflineAccess } from '../../plugins/shopify/token-exchange.js';
import { receiveShopifyWebhook } from '../../plugins/shopify/webhooks.js';
import { registerConnection, removeConnection } from '../connections/connection.service.js';
import { requireStoreAccess } from '../connections/connection-access.js';
import { describeConnection } from '../connections/describe.js';
import {
  acceptManualCredentials,
  completeKeyExchange,
  reconnect,
  requireKeyExchangePlatform,
} from '../connections/key-exchange.js';
import {
  ASK_GATEWAY_NOW,
  authenticatePluginCall,
  introspectToken,
  MAY_USE_RECENT_ANSWER,
  type PluginCaller,
  requireToken,
  type TokenCheck,
} from '../connections/plugin-auth.js';
import { asConnectorError, ConnectorError, errorDetail, validationFailed } from '../errors.js';
import {
  cancelOrderPayment,
  deferStoreWork,
  payForOrder,
  readBackOrder,
  type StoreWork,
} from '../orders/order.service.js';
import { getReport, listReports, reconcile, reconcileInBackground } from '../reconciliation/reconcile.service.js';
import { refundFromStore } from '../refunds/refund.service.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import type { StoreConnection } from '../storage/connection.repository.js';
import { missingConnectorMigrations } from '../storage/migrate.js';
import { handleGatewayWebhook } from '../webhooks/webhook.consumer.js';
import { createIntrospectionLimit } from './introspection-limit.js';

const BODY_LIMIT_BYTES = 64 * 1024;
/** Shopify's webhook bodies (orders with many lines) are larger than a plugin's calls. */
const SHOPIFY_WEBHOOK_LIMIT_BYTES = 1024 * 1024;

interface ConnectorState {
  requestId: string;
}
type Context = ParameterizedContext<ConnectorState>;

const httpUrl = z
  .string()
  .max(2048)
  .refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), { error: 'must be an http(s) URL' });
const instant = z.string().refine((value) => /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value)), {
  error: 'must be an ISO 8601 date-time',
});

/** The plugin's view of the order (it runs inside the store): no store call is needed to pay it. */
const orderSnapshot = z.object({
  number: z.string().trim().min(1).max(64),
  total: z.string().regex(/^\d{1,15}(\.\d{1,8})?$/, { error: 'must be a decimal amount such as "1500.00"' }),
  currency: z.string().regex(/^[A-Za-z]{3}$/, { error: 'must be an ISO 4217 code' }),
  status: z.string().min(1).max(64),
  created_at: instant,
  customer_email: z.string().max(254).nullable().optional(),
  customer_name: z.string().max(255).nullable().optional(),
  payment_method: z.string().min(1).max(100),
});

const schemas = {
  connection: z.object({ store_url: httpUrl, return_url: httpUrl.optional() }),
  payment: z.object({ return_url: httpUrl, cancel_url: httpUrl, order: orderSnapshot.optional() }),
  credentials: z.object({
    consumer_key: z.string().regex(/^ck_[A-Za-z0-9]{1,100}$/, { error: 'must be a WooCommerce consumer key (ck_...)' }),
    consumer_secret: z
      .string()
      .regex(/^cs_[A-Za-z0-9]{1,100}$/, { error: 'must be a WooCommerce consumer secret (cs_...)' }),
  }),
  runs: z.object({
    trigger: z.enum(['scheduled', 'plugin', 'cli']).optional(),
    limit: z.coerce.number().int().min(1).max(50).default(10),
  }),
  refund: z.object({
    amount: z.number().int({ error: 'must be whole AMD' }).positive({ error: 'must be at least 1' }),
    reason: z.string().max(500).optional(),
    store_refund_id: z
      .union([z.string().min(1).max(64), z.number().int().positive()])
      .transform(String)
      .optional(),
  }),
  reconciliation: z
    .object({ from: instant, to: instant, repair: z.boolean().optional(), wait: z.boolean().optional() })
    .refine((r) => Date.parse(r.from) < Date.parse(r.to), { error: 'must be after from', path: ['to'] }),
};

export function createConnectorApp(deps: ConnectorDeps): Koa {
  const app = new Koa<ConnectorState>({ proxy: false });
  app.silent = true;
  app.use(recordRequests(deps.metrics.requests));
  app.use(requestContext(deps.logger, deps.config.publicUrl));
  app.use(errorHandler(deps));
  const exposure = deps.config.metrics;
  if (metricsOnMainPort(exposure) && exposure.token !== undefined) {
    app.use(metricsRoute(deps.metrics.registry, exposure.token));
  }
  const admitIntrospection = createIntrospectionLimit();
  const router = new Router<ConnectorState>();

  router.get('/health', (ctx) => {
    ctx.body = { status: 'ok' };
  });

  // Ready to serve: the database answers and every migration of this version is applied.
  router.get('/ready', async (ctx) => {
    let missing: string[];
    try {
      missing = await missingConnectorMigrations(deps.db);
    } catch (error) {
      deps.logger.error({ err: errorDetail(error) }, 'database not reachable');
      throw new ConnectorError(503, 'service_unavailable', 'The database cannot be reached.', {
        reason: 'database_unreachable',
      });
    }
    if (missing.length > 0) {
      throw new ConnectorError(503, 'service_unavailable', 'The database is not migrated to this version.', {
        reason: 'migrations_pending',
        pending_migrations: missing,
      });
    }
    ctx.body = { status: 'ok', database: deps.dialect };
  });

  router.post('/v1/connections', async (ctx) => {
    // The token first: one the gateway refuses is 401 whatever the body says.
    const token = requireToken(ctx.get('X-Service-Connect') || undefined);
    const info = await introspectToken(deps, token);
    const body = parse(schemas.connection, await readJson(ctx));
    const result = await registerConnection(deps, token, body, undefined, info);
    ctx.status = result.created ? 201 : 200;
    ctx.body = result.connection;
  });

  router.get('/v1/connection', async (ctx) => {
    ctx.body = await describeConnection(deps, await caller(ctx, ASK_GATEWAY_NOW));
  });

  router.post('/v1/connection/reconnect', async (ctx) => {
    ctx.body = await reconnect(deps, await connection(ctx, ASK_GATEWAY_NOW));
  });

  router.post('/v1/connection/credentials', async (ctx) => {
    const conn = await connection(ctx, ASK_GATEWAY_NOW);
    // Before the body: a Shopify connection is told how it connects, whatever it sent.
    requireKeyExchangePlatform(conn, 'POST /v1/connection/credentials');
    const body = parse(schemas.credentials, await readJson(ctx));
    ctx.body = await acceptManualCredentials(deps, conn, body);
  });

  router.delete('/v1/connection', async (ctx) => {
    ctx.body = await removeConnection(deps, await connection(ctx, ASK_GATEWAY_NOW));
  });

  // The Shopify app (plugins/shopify): answered 404 when Shopify is not configured.
  router.get(AUTH_PATH, async (ctx) => {
    await beginInstall(shopifyOn(), { req: ctx.req, res: ctx.res, query: ctx.query });
    ctx.respond = false;
  });

  router.get(CALLBACK_PATH, async (ctx) => {
    const installed = await completeInstall(deps, shopifyOn(), { req: ctx.req, res: ctx.res, query: ctx.query });
    ctx.redirect(installed.redirectTo);
  });

  router.post(WEBHOOKS_PATH, async (ctx) => {
    const shopify = shopifyOn();
    const body = await readRaw(ctx, SHOPIFY_WEBHOOK_LIMIT_BYTES);
    const answer = await receiveShopifyWebhook(deps, shopify, { req: ctx.req, res: ctx.res, body });
    ctx.status = answer.status;
    ctx.body = answer.body;
  });

  // The app's page in the Shopify admin (plugins/shopify/admin-page.ts): Shopify frames it.
  router.get(APP_PAGE_PATH, (ctx) => {
    const html = appPage(shopifyOn(), deps.clock, ctx.query, ctx);
    ctx.type = 'html';
    ctx.body = html;
  });

  // The page's API (plugins/shopify/embedded-api.ts), with App Bridge's session token.
  router.get(`${EMBEDDED_API_PATH}/settings`, async (ctx) => {
    ctx.body = await readSettings(deps, await sessionShop(ctx));
  });

  router.put(`${EMBEDDED_API_PATH}/settings`, async (ctx) => {
    const shop = await sessionShop(ctx);
    const body = parse(settingsSchema, await readJson(ctx));
    ctx.body = await saveSettings(deps, shopifyOn(), shop, body);
  });

  router.get(`${EMBEDDED_API_PATH}/domain-verification`, async (ctx) => {
    ctx.body = await readDomainVerification(deps, shopifyOn(), await sessionShop(ctx));
  });

  router.put(`${EMBEDDED_API_PATH}/domain-verification`, async (ctx) => {
    const shop = await sessionShop(ctx);
    const body = parse(domainVerificationSchema, await readJson(ctx));
    ctx.body = await saveDomainVerification(deps, shopifyOn(), shop, body);
  });

  router.get(`${EMBEDDED_API_PATH}/orders`, async (ctx) => {
    const shop = await sessionShop(ctx);
    const query = parse(ordersQuerySchema, { limit: ctx.query.limit });
    ctx.body = { data: await recentOrders(deps, shop, query.limit) };
  });

  router.post(`${EMBEDDED_API_PATH}/reconciliation`, async (ctx) => {
    const conn = await shopConnection(deps, await sessionShop(ctx));
    const body = parse(schemas.reconciliation, await readJson(ctx));
    await runReconciliation(ctx, conn, body);
  });

  router.get(`${EMBEDDED_API_PATH}/reconciliation`, async (ctx) => {
    const conn = await shopConnection(deps, await sessionShop(ctx));
    const query = parse(schemas.runs, { trigger: ctx.query.trigger, limit: ctx.query.limit });
    ctx.body = { data: await listReports(deps, conn, query) };
  });

  router.get(`${EMBEDDED_API_PATH}/reconciliation/:id`, async (ctx) => {
    ctx.body = await getReport(deps, await shopConnection(deps, await sessionShop(ctx)), ctx.params.id ?? '');
  });

  router.get(`${EMBEDDED_API_PATH}/data-requests`, async (ctx) => {
    ctx.body = { data: await dataRequests(deps, await sessionShop(ctx)) };
  });

  router.get(`${EMBEDDED_API_PATH}/payment-sessions`, async (ctx) => {
    const shop = await sessionShop(ctx);
    const query = parse(paymentSessionsQuerySchema, { flag: ctx.query.flag, limit: ctx.query.limit });
    ctx.body = { data: await flaggedSessions(deps, shop, query) };
  });

  // The Shopify payments app (plugins/shopify/payments-app): Shopify's session calls (mTLS), the
  // buyer's return page and the gateway's webhooks for those payments.
  router.post(`${PAYMENTS_PATH}/sessions`, async (ctx) => {
    shopifyCaller(ctx);
    const headers = sessionHeaders((name) => ctx.get(name));
    ctx.body = await startPaymentSession(deps, shopifyOn(), headers, await readJson(ctx));
  });

  router.post(`${PAYMENTS_PATH}/refunds`, async (ctx) => {
    const shopify = shopifyCaller(ctx);
    const headers = sessionHeaders((name) => ctx.get(name));
    const refund = await acceptRefundSession(deps, shopify, headers, await readJson(ctx));
    deps.background.start('Shopify refund session', () => driveRefund(deps, shopify, refund.id));
    ctx.status = 201;
    ctx.body = '';
  });

  router.post([`${PAYMENTS_PATH}/captures`, `${PAYMENTS_PATH}/voids`], async (ctx) => {
    shopifyCaller(ctx);
    sessionHeaders((name) => ctx.get(name));
    throw new ConnectorError(
      422,
      'authorization_not_supported',
      'This app takes sale payments only (captured at once): there is no authorization to capture or void.',
    );
  });

  // The gateway's domain verification file of the shop, through the app proxy (embedded-api.ts).
  router.get(`${PROXY_PATH}/${VERIFICATION_FILE}`, async (ctx) => {
    const shop = proxiedShop(shopifyOn(), deps.clock, ctx.query);
    const value = await servedVerification(deps, shop);
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/plain';
    ctx.status = value === null ? 404 : 200;
    ctx.body = value === null ? 'No gateway verification value is saved for this shop.\n' : `${value}\n`;
  });

  // The buyer's way back from the gateway, through the shop's storefront (Shopify's app proxy).
  router.get([`${PROXY_PATH}/return/:id`, `${PROXY_PATH}/cancel/:id`], async (ctx) => {
    const shopify = shopifyOn();
    const shop = proxiedShop(shopify, deps.clock, ctx.query);
    const page = ctx.path.startsWith(`${PROXY_PATH}/cancel/`) ? 'cancel' : 'return';
    const check = Number(typeof ctx.query.check === 'string' ? ctx.query.check : '0');
    const checks = Number.isSafeInteger(check) && check > 0 ? check : 0;
    const answer = await buyerTarget(deps, shopify, shop, ctx.params.id ?? '', page, checks);
    // Shopify's storefront serves the answer on the shop's domain: never cached there.
    ctx.set('Cache-Control', 'no-store');
    if (answer.kind === 'redirect') return ctx.redirect(answer.url);
    const language = buyerLanguage(answer.locale, ctx.get('Accept-Language') || undefined);
    ctx.type = 'html';
    ctx.body = answer.kind === 'waiting' ? returnPage(language, answer.next) : finalPage(language, answer.paid, shop);
  });

  router.post(`${PAYMENTS_PATH}/webhooks/:connection_id`, async (ctx) => {
    const shopify = shopifyOn();
    const answer = await receivePaymentsWebhook(
      deps,
      ctx.params.connection_id ?? '',
      await readRaw(ctx),
      ctx.req.headers,
    );
    const { sessionId } = answer;
    if (sessionId !== undefined)
      deps.background.start('Shopify session decision', () => sendDecision(deps, shopify, sessionId));
    ctx.status = answer.status;
    ctx.body = answer.body;
  });

  router.post('/:platform/auth/callback', async (ctx) => {
    await completeKeyExchange(deps, ctx.params.platform ?? '', await readJson(ctx));
    ctx.body = { received: true };
  });

  router.post('/v1/orders/:order_id/payment', async (ctx) => {
    const conn = await connection(ctx);
    const body = parse(schemas.payment, await readJson(ctx));
    const result = await afterAnswer(ctx, (storeWork) => payForOrder(deps, conn, orderIdParam(ctx), body, storeWork));
    ctx.status = result.status;
    ctx.body = result.body;
  });

  router.get('/v1/orders/:order_id/payment', async (ctx) => {
    const conn = await connection(ctx);
    ctx.body = await afterAnswer(ctx, (storeWork) => readBackOrder(deps, conn, orderIdParam(ctx), storeWork));
  });

  router.post('/v1/orders/:order_id/cancel', async (ctx) => {
    const conn = await connection(ctx);
    requireStoreAccess(conn);
    ctx.body = await afterAnswer(ctx, (storeWork) => cancelOrderPayment(deps, conn, orderIdParam(ctx), storeWork));
  });

  router.post('/v1/orders/:order_id/refunds', async (ctx) => {
    const conn = await connection(ctx);
    const body = parse(schemas.refund, await readJson(ctx));
    const refunded = await refundFromStore(deps, conn, orderIdParam(ctx), body);
    ctx.status = refunded.status;
    ctx.body = refunded.body;
  });

  router.post('/v1/reconciliation', async (ctx) => {
    const conn = await connection(ctx);
    const body = parse(schemas.reconciliation, await readJson(ctx));
    await runReconciliation(ctx, conn, body);
  });

  /** `POST .../reconciliation`: 201 with the finished report, or 202 with the running run (`wait: false`). */
  async function runReconciliation(
    ctx: Context,
    conn: StoreConnection,
    body: z.output<typeof schemas.reconciliation>,
  ): Promise<void> {
    const request = {
      from: new Date(Date.parse(body.from)).toISOString(),
      to: new Date(Date.parse(body.to)).toISOString(),
      repair: body.repair ?? false,
      trigger: 'plugin' as const,
    };
    if (body.wait === false) {
      ctx.status = 202;
      ctx.body = await reconcileInBackground(deps, conn, request);
      return;
    }
    ctx.status = 201;
    ctx.body = await reconcile(deps, conn, request);
  }

  router.get('/v1/reconciliation', async (ctx) => {
    const conn = await connection(ctx);
    const query = parse(schemas.runs, { trigger: ctx.query.trigger, limit: ctx.query.limit });
    ctx.body = { data: await listReports(deps, conn, query) };
  });

  router.get('/v1/reconciliation/:id', async (ctx) => {
    ctx.body = await getReport(deps, await connection(ctx), ctx.params.id ?? '');
  });

  router.post('/v1/webhooks/gateway/:connection_id', async (ctx) => {
    const raw = await readRaw(ctx);
    const answer = await handleGatewayWebhook(deps, ctx.params.connection_id ?? '', raw, ctx.req.headers);
    ctx.status = answer.status;
    ctx.body = answer.body;
  });

  app.use(router.routes());
  app.use(router.allowedMethods());
  app.use((ctx) => {
    throw new ConnectorError(404, 'not_found', `No route ${ctx.method} ${ctx.path}.`);
  });

  /**
   * Runs a plugin-facing handler whose store calls must wait for the answer: they start once the
   * response is closed (sent or abandoned). Whatever they leave undone is on the durable retry queue.
   */
  async function afterAnswer<T>(ctx: Context, handle: (storeWork: StoreWork) => Promise<T>): Promise<T> {
    const deferred = deferStoreWork();
    const answered = new Promise<void>((resolve) => ctx.res.once('close', () => resolve()));
    const startQueued = () => {
      for (const { what, run } of deferred.queued) deps.background.start(what, () => answered.then(run));
    };
    try {
      const result = await handle(deferred.work);
      startQueued();
      return result;
    } catch (error) {
      // A refusal after store work was queued (paying an order the gateway already paid) still runs it.
      startQueued();
      throw error;
    }
  }

  /**
   * The shop of the page's session token. An installed shop whose offline token is gone (or expired
   * beyond its refresh) gets a new one by token exchange with that session token
   * (plugins/shopify/token-exchange.ts); the first install stays Shopify's OAuth.
   */
  async function sessionShop(ctx: Context): Promise<string> {
    const shopify = shopifyOn();
    const { shop, sessionToken } = await authenticateShop(deps, shopify, ctx.get('Authorization'));
    await ensureOfflineAccess(deps, shopify, shop, sessionToken);
    return shop;
  }

  function shopifyOn(): ShopifyRuntime {
    if (deps.shopify === undefined) throw new ConnectorError(404, 'not_found', 'The Shopify app is not configured.');
    return deps.shopify;
  }

  /** Shopify's own calls to the payments app: only over the checked client certificate (or proxy). */
  function shopifyCaller(ctx: Context): ShopifyRuntime {
    const shopify = shopifyOn();
    if (!isShopifyCaller(ctx.req, shopify.app.config.payments)) {
      throw new ConnectorError(
        401,
        'client_certificate_required',
        "Payments app calls are accepted only with Shopify's client certificate (mTLS).",
      );
    }
    return shopify;
  }

  /**
   * The plugin's call, its connect token accepted by the gateway (asked before anything about the
   * connection is read or answered: connection.service.ts authenticatePluginCall). The connection's
   * own routes (its health, new keys, removal) always ask now; orders, refunds and reconciliation
   * take an acceptance of a few seconds ago.
   */
  async function caller(ctx: Context, check: TokenCheck = MAY_USE_RECENT_ANSWER): Promise<PluginCaller> {
    const token = ctx.get('X-Service-Connect') || undefined;
    return authenticatePluginCall(deps, token, () => admitIntrospection(ctx.ip), check);
  }

  async function connection(ctx: Context, check: TokenCheck = MAY_USE_RECENT_ANSWER): Promise<StoreConnection> {
    return (await caller(ctx, check)).connection;
  }
  return app;
}

function orderIdParam(ctx: { params: Record<string, string | undefined> }): string {
  const id = ctx.params.order_id ?? '';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw validationFailed({ order_id: ['must be the store order id'] });
  return id;
}

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length > 0 ? issue.path.join('.') : 'body';
    errors[field] = [...(errors[field] ?? []), issue.message];
  }
  throw validationFailed(errors);
}

async function readRaw(ctx: Context, limit = BODY_LIMIT_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      ctx.set('Connection', 'close');
      throw new ConnectorError(413, 'payload_too_large', `The body is larger than ${limit} bytes.`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, size);
}

/** A JSON body (`{}` when there is none); a body of another media type is refused unread. */
async function readJson(ctx: Context): Promise<unknown> {
  const hasBody = (ctx.request.length ?? 0) > 0 || ctx.get('Transfer-Encoding') !== '';
  if (!hasBody) return {};
  if (!isJsonType(ctx.get('Content-Type') || undefined)) {
    ctx.set('Connection', 'close');
    throw new ConnectorError(
      415,
      'unsupported_media_type',
      'Send the body as JSON with Content-Type: application/json.',
    );
  }
  const text = (await readRaw(ctx)).toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ConnectorError(400, 'invalid_json', 'The body is not valid JSON.');
  }
}

/** The one place a refusal becomes an answer; a fault becomes a 500 that tells nothing. */
function errorHandler(deps: ConnectorDeps) {
  return async function handleErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
      // Answers written by a handler (the webhook target's refusals) carry the request id too.
      const body = ctx.body as Record<string, unknown> | null | undefined;
      if (ctx.status >= 400 && typeof body?.error === 'string' && body.request_id === undefined) {
        ctx.body = { error: body.error, message: body.message, request_id: ctx.state.requestId, ...body };
      }
    } catch (caught) {
      const error = asConnectorError(caught);
      if (error instanceof ConnectorError) {
        if (error.cause !== undefined) {
          deps.logger.warn(
            { request_id: ctx.state.requestId, path: ctx.path, code: error.code, err: errorDetail(error) },
            'store call failed',
          );
        }
        ctx.status = error.status;
        if (typeof error.extra.retry_after === 'number') ctx.set('Retry-After', String(error.extra.retry_after));
        ctx.body = { error: error.code, message: error.message, request_id: ctx.state.requestId, ...error.extra };
        return;
      }
      deps.logger.error(
        { request_id: ctx.state.requestId, err: errorDetail(error), path: ctx.path },
        'connector error',
      );
      ctx.status = 500;
      ctx.body = {
        error: 'internal_error',
        message: 'Something went wrong in the connector; try again.',
        request_id: ctx.state.requestId,
      };
    }
  };
}
