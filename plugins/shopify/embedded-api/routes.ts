/**
 * The API of the app's page inside the Shopify admin (docs/shopify.md "Embedded app API"), under
 * `/shopify/api/...`, every call with App Bridge's session token (session-token.ts); and the
 * verification file the page's saved value makes the shop's storefront serve to the gateway.
 */

import type { ConnectorRouter, Context } from '../../../connector/api/request.js';
import { parse, readJson } from '../../../connector/api/request.js';
import {
  reconciliationSchema,
  runReconciliation,
  runsQuerySchema,
} from '../../../connector/api/routes/reconciliation.js';
import { getReport, listReports } from '../../../connector/reconciliation/reports.js';
import type { ConnectorDeps } from '../../../connector/runtime/deps.js';
import { PROXY_PATH, proxiedShop } from '../payments-app/app-proxy.js';
import { configuredShopify } from '../runtime.js';
import { ensureOfflineAccess } from '../token-exchange.js';
import { dataRequests } from './data-requests.js';
import {
  domainVerificationSchema,
  readDomainVerification,
  saveDomainVerification,
  servedVerification,
  VERIFICATION_FILE,
} from './domain-verification.js';
import { shopConnection } from './installed-shop.js';
import { ordersQuerySchema, recentOrders } from './orders.js';
import { flaggedSessions, paymentSessionsQuerySchema } from './payment-sessions.js';
import { authenticateShop } from './session-token.js';
import { readSettings, saveSettings, settingsSchema } from './settings.js';

export const EMBEDDED_API_PATH = '/shopify/api';

export function embeddedApiRoutes(router: ConnectorRouter, deps: ConnectorDeps): void {
  router.get(`${EMBEDDED_API_PATH}/settings`, async (ctx) => {
    ctx.body = await readSettings(deps, await sessionShop(deps, ctx));
  });

  router.put(`${EMBEDDED_API_PATH}/settings`, async (ctx) => {
    const shop = await sessionShop(deps, ctx);
    const body = parse(settingsSchema, await readJson(ctx));
    ctx.body = await saveSettings(deps, configuredShopify(deps), shop, body);
  });

  router.get(`${EMBEDDED_API_PATH}/domain-verification`, async (ctx) => {
    ctx.body = await readDomainVerification(deps, configuredShopify(deps), await sessionShop(deps, ctx));
  });

  router.put(`${EMBEDDED_API_PATH}/domain-verification`, async (ctx) => {
    const shop = await sessionShop(deps, ctx);
    const body = parse(domainVerificationSchema, await readJson(ctx));
    ctx.body = await saveDomainVerification(deps, configuredShopify(deps), shop, body);
  });

  router.get(`${EMBEDDED_API_PATH}/orders`, async (ctx) => {
    const shop = await sessionShop(deps, ctx);
    const query = parse(ordersQuerySchema, { limit: ctx.query.limit });
    ctx.body = { data: await recentOrders(deps, shop, query.limit) };
  });

  router.post(`${EMBEDDED_API_PATH}/reconciliation`, async (ctx) => {
    const conn = await shopConnection(deps, await sessionShop(deps, ctx));
    const body = parse(reconciliationSchema, await readJson(ctx));
    await runReconciliation(deps, ctx, conn, body);
  });

  router.get(`${EMBEDDED_API_PATH}/reconciliation`, async (ctx) => {
    const conn = await shopConnection(deps, await sessionShop(deps, ctx));
    const query = parse(runsQuerySchema, { trigger: ctx.query.trigger, limit: ctx.query.limit });
    ctx.body = { data: await listReports(deps, conn, query) };
  });

  router.get(`${EMBEDDED_API_PATH}/reconciliation/:id`, async (ctx) => {
    ctx.body = await getReport(deps, await shopConnection(deps, await sessionShop(deps, ctx)), ctx.params.id ?? '');
  });

  router.get(`${EMBEDDED_API_PATH}/data-requests`, async (ctx) => {
    ctx.body = { data: await dataRequests(deps, await sessionShop(deps, ctx)) };
  });

  router.get(`${EMBEDDED_API_PATH}/payment-sessions`, async (ctx) => {
    const shop = await sessionShop(deps, ctx);
    const query = parse(paymentSessionsQuerySchema, { flag: ctx.query.flag, limit: ctx.query.limit });
    ctx.body = { data: await flaggedSessions(deps, shop, query) };
  });

  // The gateway's domain verification file of the shop, through the app proxy.
  router.get(`${PROXY_PATH}/${VERIFICATION_FILE}`, async (ctx) => {
    const shop = proxiedShop(configuredShopify(deps), deps.clock, ctx.query);
    const value = await servedVerification(deps, shop);
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/plain';
    ctx.status = value === null ? 404 : 200;
    ctx.body = value === null ? 'No gateway verification value is saved for this shop.\n' : `${value}\n`;
  });
}

/**
 * The shop of the page's session token. An installed shop whose offline token is gone (or expired
 * beyond its refresh) gets a new one by token exchange with that session token
 * (plugins/shopify/token-exchange.ts); the first install stays Shopify's OAuth.
 */
async function sessionShop(deps: ConnectorDeps, ctx: Context): Promise<string> {
  const shopify = configuredShopify(deps);
  const { shop, sessionToken } = await authenticateShop(deps, shopify, ctx.get('Authorization'));
  await ensureOfflineAccess(deps, shopify, shop, sessionToken);
  return shop;
}
