/**
 * The Shopify app's routes on the connector (docs/shopify.md), all under `/shopify/...` and answered
 * 404 when Shopify is not configured: the install (OAuth), Shopify's webhooks, the app's page in the
 * admin, its embedded API and the payments app.
 */
import type { ConnectorRouter } from '../../connector/api/request.js';
import { readRaw } from '../../connector/api/request.js';
import type { ConnectorDeps } from '../../connector/runtime/deps.js';
import { APP_PAGE_PATH, appPage } from './admin-page.js';
import { AUTH_PATH, CALLBACK_PATH, WEBHOOKS_PATH } from './app.js';
import { embeddedApiRoutes } from './embedded-api/routes.js';
import { beginInstall, completeInstall } from './oauth.js';
import { paymentsAppRoutes } from './payments-app/routes.js';
import { configuredShopify } from './runtime.js';
import { receiveShopifyWebhook } from './webhooks.js';

/** Shopify's webhook bodies (orders with many lines) are larger than a plugin's calls. */
const SHOPIFY_WEBHOOK_LIMIT_BYTES = 1024 * 1024;

export function shopifyRoutes(router: ConnectorRouter, deps: ConnectorDeps): void {
  router.get(AUTH_PATH, async (ctx) => {
    await beginInstall(configuredShopify(deps), { req: ctx.req, res: ctx.res, query: ctx.query });
    ctx.respond = false;
  });

  router.get(CALLBACK_PATH, async (ctx) => {
    const installed = await completeInstall(deps, configuredShopify(deps), {
      req: ctx.req,
      res: ctx.res,
      query: ctx.query,
    });
    ctx.redirect(installed.redirectTo);
  });

  router.post(WEBHOOKS_PATH, async (ctx) => {
    const shopify = configuredShopify(deps);
    const body = await readRaw(ctx, SHOPIFY_WEBHOOK_LIMIT_BYTES);
    const answer = await receiveShopifyWebhook(deps, shopify, { req: ctx.req, res: ctx.res, body });
    ctx.status = answer.status;
    ctx.body = answer.body;
  });

  // The app's page in the Shopify admin (admin-page.ts): Shopify frames it.
  router.get(APP_PAGE_PATH, (ctx) => {
    const html = appPage(configuredShopify(deps), deps.clock, ctx.query, ctx);
    ctx.type = 'html';
    ctx.body = html;
  });

  embeddedApiRoutes(router, deps);
  paymentsAppRoutes(router, deps);
}
