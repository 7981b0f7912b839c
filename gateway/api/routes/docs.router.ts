/**
 * Pages of our own that the API points to: `/docs/errors` (every `docs_url` lands on an anchor
 * there) and `/docs/verification` (the `verification_url` of `VERIFICATION_REQUIRED`).
 */
import { Router } from '@koa/router';
import { ERROR_CODES } from '../../domain/errors.js';
import type { GatewayState } from '../context.js';
import { setStaticPageHeaders } from '../page-headers.js';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Inline `code` spans of the explanations become <code> elements. */
function renderInline(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#1d2330}
h1{font-size:1.6rem}h2{font-size:1.15rem;margin-top:2rem}
code{background:#f2f4f7;padding:0 .25em;border-radius:3px}
.status{color:#5b6474;font-weight:normal}
section:target{background:#fff8db;outline:.5rem solid #fff8db}
</style>
</head>
<body>
${body}
</body>
</html>
`;
}

export function renderErrorsPage(): string {
  const sections = Object.entries(ERROR_CODES)
    .map(
      ([code, info]) => `<section id="${escapeHtml(code)}">
<h2><code>${escapeHtml(code)}</code> <span class="status">HTTP ${info.status}: ${escapeHtml(info.title)}</span></h2>
<p>${renderInline(info.explanation)}</p>
</section>`,
    )
    .join('\n');
  return page(
    'API errors',
    `<h1>API errors</h1>
<p>Every error answers a JSON body <code>{"error", "message", "request_id", "docs_url"}</code>; validation errors add
<code>errors</code> (<code>{"field": ["message"]}</code>). The same <code>request_id</code> is sent in the
<code>X-Request-Id</code> header: quote it to support.</p>
${sections}`,
  );
}

const VERIFICATION_PAGE = page(
  'Business verification',
  `<h1>Business verification</h1>
<p>Test keys (<code>sk_test_…</code>) work at once and never move money. Live keys, live payments and
purchases need a verified business.</p>
<p>To verify your business, sign in to the dashboard and open <a href="/dashboard/business">Business</a>: give
the legal name, the tax id (TIN), the legal address and a contact phone, with the documents that show them
(the state register extract, as PDF, PNG or JPEG). The service operator checks them and emails you the answer;
once verified, live keys start working. Nothing changes for your test integration.</p>`,
);

export function docsRouter(): Router<GatewayState> {
  const router = new Router<GatewayState>({ prefix: '/docs' });
  const errorsPage = renderErrorsPage();
  const html = (body: string) => (ctx: { type: string; body: unknown; set: (k: string, v: string) => void }) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=300');
    setStaticPageHeaders(ctx);
    ctx.body = body;
  };
  router.get('/errors', html(errorsPage));
  router.get('/verification', html(VERIFICATION_PAGE));
  return router;
}
