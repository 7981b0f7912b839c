/**
 * The hosted checkout (server-rendered), all under `/checkout/:token`:
 *
 * - `GET  /checkout/:token`          the payment's page, by status (methods, waiting, result)
 * - `POST /checkout/:token/method`   the buyer chose a method: processing, then the processor's page
 * - `GET  /checkout/:token/sandbox`  the sandbox's test payment page
 * - `POST /checkout/:token/sandbox`  pay with a test card, then back to the payment's page
 * - `GET  /checkout/:token/cancel`   back to the shop's cancel_url (else return_url)
 *
 * Embedded by the browser SDK (`?embed=1&origin=...`), the pages report to the embedding origin
 * with postMessage instead of leaving for the shop. Form posts carry an HMAC form token and redirect
 * (303) only to our own pages; the buyer leaves for the shop from a GET page.
 */
import { Router } from '@koa/router';
import type { CheckoutRecord } from '../../storage/checkout.repository.js';
import type { GatewayContext, GatewayState } from '../api/context.js';
import { type Payment, pricedAs } from '../domain/payment.js';
import { formatMoney, formatRate } from '../i18n/format.js';
import { methodName } from '../i18n/method-names.js';
import { awaitingReference } from '../payments/awaiting-reference.js';
import { beginAtProcessor, pendingRedirect, returnFromProcessor } from '../payments/processor-payments.service.js';
import { payWithTestCard } from '../payments/test-card.service.js';
import type { BuyerRedirect } from '../processors/processor.js';
import { isKnownProcessor, processorFor } from '../processors/registry.js';
import { SANDBOX_CARDS } from '../processors/sandbox/map.js';
import type { Deps } from '../runtime/deps.js';
import { failureCodeOf, lookUpCheckout, offeredMethods } from './checkout.service.js';
import { type FormFields, readFormBody } from './form-body.js';
import { checkFormToken, type FormPurpose, issueFormToken } from './form-token.js';
import { embedOriginAllowed, type FramingPolicy, framingPolicy } from './framing.js';
import { chooseLanguage, DICTIONARIES, isLanguage, type Language, type Messages } from './i18n/index.js';
import { type Carried, type CheckoutPage, cancelDestination, checkoutPath, shopUrl, withCarried } from './links.js';
import {
  cancelledPage,
  completedPage,
  expiredPage,
  failedPage,
  handoffPage,
  type PaymentSummary,
  pendingPage,
  problemPage,
  type ResultMessage,
  type ResultPage,
  refundedPage,
  type Shell,
  testPaymentPage,
  waitingPage,
} from './pages.js';
import { newNonce, setPageHeaders } from './security.js';

export interface CheckoutOptions {
  /** The service secret: signs the form tokens. */
  readonly secret: string;
}

/** One request's view of the checkout: the payment, how it may be framed, and the page shell. */
interface Visit {
  readonly token: string;
  readonly record: CheckoutRecord;
  readonly payment: Payment;
  readonly framing: FramingPolicy;
  readonly shell: Shell;
  readonly t: Messages;
}

function queryString(ctx: GatewayContext, name: string): string | undefined {
  const value = ctx.query[name];
  return typeof value === 'string' ? value : undefined;
}

function groupDigits(digits: string): string {
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

const TEST_CARDS = Object.entries(SANDBOX_CARDS).map(([digits, outcome]) => ({
  number: groupDigits(digits),
  outcome: outcome.kind === 'approved' ? ('approved' as const) : outcome.failureCode,
}));

export function checkoutRouter(deps: Deps, options: CheckoutOptions): Router<GatewayState> {
  const router = new Router<GatewayState>();
  const publicUrl = deps.config.publicUrl;
  const publicOrigin = new URL(publicUrl).origin;

  const send = (
    ctx: GatewayContext,
    status: number,
    framing: FramingPolicy | null,
    nonce: string,
    html: string,
    formOrigin: string | null = null,
  ) => {
    setPageHeaders(ctx, nonce, framing, publicOrigin, formOrigin);
    ctx.status = status;
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = html;
  };

  const redirect = (ctx: GatewayContext, framing: FramingPolicy | null, nonce: string, url: string) => {
    setPageHeaders(ctx, nonce, framing, publicOrigin);
    ctx.status = 303;
    ctx.redirect(url);
  };

  const pageUrl = (visit: Visit, page: CheckoutPage) =>
    `${publicUrl}${checkoutPath(visit.token, page, visit.shell.carried)}`;

  /** The processor's page; our own pages (the sandbox's) keep the embedding parameters. */
  const processorPageUrl = (visit: Visit, payment: Payment): string | null => {
    if (payment.processor === null || !isKnownProcessor(payment.processor)) return null;
    const url = processorFor(payment.processor).paymentPageUrl?.(payment, publicUrl);
    if (url === undefined) return null;
    return url.startsWith(`${publicUrl}/checkout/`) ? withCarried(url, visit.shell.carried) : url;
  };

  /**
   * Reads the payment behind the link and everything the page needs. Answers the page itself
   * (404 unknown link, 410 dead link, 400 refused embedding origin) and undefined when it did.
   */
  const begin = async (ctx: GatewayContext, selfPage: CheckoutPage | null): Promise<Visit | undefined> => {
    const token = ctx.params.token ?? '';
    const asked = queryString(ctx, 'lang');
    const lang: Language = chooseLanguage(asked, ctx.get('Accept-Language'));
    const t = DICTIONARIES[lang];
    const nonce = newNonce();
    const carried: Carried = { embedOrigin: null, lang: isLanguage(asked) ? asked : null };
    const selfPath = (page: CheckoutPage | null) =>
      page === null ? null : `/checkout/${encodeURIComponent(token)}${page === '' ? '' : `/${page}`}`;
    const lookup = await lookUpCheckout(deps, token);
    if (lookup.kind === 'unknown') {
      const shell: Shell = { t, lang, nonce, carried, selfPath: null };
      send(ctx, 404, null, nonce, problemPage(shell, { title: t.notFoundTitle, text: t.notFoundText }));
      return undefined;
    }
    const { record } = lookup;
    const framing = framingPolicy(record.payment, { host: record.domainHost, hosted: record.hostedDomain });
    let shell: Shell = { t, lang, nonce, carried, selfPath: selfPath(selfPage) };
    if (queryString(ctx, 'embed') === '1') {
      const origin = queryString(ctx, 'origin') ?? '';
      if (!embedOriginAllowed(framing, origin)) {
        const plain: Shell = { ...shell, selfPath: null };
        send(ctx, 400, framing, nonce, problemPage(plain, { title: t.badEmbedTitle, text: t.badEmbedText }));
        return undefined;
      }
      shell = { ...shell, carried: { ...carried, embedOrigin: origin } };
    }
    if (lookup.kind === 'gone') {
      const { payment } = record;
      const paid = payment.status === 'completed' || payment.status === 'refunded' || payment.status === 'authorized';
      const result: ResultMessage | null =
        shell.carried.embedOrigin === null || paid
          ? null
          : { status: 'expired', payment_uuid: payment.uuid, order_id: payment.orderId, message: t.goneTitle };
      send(ctx, 410, framing, nonce, problemPage(shell, { title: t.goneTitle, text: t.goneText, result }));
      return undefined;
    }
    return { token, record, payment: record.payment, framing, shell, t };
  };

  /** Checks a form post's token; answers 403 and false when it is missing, changed or too old. */
  const formTokenValid = (ctx: GatewayContext, visit: Visit, purpose: FormPurpose, fields: FormFields): boolean => {
    const check = checkFormToken(options.secret, visit.token, purpose, fields.get('form_token'), deps.clock.nowMs());
    if (check.ok) return true;
    const { t } = visit;
    send(
      ctx,
      403,
      visit.framing,
      visit.shell.nonce,
      problemPage(visit.shell, {
        title: t.forbiddenTitle,
        text: t.forbiddenText,
        link: { href: checkoutPath(visit.token, '', visit.shell.carried), label: t.backToPayment },
      }),
    );
    return false;
  };

  const summaryOf = (visit: Visit): PaymentSummary => {
    const { payment, record } = visit;
    const { lang } = visit.shell;
    const priced = pricedAs(payment);
    const charge = payment.charge;
    return {
      merchantName: record.merchantName,
      host: record.hostedDomain ? null : record.domainHost,
      amount: formatMoney(lang, priced.amount, priced.currency),
      charge:
        charge === null
          ? null
          : {
              amount: formatMoney(lang, charge.amount, charge.currency),
              rate: formatRate(lang, priced.currency, charge.fx_rate, charge.currency),
            },
      orderId: payment.orderId,
      description: payment.description,
      sandbox: payment.sandbox,
    };
  };

  const renderPending = async (ctx: GatewayContext, visit: Visit, status: number, error: string | null) => {
    const { payment } = visit;
    const methods = await offeredMethods(deps, visit.record);
    const named = payment.processor !== null && (methods as string[]).includes(payment.processor);
    const minutesLeft = Math.max(1, Math.ceil((Date.parse(payment.expiresAt) - deps.clock.nowMs()) / 60_000));
    const html = pendingPage(visit.shell, {
      summary: summaryOf(visit),
      methods: methods.map((slug) => ({
        slug,
        name: methodName(visit.shell.lang, slug, processorFor(slug).displayName),
        logoSvg: processorFor(slug).logoSvg,
      })),
      selected: named ? payment.processor : methods.length === 1 ? (methods[0] ?? null) : null,
      preselectedByShop: named,
      formAction: checkoutPath(visit.token, 'method', visit.shell.carried),
      formToken: issueFormToken(options.secret, visit.token, 'method', deps.clock.nowMs()),
      cancelHref: checkoutPath(visit.token, 'cancel', visit.shell.carried),
      minutesLeft,
      error,
    });
    send(ctx, status, visit.framing, visit.shell.nonce, html);
  };

  const renderTestPage = (ctx: GatewayContext, visit: Visit, status: number, error: string | null) => {
    const html = testPaymentPage(visit.shell, {
      summary: summaryOf(visit),
      cards: TEST_CARDS,
      formAction: checkoutPath(visit.token, 'sandbox', visit.shell.carried),
      formToken: issueFormToken(options.secret, visit.token, 'sandbox', deps.clock.nowMs()),
      cancelHref: checkoutPath(visit.token, 'cancel', visit.shell.carried),
      error,
    });
    send(ctx, status, visit.framing, visit.shell.nonce, html);
  };

  const resultPage = (visit: Visit, status: ResultMessage['status'] | null, message: string): ResultPage => ({
    summary: summaryOf(visit),
    shopHref: shopUrl(visit.payment.returnUrl, visit.payment),
    result:
      visit.shell.carried.embedOrigin === null || status === null
        ? null
        : { status, payment_uuid: visit.payment.uuid, order_id: visit.payment.orderId, message },
  });

  /** The step to a processor's page (`redirect` is where the processor told us to send the buyer). */
  const renderHandoff = (ctx: GatewayContext, visit: Visit, slug: string, redirect: BuyerRedirect) => {
    const html = handoffPage(visit.shell, {
      summary: summaryOf(visit),
      processorName: methodName(visit.shell.lang, slug, isKnownProcessor(slug) ? processorFor(slug).displayName : slug),
      handoff: redirect,
    });
    const formOrigin = redirect.method === 'POST' ? new URL(redirect.url).origin : null;
    send(ctx, 200, visit.framing, visit.shell.nonce, html, formOrigin);
  };

  /**
   * The buyer chose `slug` (or the merchant did, with `redirect_mode: direct`). The sandbox's page
   * is ours and is redirected to; a processor's page is reached through the handoff page (a form's
   * POST may only redirect to our own pages). A processor that could not start the payment leaves
   * it pending: the methods are shown again with the reason.
   */
  const chooseProcessor = async (ctx: GatewayContext, visit: Visit, slug: string, fromForm: boolean) => {
    const outcome = await beginAtProcessor(deps, visit.payment, slug, visit.shell.lang);
    switch (outcome.kind) {
      case 'unavailable':
        await renderPending(ctx, { ...visit, payment: outcome.payment }, 503, visit.t.methodUnavailable);
        return;
      case 'page':
        redirect(ctx, visit.framing, visit.shell.nonce, pageUrl(visit, ''));
        return;
      case 'redirect': {
        const target = outcome.redirect;
        if (target.method === 'GET' && target.url.startsWith(`${publicUrl}/checkout/`)) {
          redirect(ctx, visit.framing, visit.shell.nonce, withCarried(target.url, visit.shell.carried));
        } else if (fromForm) {
          // The payment's page now hands the buyer over (see the processing case below).
          redirect(ctx, visit.framing, visit.shell.nonce, pageUrl(visit, ''));
        } else {
          renderHandoff(ctx, { ...visit, payment: outcome.payment }, slug, target);
        }
        return;
      }
    }
  };

  /**
   * The buyer's name of the payment's method when its processor has not reported the payment and
   * cannot be asked without the id only its notice carries (Telcell's invoice); null otherwise.
   */
  const unconfirmedBy = async (visit: Visit): Promise<string | null> => {
    const { payment } = visit;
    const name = await awaitingReference(deps, payment);
    return name === null || payment.processor === null ? null : methodName(visit.shell.lang, payment.processor, name);
  };

  /** A sandbox payment waiting for its card on the test page. */
  const awaitsTestCard = (payment: Payment) =>
    payment.status === 'processing' && payment.processor === 'sandbox' && payment.failureCode === null;

  router.get('/checkout/:token', async (ctx) => {
    const visit = await begin(ctx, '');
    if (visit === undefined) return;
    const { payment, t, shell } = visit;
    switch (payment.status) {
      case 'pending': {
        // HEAD (link previews, prefetchers) only looks: it never starts the payment.
        const direct = payment.redirectMode === 'direct' && ctx.method === 'GET';
        if (direct && payment.processor !== null && isKnownProcessor(payment.processor)) {
          const methods = await offeredMethods(deps, visit.record);
          if (methods.includes(payment.processor)) {
            await chooseProcessor(ctx, visit, payment.processor, false);
            return;
          }
        }
        await renderPending(ctx, visit, 200, null);
        return;
      }
      case 'processing': {
        // Still to pay: back to the processor's page (ours for the sandbox), unless the buyer came back.
        const own = payment.failureCode === null ? processorPageUrl(visit, payment) : null;
        const handoff = own === null && payment.failureCode === null ? await pendingRedirect(deps, payment) : null;
        if (own !== null) redirect(ctx, visit.framing, shell.nonce, own);
        else if (handoff !== null && payment.processor !== null) renderHandoff(ctx, visit, payment.processor, handoff);
        else
          send(ctx, 200, visit.framing, shell.nonce, waitingPage(shell, summaryOf(visit), await unconfirmedBy(visit)));
        return;
      }
      // A held card (`manual` capture) is done for the buyer: the shop takes the money when it ships.
      case 'authorized':
      case 'completed':
        send(
          ctx,
          200,
          visit.framing,
          shell.nonce,
          completedPage(shell, resultPage(visit, 'completed', t.completedText)),
        );
        return;
      case 'failed': {
        const message = t.failure[failureCodeOf(payment.failureCode)];
        send(ctx, 200, visit.framing, shell.nonce, failedPage(shell, resultPage(visit, 'failed', message), message));
        return;
      }
      case 'expired': {
        // Back to the shop's return address, which reads the payment back and says what to do (pay
        // again): the cancel address may lead a buyer on a new session to an empty cart.
        // A processor that never reported the payment may have taken the money: the page says so.
        const unconfirmed = await unconfirmedBy(visit);
        const page = resultPage(visit, 'expired', unconfirmed === null ? t.expiredTitle : t.unconfirmedTitle);
        send(ctx, 200, visit.framing, shell.nonce, expiredPage(shell, page, unconfirmed));
        return;
      }
      case 'refunded':
        send(ctx, 200, visit.framing, shell.nonce, refundedPage(shell, resultPage(visit, null, t.refundedText)));
        return;
    }
  });

  router.post('/checkout/:token/method', async (ctx) => {
    const fields = await readFormBody(ctx.req);
    // Answered with the payment page (422), whose language links lead to it.
    const visit = await begin(ctx, '');
    if (visit === undefined || !formTokenValid(ctx, visit, 'method', fields)) return;
    const { payment } = visit;
    if (payment.status !== 'pending') {
      redirect(ctx, visit.framing, visit.shell.nonce, pageUrl(visit, ''));
      return;
    }
    const chosen = fields.get('processor') ?? '';
    const methods: readonly string[] = await offeredMethods(deps, visit.record);
    if (!isKnownProcessor(chosen) || !methods.includes(chosen)) {
      await renderPending(ctx, visit, 422, visit.t.chooseMethodError);
      return;
    }
    await chooseProcessor(ctx, visit, chosen, true);
  });

  /**
   * The buyer is back from the processor's page (its return address for this payment, or a fixed
   * one routed here). Nothing in the request is trusted: the status is read back from the
   * processor, then the payment's page shows where it stands.
   */
  const backFromProcessor = async (ctx: GatewayContext) => {
    const visit = await begin(ctx, null);
    if (visit === undefined) return;
    await returnFromProcessor(deps, visit.payment);
    redirect(ctx, visit.framing, visit.shell.nonce, pageUrl(visit, ''));
  };
  router.get('/checkout/:token/return', backFromProcessor);
  router.post('/checkout/:token/return', async (ctx) => {
    await readFormBody(ctx.req);
    await backFromProcessor(ctx);
  });

  router.get('/checkout/:token/sandbox', async (ctx) => {
    const visit = await begin(ctx, 'sandbox');
    if (visit === undefined) return;
    if (!awaitsTestCard(visit.payment)) {
      redirect(ctx, visit.framing, visit.shell.nonce, pageUrl(visit, ''));
      return;
    }
    renderTestPage(ctx, visit, 200, null);
  });

  router.post('/checkout/:token/sandbox', async (ctx) => {
    const fields = await readFormBody(ctx.req);
    const visit = await begin(ctx, 'sandbox');
    if (visit === undefined || !formTokenValid(ctx, visit, 'sandbox', fields)) return;
    if (!awaitsTestCard(visit.payment)) {
      redirect(ctx, visit.framing, visit.shell.nonce, pageUrl(visit, ''));
      return;
    }
    const cardNumber = fields.get('card_number');
    const paid = await payWithTestCard(deps, visit.payment, cardNumber);
    if (!paid.ok) {
      const message = (cardNumber ?? '').trim() === '' ? visit.t.cardNumberMissing : visit.t.cardNumberLength;
      renderTestPage(ctx, visit, 422, message);
      return;
    }
    redirect(ctx, visit.framing, visit.shell.nonce, pageUrl(visit, ''));
  });

  router.get('/checkout/:token/cancel', async (ctx) => {
    const visit = await begin(ctx, null);
    if (visit === undefined) return;
    const { payment, shell, t } = visit;
    if (payment.status !== 'pending' && payment.status !== 'processing') {
      redirect(ctx, visit.framing, shell.nonce, pageUrl(visit, ''));
      return;
    }
    if (shell.carried.embedOrigin === null) {
      // Leaving for the shop from a GET: the payment stays as it is and expires on its own.
      redirect(ctx, visit.framing, shell.nonce, cancelDestination(payment));
      return;
    }
    const page = { ...resultPage(visit, 'cancelled', t.cancelledText), shopHref: cancelDestination(payment) };
    send(ctx, 200, visit.framing, shell.nonce, cancelledPage(shell, page));
  });

  return router;
}
