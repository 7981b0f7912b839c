/**
 * The Shopify payments app's routes (docs/shopify.md): Shopify's session calls (payment, refund,
 * capture, void; only over its client certificate), the buyer's way back through the shop's storefront (the app
 * proxy) and the gateway's webhooks for those payments.
 */

import type { ConnectorRouter, Context } from '../../../connector/api/request.js';
import { readJson, readRaw } from '../../../connector/api/request.js';
import { ConnectorError } from '../../../connector/errors.js';
import type { ConnectorDeps } from '../../../connector/runtime/deps.js';
import { configuredShopify, type ShopifyRuntime } from '../runtime.js';
import { PROXY_PATH, proxiedShop } from './app-proxy.js';
import { buyerTarget } from './buyer-return.js';
import { receivePaymentsWebhook } from './gateway-webhook.js';
import { acceptHoldSession, driveHoldSession } from './hold-sessions.js';
import { isShopifyCaller } from './mtls.js';
import { buyerLanguage, finalPage, returnPage } from './pages.js';
import { PAYMENTS_PATH, startPaymentSession } from './payment-sessions.js';
import { acceptRefundSession, driveRefund } from './refund-sessions.js';
import { sendDecision } from './session-decisions.js';
import { sessionHeaders } from './session-request.js';

export function paymentsAppRoutes(router: ConnectorRouter, deps: ConnectorDeps): void {
  router.post(`${PAYMENTS_PATH}/sessions`, async (ctx) => {
    shopifyCaller(deps, ctx);
    const headers = sessionHeaders((name) => ctx.get(name));
    ctx.body = await startPaymentSession(deps, configuredShopify(deps), headers, await readJson(ctx));
  });

  router.post(`${PAYMENTS_PATH}/refunds`, async (ctx) => {
    const shopify = shopifyCaller(deps, ctx);
    const headers = sessionHeaders((name) => ctx.get(name));
    const refund = await acceptRefundSession(deps, shopify, headers, await readJson(ctx));
    deps.background.start('Shopify refund session', () => driveRefund(deps, shopify, refund.id));
    ctx.status = 201;
    ctx.body = '';
  });

  for (const kind of ['capture', 'void'] as const) {
    router.post(`${PAYMENTS_PATH}/${kind}s`, async (ctx) => {
      const shopify = shopifyCaller(deps, ctx);
      const headers = sessionHeaders((name) => ctx.get(name));
      const session = await acceptHoldSession(deps, shopify, headers, kind, await readJson(ctx));
      deps.background.start(`Shopify ${kind} session`, () => driveHoldSession(deps, shopify, session.id));
      ctx.status = 201;
      ctx.body = '';
    });
  }

  // The buyer's way back from the gateway, through the shop's storefront (Shopify's app proxy).
  router.get([`${PROXY_PATH}/return/:id`, `${PROXY_PATH}/cancel/:id`], async (ctx) => {
    const shopify = configuredShopify(deps);
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
    const shopify = configuredShopify(deps);
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
}

/** Shopify's own calls to the payments app: only over the checked client certificate (or proxy). */
function shopifyCaller(deps: ConnectorDeps, ctx: Context): ShopifyRuntime {
  const shopify = configuredShopify(deps);
  if (!isShopifyCaller(ctx.req, shopify.app.config.payments)) {
    throw new ConnectorError(
      401,
      'client_certificate_required',
      "Payments app calls are accepted only with Shopify's client certificate (mTLS).",
    );
  }
  return shopify;
}
