/**
 * A payment link's page for the buyer, on the hosted domain (docs/decisions.md "Payment links"):
 *
 * - `GET  /l/:id`          the amount and description (an amount input for a ranged link) and "Pay"
 * - `POST /l/:id`          creates the link's payment, or resumes the open one of a single-use link,
 *                          and sends the buyer (303) to the hosted checkout; refused (410) when the
 *                          link is paid, inactive or expired, and 429 (with `Retry-After`) past
 *                          `LINK_PAYMENTS_PER_MINUTE` payments from one address on reusable links
 * - `GET  /l/:id/thanks`   where the checkout returns the buyer: paid, or not (with a way back)
 *
 * Styled and secured like the checkout (its layout, its CSP with a nonce, no caching, no referrer);
 * English, Armenian and Russian like the checkout. The form carries an HMAC form token.
 */
import { Router } from '@koa/router';
import type { GatewayContext, GatewayState } from '../api/context.js';
import type { AuthDeps } from '../auth/authenticate.js';
import { readFormBody } from '../checkout/form-body.js';
import { checkFormToken, issueFormToken } from '../checkout/form-token.js';
import { escapeHtml } from '../checkout/html.js';
import { chooseLanguage, DICTIONARIES, isLanguage, type Language } from '../checkout/i18n/index.js';
import { icon, layout, merchantHeader, type PaymentSummary, type Shell } from '../checkout/layout.js';
import { newNonce, setPageHeaders } from '../checkout/security.js';
import { formatAmd } from '../i18n/format.js';
import { type BuyerLink, linkPaymentFor, lookUpBuyerLink, openPaymentLink } from './buyer-link.service.js';
import { LINK_PAGE_MESSAGES, type LinkPageMessages } from './buyer-messages.js';

/** The form token's subject: a link, never a checkout token (those have no `link:` prefix). */
const tokenSubject = (id: string) => `link:${id}`;

interface Page {
  readonly shell: Shell;
  readonly m: LinkPageMessages;
  readonly format: (amount: number) => string;
}

export function linkPageRouter(deps: AuthDeps, options: { secret: string }): Router<GatewayState> {
  const router = new Router<GatewayState>();
  const publicOrigin = new URL(deps.config.publicUrl).origin;

  const pageOf = (ctx: GatewayContext, selfPath: string | null): Page => {
    const asked = typeof ctx.query.lang === 'string' ? ctx.query.lang : undefined;
    const lang: Language = chooseLanguage(asked, ctx.get('Accept-Language'));
    const t = DICTIONARIES[lang];
    return {
      shell: {
        t,
        lang,
        nonce: newNonce(),
        carried: { embedOrigin: null, lang: isLanguage(asked) ? asked : null },
        selfPath,
      },
      m: LINK_PAGE_MESSAGES[lang],
      format: (amount) => formatAmd(lang, amount),
    };
  };

  const send = (ctx: GatewayContext, page: Page, status: number, html: string) => {
    setPageHeaders(ctx, page.shell.nonce, null, publicOrigin);
    ctx.status = status;
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = html;
  };

  const problem = (page: Page, title: string, text: string, status: string, back: string | null = null) =>
    layout(page.shell, {
      title,
      main: `<div class="result" data-status="${escapeHtml(status)}">
${icon(status === 'paid' ? 'ok' : 'muted')}
<h1>${escapeHtml(title)}</h1>
<p class="message">${escapeHtml(text)}</p>
</div>${back === null ? '' : `\n<a class="button secondary" href="${escapeHtml(back)}">${escapeHtml(page.m.tryAgain)}</a>`}`,
    });

  const summaryOf = (page: Page, link: BuyerLink): PaymentSummary => ({
    merchantName: link.merchantName,
    // Links live on the account's hosted domain, whose generated name is not shown.
    host: null,
    amount: link.row.amount === null ? '' : page.format(link.row.amount),
    charge: null,
    orderId: link.row.id,
    description: link.row.description,
    sandbox: link.row.environment === 'test',
  });

  const refusal = (ctx: GatewayContext, page: Page, status: 'inactive' | 'expired' | 'completed') => {
    const { m } = page;
    const [title, text] =
      status === 'inactive'
        ? [m.inactiveTitle, m.inactiveText]
        : status === 'expired'
          ? [m.expiredTitle, m.expiredText]
          : [m.completedTitle, m.completedText];
    send(ctx, page, 410, problem(page, title, text, status));
  };

  const payPage = (page: Page, link: BuyerLink, path: string, error: string | null, chosen: string) => {
    const { m, shell } = page;
    const { row } = link;
    const token = issueFormToken(options.secret, tokenSubject(row.id), 'method', deps.clock.nowMs());
    const description =
      row.description === null
        ? ''
        : `<dl class="details"><dt>${escapeHtml(shell.t.description)}</dt><dd>${escapeHtml(row.description)}</dd></dl>`;
    const errorBox = error === null ? '' : `<div class="error" role="alert" id="form-error">${escapeHtml(error)}</div>`;
    let amountPart: string;
    let button: string;
    if (row.amount !== null) {
      amountPart = `<div class="label">${escapeHtml(m.amountLabel)}</div>
<p class="amount" data-testid="amount">${escapeHtml(page.format(row.amount))}</p>`;
      button = m.payButton(row.amount);
    } else {
      const invalid = error === null ? '' : ' aria-invalid="true" aria-describedby="form-error"';
      amountPart = `<label class="field">${escapeHtml(m.chooseAmount)}<input type="text" id="amount" name="amount" inputmode="numeric" autocomplete="off" required value="${escapeHtml(chosen)}"${invalid}></label>
<p class="hint">${escapeHtml(m.rangeHint(row.amount_min ?? 1, row.amount_max ?? 1))}</p>`;
      button = m.payChosen;
    }
    return layout(shell, {
      title: `${m.pageTitle} · ${link.merchantName}`,
      main: `${merchantHeader(shell, summaryOf(page, link))}
<h1 class="section">${escapeHtml(m.pageTitle)}</h1>
${errorBox}
<form method="post" action="${escapeHtml(path)}" novalidate>
<input type="hidden" name="form_token" value="${escapeHtml(token)}">
${amountPart}
${description}
${row.expires_at === null ? '' : `<p class="hint" data-testid="valid-until">${escapeHtml(m.validUntil(row.expires_at))}</p>`}
<button class="button" type="submit">${escapeHtml(button)}</button>
</form>`,
    });
  };

  const selfPath = (id: string) => `/l/${encodeURIComponent(id)}`;

  router.get('/l/:id', async (ctx) => {
    const id = ctx.params.id ?? '';
    const page = pageOf(ctx, selfPath(id));
    const link = await lookUpBuyerLink(deps, id);
    if (link === undefined) {
      return send(
        ctx,
        { ...page, shell: { ...page.shell, selfPath: null } },
        404,
        problem(page, page.m.notFoundTitle, page.m.notFoundText, 'not_found'),
      );
    }
    if (link.status !== 'active') return refusal(ctx, page, link.status);
    send(ctx, page, 200, payPage(page, link, `${selfPath(id)}${langQuery(page)}`, null, ''));
  });

  router.post('/l/:id', async (ctx) => {
    const id = ctx.params.id ?? '';
    const fields = await readFormBody(ctx.req);
    const page = pageOf(ctx, selfPath(id));
    const link = await lookUpBuyerLink(deps, id);
    if (link === undefined) {
      return send(ctx, page, 404, problem(page, page.m.notFoundTitle, page.m.notFoundText, 'not_found'));
    }
    const check = checkFormToken(
      options.secret,
      tokenSubject(id),
      'method',
      fields.get('form_token'),
      deps.clock.nowMs(),
    );
    if (!check.ok) {
      const { t } = page.shell;
      return send(ctx, page, 403, problem(page, t.forbiddenTitle, t.forbiddenText, 'forbidden', selfPath(id)));
    }
    const chosen = fields.get('amount') ?? '';
    const result = await openPaymentLink(deps, link, chosen, ctx.ip);
    switch (result.kind) {
      case 'checkout': {
        setPageHeaders(ctx, page.shell.nonce, null, publicOrigin);
        ctx.status = 303;
        const lang = page.shell.carried.lang;
        ctx.redirect(lang === null ? result.checkoutUrl : `${result.checkoutUrl}?lang=${lang}`);
        return;
      }
      case 'refused':
        return refusal(ctx, page, result.status);
      case 'invalid_amount': {
        const message = page.m.invalidAmount(link.row.amount_min ?? 1, link.row.amount_max ?? 1);
        return send(
          ctx,
          page,
          422,
          payPage(page, link, `${selfPath(id)}${langQuery(page)}`, message, chosen.slice(0, 20)),
        );
      }
      case 'too_many':
        ctx.set('Retry-After', String(result.retryAfterSeconds));
        return send(ctx, page, 429, problem(page, page.m.tooManyTitle, page.m.tooManyText, 'too_many', selfPath(id)));
      case 'unavailable':
        return send(
          ctx,
          page,
          503,
          problem(page, page.m.unavailableTitle, page.m.unavailableText, 'unavailable', selfPath(id)),
        );
    }
  });

  router.get('/l/:id/thanks', async (ctx) => {
    const id = ctx.params.id ?? '';
    const page = pageOf(ctx, null);
    const link = await lookUpBuyerLink(deps, id);
    if (link === undefined) {
      return send(ctx, page, 404, problem(page, page.m.notFoundTitle, page.m.notFoundText, 'not_found'));
    }
    const paymentId = typeof ctx.query.payment_uuid === 'string' ? ctx.query.payment_uuid : '';
    const payment = /^[0-9a-f-]{36}$/.test(paymentId) ? await linkPaymentFor(deps, link, paymentId) : undefined;
    const paid = payment !== undefined && (payment.status === 'completed' || payment.status === 'refunded');
    if (paid) return send(ctx, page, 200, problem(page, page.m.thanksTitle, page.m.thanksText, 'paid'));
    send(
      ctx,
      page,
      200,
      problem(
        page,
        page.m.notPaidTitle,
        page.m.notPaidText,
        'not_paid',
        link.status === 'active' ? selfPath(id) : null,
      ),
    );
  });

  return router;
}

function langQuery(page: Page): string {
  const lang = page.shell.carried.lang;
  return lang === null ? '' : `?lang=${lang}`;
}
