/**
 * One request's view of the hosted checkout: the payment behind the link with how it may be framed
 * and the page shell (404 unknown link, 410 dead link, 400 refused embedding origin answered here),
 * the headers every answer carries, and the form tokens of its posts.
 */
import type { CheckoutRecord } from '../../storage/checkout.repository.js';
import type { GatewayContext } from '../api/context.js';
import type { Payment } from '../domain/payment.js';
import type { Deps } from '../runtime/deps.js';
import { lookUpCheckout } from './checkout.service.js';
import type { FormFields } from './form-body.js';
import { checkFormToken, type FormPurpose } from './form-token.js';
import { embedOriginAllowed, type FramingPolicy, framingPolicy } from './framing.js';
import { chooseLanguage, DICTIONARIES, isLanguage, type Language, type Messages } from './i18n/index.js';
import type { Shell } from './layout.js';
import { type Carried, type CheckoutPage, checkoutPath } from './links.js';
import type { ResultMessage } from './page-script.js';
import { problemPage } from './pages.js';
import { newNonce, setPageHeaders } from './security.js';

/** One request's view of the checkout: the payment, how it may be framed, and the page shell. */
export interface Visit {
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

export function checkoutVisits(deps: Deps, secret: string) {
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
    const check = checkFormToken(secret, visit.token, purpose, fields.get('form_token'), deps.clock.nowMs());
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

  return { send, redirect, pageUrl, begin, formTokenValid };
}

export type CheckoutVisits = ReturnType<typeof checkoutVisits>;
