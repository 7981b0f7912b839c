/**
 * Addresses the checkout sends the buyer to: its own pages (carrying the embedding and language
 * parameters through the whole flow) and the shop's return and cancel URLs.
 */
import type { Language } from './i18n/index.js';

/** What every page of one checkout visit passes on to the next: `embed`, `origin`, `lang`. */
export interface Carried {
  /** The embedding page's origin, when the checkout runs inside the browser SDK's iframe. */
  readonly embedOrigin: string | null;
  /** The language asked for with `?lang=` (an Accept-Language choice is not carried). */
  readonly lang: Language | null;
}

export function carriedQuery(carried: Carried): string {
  const params = new URLSearchParams();
  if (carried.embedOrigin !== null) {
    params.set('embed', '1');
    params.set('origin', carried.embedOrigin);
  }
  if (carried.lang !== null) params.set('lang', carried.lang);
  const query = params.toString();
  return query === '' ? '' : `?${query}`;
}

export type CheckoutPage = '' | 'method' | 'sandbox' | 'cancel';

/** The path of one of the checkout's pages (relative to the service origin). */
export function checkoutPath(token: string, page: CheckoutPage, carried: Carried): string {
  const suffix = page === '' ? '' : `/${page}`;
  return `/checkout/${encodeURIComponent(token)}${suffix}${carriedQuery(carried)}`;
}

/** A URL of ours (`{publicUrl}/checkout/...`) with the carried parameters added to its query. */
export function withCarried(url: string, carried: Carried): string {
  const extra = carriedQuery(carried);
  if (extra === '') return url;
  return appendQuery(url, extra.slice(1));
}

/** Adds `query` (already encoded) to a URL, keeping its own query exactly and its fragment last. */
function appendQuery(url: string, query: string): string {
  const hash = url.indexOf('#');
  const base = hash === -1 ? url : url.slice(0, hash);
  const fragment = hash === -1 ? '' : url.slice(hash);
  const separator = base.includes('?') ? (base.endsWith('?') || base.endsWith('&') ? '' : '&') : '?';
  return `${base}${separator}${query}${fragment}`;
}

/** The names of the query parameters a URL already carries, decoded as a server reads them. */
function queryKeys(url: string): Set<string> {
  const hash = url.indexOf('#');
  const base = hash === -1 ? url : url.slice(0, hash);
  const question = base.indexOf('?');
  if (question === -1) return new Set();
  return new Set(new URLSearchParams(base.slice(question + 1)).keys());
}

/**
 * The shop's URL with `payment_uuid` and `order_id` appended, so the shop can read the payment
 * back; the URL's own query and fragment stay as they were. A parameter the merchant's URL already
 * carries is never added again (docs/decisions.md "Parameters added to the merchant's URLs"): a
 * server reading a repeated key keeps one of them (PHP the last), so adding ours would replace the
 * merchant's own value (a WooCommerce return URL's `order_id`).
 */
export function shopUrl(url: string, payment: { readonly uuid: string; readonly orderId: string }): string {
  const present = queryKeys(url);
  const params = new URLSearchParams();
  if (!present.has('payment_uuid')) params.set('payment_uuid', payment.uuid);
  if (!present.has('order_id')) params.set('order_id', payment.orderId);
  const query = params.toString();
  return query === '' ? url : appendQuery(url, query);
}

/** Where "cancel" leads: `cancel_url`, else `return_url`, with the two parameters. */
export function cancelDestination(payment: {
  readonly uuid: string;
  readonly orderId: string;
  readonly cancelUrl: string | null;
  readonly returnUrl: string;
}): string {
  return shopUrl(payment.cancelUrl ?? payment.returnUrl, payment);
}
