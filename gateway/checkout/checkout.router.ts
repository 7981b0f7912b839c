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
import type { GatewayContext, GatewayState } from '../api/context.js';
import type { Payment } from '../domain/payment.js';
import { beginAtProcessor, pendingRedirect, returnFromProcessor } from '../payments/processor-payments.service.js';
import { payWithTestCard } from '../payments/test-card.service.js';
import { isKnownProcessor, processorFor } from '../processors/registry.js';
import type { Deps } from '../runtime/deps.js';
import { failureCodeOf, offeredMethods } from './checkout.service.js';
import { readFormBody } from './form-body.js';
import { cancelDestination, withCarried } from './links.js';
import { cancelledPage, completedPage, expiredPage, failedPage, refundedPage, waitingPage } from './pages.js';
import { checkoutRenders } from './renders.js';
import { checkoutVisits, type Visit } from './visit.js';

export interface CheckoutOptions {
  /** The service secret: signs the form tokens. */
  readonly secret: string;
}

export function checkoutRouter(deps: Deps, options: CheckoutOptions): Router<GatewayState> {
  const router = new Router<GatewayState>();
  const publicUrl = deps.config.publicUrl;
  const visits = checkoutVisits(deps, options.secret);
  const { send, redirect, pageUrl, begin, formTokenValid } = visits;
  const { summaryOf, renderPending, renderTestPage, resultPage, renderHandoff, unconfirmedBy } = checkoutRenders(
    deps,
    options.secret,
    visits,
  );

  /** The processor's page; our own pages (the sandbox's) keep the embedding parameters. */
  const processorPageUrl = (visit: Visit, payment: Payment): string | null => {
    if (payment.processor === null || !isKnownProcessor(payment.processor)) return null;
    const url = processorFor(payment.processor).paymentPageUrl?.(payment, publicUrl);
    if (url === undefined) return null;
    return url.startsWith(`${publicUrl}/checkout/`) ? withCarried(url, visit.shell.carried) : url;
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
