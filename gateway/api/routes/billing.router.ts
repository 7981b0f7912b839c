/**
 * `/api/v1/billing` read endpoints (spec "Billing"): the public price list (no key, no account
 * limit: it is the same for everyone and cacheable), the merchant's balances and its ledger; and
 * `/docs/billing`, the page `top_up_url` of 402 `BALANCE_EXHAUSTED` points to.
 * Purchases and auto top-up have their own router.
 */
import { Router } from '@koa/router';
import type { AuthDeps } from '../../auth/authenticate.js';
import { pricing, readBalances, readLedgerPage } from '../../billing/billing.service.js';
import type { BillingConfig } from '../../config.js';
import { graceFloor } from '../../domain/billing.js';
import type { GatewayState } from '../context.js';
import { principalOf, requireAuth } from '../middleware/auth.js';
import { setStaticPageHeaders } from '../page-headers.js';
import { ledgerQuerySchema } from '../schemas/billing.schema.js';
import { parseOr422 } from '../schemas/validation.js';

function billingPage(config: BillingConfig, publicUrl: string): string {
  const api = `${publicUrl}/api/v1/billing`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Billing: units, balances and top-up</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#1d2330}
h1{font-size:1.6rem}h2{font-size:1.15rem;margin-top:2rem}
code{background:#f2f4f7;padding:0 .25em;border-radius:3px}
section:target{background:#fff8db;outline:.5rem solid #fff8db}
</style>
</head>
<body>
<h1>Billing: units, balances and top-up</h1>
<p>A completed live payment of at least ${config.freeBelowAmd} AMD uses one <code>transactions</code> unit
(${config.transactionPriceAmd} AMD); a fiscal receipt not linked to a payment of the service uses one
<code>receipts</code> unit (${config.receiptPriceAmd} AMD). Test payments are free. Prices:
<code>GET ${api}/pricing</code>; balances: <code>GET ${api}/balances</code>; every change:
<code>GET ${api}/ledger</code>.</p>
<p>A balance may go below zero down to the grace floor (${graceFloor(config)}). At the floor, new live payments
are refused with <code>402 BALANCE_EXHAUSTED</code>; test payments keep working.</p>
<section id="top-up">
<h2>Top up</h2>
<p>Buy units with <code>POST ${api}/purchases</code> (header <code>Idempotency-Key</code>, body
<code>{"counter": "transactions", "quantity": ${config.presetQuantities[0] ?? config.minPurchase}}</code>, a full-access key of a
verified business). Preset quantities (${config.presetQuantities.join(', ')}) answer a <code>checkout_url</code> to pay by card;
any other quantity of at least ${config.minPurchase} answers a bank-transfer <code>reference</code>, credited when the
transfer arrives. <code>PUT ${api}/auto-topup/transactions</code> sends a payment link by email whenever the
balance falls to a threshold you choose.</p>
</section>
</body>
</html>
`;
}

export function billingRouter(deps: AuthDeps, options: { secret: string }): Router<GatewayState> {
  const router = new Router<GatewayState>();

  // No key and no account limit: the spec makes pricing public.
  router.get('/api/v1/billing/pricing', (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = pricing(deps);
  });

  router.get('/api/v1/billing/balances', requireAuth(deps, 'billing.read'), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await readBalances(deps, principalOf(ctx).merchantId);
  });

  router.get('/api/v1/billing/ledger', requireAuth(deps, 'billing.read'), async (ctx) => {
    const query = parseOr422(ledgerQuerySchema, ctx.query, 'query');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await readLedgerPage(deps, options.secret, principalOf(ctx).merchantId, query);
  });

  const page = billingPage(deps.config.billing, deps.config.publicUrl);
  router.get('/docs/billing', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=300');
    setStaticPageHeaders(ctx);
    ctx.body = page;
  });

  return router;
}
