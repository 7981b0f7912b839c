/**
 * The app's page inside the Shopify admin (docs/shopify.md "The app's page in the Shopify admin"):
 * the app URL Shopify loads in its iframe with `shop`, `host`, `embedded=1`, `id_token`, ... The
 * answer is an HTML shell holding nothing secret (the API key is public: App Bridge needs it) and
 * one script (`page/app-page.js`, inlined under the page's nonce). Everything the shop owner sees
 * comes from the embedded API (`/shopify/api/...`) with App Bridge's session token, which is where
 * the shop is authenticated; the shell only decides who may frame it.
 *
 * Framing: `frame-ancestors https://<shop> https://admin.shopify.com` for a valid shop domain (what
 * Shopify requires of embedded apps), `'none'` (and `X-Frame-Options: DENY`) for anything else.
 */

import { readFileSync } from 'node:fs';
import { ConnectorError } from '../../connector/errors.js';
import { escapeHtml, scriptJson } from '../../gateway/checkout/html.js';
import { type HeaderTarget, newNonce } from '../../gateway/checkout/security.js';
import type { Clock } from '../../gateway/domain/clock.js';
import { AUTH_PATH } from './app.js';
import { EMBEDDED_API_PATH } from './embedded-api/routes.js';
import { shopDomainOf } from './graphql.js';
import type { ShopifyRuntime } from './runtime.js';

export const APP_PAGE_PATH = '/shopify/app';
export const APP_BRIDGE_URL = 'https://cdn.shopify.com/shopifycloud/app-bridge.js';
export const SHOPIFY_ADMIN_ORIGIN = 'https://admin.shopify.com';

const PAGE_SCRIPT = readFileSync(new URL('./page/app-page.js', import.meta.url), 'utf8');
const DAY_MS = 24 * 3600 * 1000;
/** The reconciliation form's default range: the last 7 days (UTC), today included. */
const DEFAULT_RANGE_DAYS = 7;

/** Who may frame the page: the shop and the Shopify admin, or no one when the shop is not valid. */
export function appPageCsp(nonce: string, shop: string | null): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}' https://cdn.shopify.com`,
    `style-src 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    `frame-ancestors ${shop === null ? "'none'" : `https://${shop} ${SHOPIFY_ADMIN_ORIGIN}`}`,
  ].join('; ');
}

function setAppPageHeaders(target: HeaderTarget, nonce: string, shop: string | null): void {
  target.set('Content-Security-Policy', appPageCsp(nonce, shop));
  if (shop === null) target.set('X-Frame-Options', 'DENY');
  target.set('Cache-Control', 'no-store');
}

/**
 * `GET /shopify/app?shop=<name>.myshopify.com&...`: the page, or 400 `invalid_shop` (never framed)
 * for a missing or invalid shop.
 */
export function appPage(
  shopify: ShopifyRuntime,
  clock: Clock,
  query: Record<string, string | string[] | undefined>,
  headers: HeaderTarget,
): string {
  const nonce = newNonce();
  const shop = shopDomainOf(query.shop);
  setAppPageHeaders(headers, nonce, shop);
  if (shop === null) {
    throw new ConnectorError(
      400,
      'invalid_shop',
      'Open the app from your Shopify admin (Apps): the page needs the shop as its name.myshopify.com domain.',
    );
  }
  return appPageHtml({ apiKey: shopify.app.config.apiKey, shop, nonce, nowMs: clock.nowMs() });
}

interface PageInput {
  apiKey: string;
  shop: string;
  nonce: string;
  nowMs: number;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function appPageHtml({ apiKey, shop, nonce, nowMs }: PageInput): string {
  const n = escapeHtml(nonce);
  const config = {
    shop,
    api: EMBEDDED_API_PATH,
    installUrl: `${AUTH_PATH}?shop=${encodeURIComponent(shop)}`,
    from: day(nowMs - (DEFAULT_RANGE_DAYS - 1) * DAY_MS),
    to: day(nowMs),
  };
  return `<!doctype html>
<html lang="en"><head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="shopify-api-key" content="${escapeHtml(apiKey)}">
<script src="${APP_BRIDGE_URL}" nonce="${n}"></script>
<title>Card payments (gateway)</title>
<style nonce="${n}">${PAGE_CSS}</style>
</head><body>
<main>
<h1>Card payments through the gateway</h1>
<p class="shop">Shop: <strong>${escapeHtml(shop)}</strong></p>
<div id="page-message" class="message" role="alert" hidden></div>

<section id="install" aria-labelledby="install-heading" hidden>
<h2 id="install-heading">Install the app</h2>
<p>The app is not installed on this shop (or it was uninstalled). Install it to connect the shop to the gateway.</p>
<p><a id="install-link" class="button" href="${escapeHtml(config.installUrl)}" target="_top">Install the app</a></p>
</section>

<div id="app" hidden>
<section id="connection" aria-labelledby="connection-heading">
<h2 id="connection-heading">Connection</h2>
<p id="connection-state" class="state" data-state="unknown">Loading…</p>
<dl id="connection-details" class="details"></dl>
<ul id="connection-problems" class="problems"></ul>
<form id="settings-form" novalidate>
<div class="field">
<label for="connect-token">Connect token</label>
<input id="connect-token" name="connect_token" type="password" autocomplete="off" spellcheck="false" aria-describedby="connect-token-hint connect_token-error">
<p id="connect-token-hint" class="hint">Create a connect token for ${escapeHtml(shop)} (platform Shopify) in the gateway dashboard and paste it here. It is never shown again; leave it empty to keep the saved one.</p>
<p id="connect_token-error" class="field-error" hidden></p>
</div>
<fieldset class="field">
<legend>How buyers pay</legend>
<label class="choice"><input type="radio" name="way" value="manual_bridge" checked> Manual payment method (the buyer gets a card payment link after placing the order)</label>
<label class="choice"><input type="radio" name="way" value="payments_app"> Payments app (card payment at checkout; needs Shopify's approval)</label>
<p id="way-error" class="field-error" hidden></p>
</fieldset>
<div class="field">
<label for="manual-method-name">Manual payment method's name</label>
<input id="manual-method-name" name="manual_method_name" type="text" maxlength="255" aria-describedby="manual-method-hint manual_method_name-error">
<p id="manual-method-hint" class="hint">Exactly as in Settings &gt; Payments &gt; Manual payment methods, e.g. "Card payment (Armenian gateway)".</p>
<p id="manual_method_name-error" class="field-error" hidden></p>
</div>
<div class="field">
<label class="choice"><input id="test-mode" name="test_mode" type="checkbox"> Test mode (sandbox payments, no real money; needs a test connect token)</label>
<p id="test_mode-error" class="field-error" hidden></p>
</div>
<button type="submit" class="button">Save</button>
<p id="settings-message" class="message" role="status" hidden></p>
</form>
</section>

<section id="domain-verification" aria-labelledby="domain-verification-heading">
<h2 id="domain-verification-heading">Verify this shop at the gateway</h2>
<p>Live payments need ${escapeHtml(shop)} verified as your domain at the gateway. Add it under Domains in the gateway dashboard, choose the HTTPS file, and paste the value shown there; the gateway then reads it from <code id="verification-url">https://${escapeHtml(shop)}/…/gateway-verification.txt</code>.</p>
<form id="verification-form" novalidate>
<div class="field">
<label for="verification-value">Verification value</label>
<input id="verification-value" name="value" type="text" autocomplete="off" spellcheck="false" placeholder="gateway-verification=…" aria-describedby="value-error">
<p id="value-error" class="field-error" hidden></p>
</div>
<button type="submit" class="button">Publish the value</button>
<p id="verification-message" class="message" role="status" hidden></p>
</form>
</section>

<section id="orders" aria-labelledby="orders-heading">
<h2 id="orders-heading">Recent orders</h2>
<p id="orders-message" class="message" role="status" hidden></p>
<div class="scroll"><table id="orders-table">
<caption>The latest orders paid through the gateway, as the gateway sees them</caption>
<thead><tr><th scope="col">Order</th><th scope="col">Amount</th><th scope="col">Paid in Shopify</th><th scope="col">Payment</th><th scope="col">Status</th><th scope="col">RRN</th><th scope="col">Refunds</th></tr></thead>
<tbody></tbody>
</table></div>
<button type="button" id="orders-refresh" class="button secondary">Refresh</button>
</section>

<section id="reconciliation" aria-labelledby="reconciliation-heading">
<h2 id="reconciliation-heading">Reconciliation</h2>
<p>Compares the shop's orders with the gateway's payments and lists every mismatch. Only an order paid at the gateway but unpaid in Shopify is repaired (it is marked paid; no money moves); everything else needs you.</p>
<form id="reconcile-form" class="range" novalidate>
<div class="field"><label for="reconcile-from">From (UTC day)</label><input id="reconcile-from" name="from" type="date" required value="${config.from}"></div>
<div class="field"><label for="reconcile-to">To (UTC day, included)</label><input id="reconcile-to" name="to" type="date" required value="${config.to}"></div>
<button type="submit" class="button">Check for mismatches</button>
</form>
<p id="reconcile-message" class="message" role="status" hidden></p>
<div id="this-run" class="run" hidden></div>
<h3>Last automatic run</h3>
<div id="scheduled-run" class="run"><p>Loading…</p></div>
</section>

<section id="unconfirmed" aria-labelledby="unconfirmed-heading">
<h2 id="unconfirmed-heading">Payments Shopify has not confirmed</h2>
<p>Payments app checkouts whose outcome the connector told Shopify, but Shopify has not taken yet. The connector keeps sending it (for a week); a buyer who paid was told the payment was received. Given up ones need you: check the order in the Shopify admin and the payment in the gateway dashboard.</p>
<p id="unconfirmed-message" class="message" role="status" hidden></p>
<div class="scroll"><table id="unconfirmed-table">
<caption>Payment sessions Shopify has not confirmed</caption>
<thead><tr><th scope="col">Session</th><th scope="col">Amount</th><th scope="col">Outcome</th><th scope="col">State</th><th scope="col">Tries</th><th scope="col">Last error</th><th scope="col">Since</th></tr></thead>
<tbody></tbody>
</table></div>
</section>

<section id="refunds-needed" aria-labelledby="refunds-needed-heading">
<h2 id="refunds-needed-heading">Payments needing a refund</h2>
<p>Payments app checkouts paid twice (two tabs of one checkout): Shopify kept the first payment, the one listed here was rejected at Shopify but the money was taken. Refund it in the gateway dashboard.</p>
<p id="refunds-needed-message" class="message" role="status" hidden></p>
<div class="scroll"><table id="refunds-needed-table">
<caption>Payment sessions flagged refund_needed</caption>
<thead><tr><th scope="col">Session</th><th scope="col">Amount</th><th scope="col">Gateway payment</th><th scope="col">Mode</th><th scope="col">Why</th><th scope="col">Since</th></tr></thead>
<tbody></tbody>
</table></div>
</section>

<section id="data-requests" aria-labelledby="data-requests-heading">
<h2 id="data-requests-heading">Customer data requests</h2>
<p>When a customer asks Shopify for their data, Shopify tells the app; what the app holds about their orders is below. Send it to the customer within 30 days.</p>
<p id="data-requests-message" class="message" role="status" hidden></p>
<div id="data-requests-list"></div>
</section>
</div>
</main>
<script type="application/json" id="app-config">${scriptJson(config)}</script>
<script nonce="${n}">${PAGE_SCRIPT}</script>
</body></html>
`;
}

/** Plain and readable; one column on a phone, tables scroll sideways. */
const PAGE_CSS = `
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:#1c2433;background:#f6f6f7}
main{max-width:1000px;margin:0 auto;padding:16px}
h1{font-size:22px;margin:0 0 4px}
h2{font-size:18px;margin:0 0 12px}
h3{font-size:15px;margin:16px 0 8px}
section{background:#fff;border:1px solid #e1e3e5;border-radius:12px;padding:16px;margin:16px 0}
.shop{margin:0;color:#5c5f62;overflow-wrap:anywhere}
.field{margin:0 0 14px;border:0;padding:0;min-width:0}
label,legend{font-weight:600;display:block;margin-bottom:4px}
label.choice{font-weight:400;display:flex;gap:8px;align-items:flex-start;margin:6px 0}
label.choice input{margin-top:4px}
input[type=text],input[type=password],input[type=date]{font:inherit;width:100%;max-width:480px;padding:8px 10px;border:1px solid #8c9196;border-radius:8px}
input[aria-invalid=true]{border-color:#d72c0d}
.hint{color:#5c5f62;font-size:13px;margin:4px 0 0}
.field-error{color:#d72c0d;font-size:14px;margin:4px 0 0}
.button{display:inline-block;font:inherit;font-weight:600;background:#303030;color:#fff;border:0;border-radius:8px;padding:8px 16px;cursor:pointer;text-decoration:none}
.button.secondary{background:#fff;color:#303030;border:1px solid #8c9196;margin-top:8px}
.button:disabled{opacity:.6;cursor:default}
.message{padding:8px 12px;border-radius:8px;background:#eaf4ff;margin:8px 0}
.message.error{background:#fff4f4;color:#8e1f0b;border:1px solid #fdbdb4}
.message.ok{background:#f1f8f5;color:#0c5132;border:1px solid #aee9d1}
.state{font-weight:600;margin:0 0 8px}
.state[data-state=connected]{color:#0c5132}
.state[data-state=problem]{color:#8e1f0b}
dl.details{display:grid;grid-template-columns:auto 1fr;gap:4px 16px;margin:0 0 12px}
dt{color:#5c5f62}
dd{margin:0;overflow-wrap:anywhere}
.problems{color:#8e1f0b;padding-left:20px}
.scroll{overflow-x:auto}
ul.plain{margin:0;padding-left:16px}
table{border-collapse:collapse;width:100%;font-size:14px}
caption{text-align:left;color:#5c5f62;padding:0 0 6px}
th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #e1e3e5;vertical-align:top}
td code,dd code{font-size:12px;overflow-wrap:anywhere}
.range{display:flex;flex-wrap:wrap;gap:12px;align-items:flex-end}
.range .field{margin:0;flex:1 1 160px}
.run{margin:8px 0}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f6f7;padding:8px;border-radius:8px;font-size:12px}
@media (max-width:600px){main{padding:8px}section{padding:12px}}
`;
