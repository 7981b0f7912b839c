/**
 * The checkout's pages as one visit renders them: the payment's summary for the buyer, the methods
 * (pending), the sandbox's test card page, a result page, and the handoff to a processor's page.
 */
import type { GatewayContext } from '../api/context.js';
import { pricedAs } from '../domain/payment.js';
import { formatMoney, formatRate } from '../i18n/format.js';
import { methodName } from '../i18n/method-names.js';
import { awaitingReference } from '../payments/awaiting-reference.js';
import type { BuyerRedirect } from '../processors/processor.js';
import { isKnownProcessor, processorFor } from '../processors/registry.js';
import { SANDBOX_CARDS } from '../processors/sandbox/map.js';
import type { Deps } from '../runtime/deps.js';
import { offeredMethods } from './checkout.service.js';
import { issueFormToken } from './form-token.js';
import type { PaymentSummary } from './layout.js';
import { checkoutPath, shopUrl } from './links.js';
import type { ResultMessage } from './page-script.js';
import { handoffPage, pendingPage, type ResultPage, testPaymentPage } from './pages.js';
import type { CheckoutVisits, Visit } from './visit.js';

function groupDigits(digits: string): string {
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

const TEST_CARDS = Object.entries(SANDBOX_CARDS).map(([digits, outcome]) => ({
  number: groupDigits(digits),
  outcome: outcome.kind === 'approved' ? ('approved' as const) : outcome.failureCode,
}));

export function checkoutRenders(deps: Deps, secret: string, visits: CheckoutVisits) {
  const { send } = visits;

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
      formToken: issueFormToken(secret, visit.token, 'method', deps.clock.nowMs()),
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
      formToken: issueFormToken(secret, visit.token, 'sandbox', deps.clock.nowMs()),
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
   * The buyer's name of the payment's method when its processor has not reported the payment and
   * cannot be asked without the id only its notice carries (Telcell's invoice); null otherwise.
   */
  const unconfirmedBy = async (visit: Visit): Promise<string | null> => {
    const { payment } = visit;
    const name = await awaitingReference(deps, payment);
    return name === null || payment.processor === null ? null : methodName(visit.shell.lang, payment.processor, name);
  };

  return { summaryOf, renderPending, renderTestPage, resultPage, renderHandoff, unconfirmedBy };
}
