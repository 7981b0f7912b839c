/**
 * Where Telcell calls the gateway (`/processors/telcell/callback`), registered at Telcell for both:
 *
 * - RESULT_URL: Telcell's server, GET or POST (form or JSON), with `invoice`, `issuer_id`,
 *   `payment_id`, `currency`, `sum`, `time`, `status` and `checksum` signed with the shop key. A
 *   good checksum still only makes the gateway read the status back (`check_bill`), as for every
 *   processor; a bad or missing one changes nothing and is refused. Answered `200 OK` (text/plain):
 *   Telcell's expected answer is not documented; one client answers an empty 200, another `OK`.
 * - REDIRECT_URL: the buyer's browser, GET with `order` (or `issuer_id`), unsigned: a status read,
 *   and a page that sends the buyer on to the payment's return page.
 *
 * `check_bill` needs Telcell's invoice id, which only the callback names: a verified callback's
 * invoice id is the decision's `reference`, which the core stores on the session before it reads
 * the status back, so that `status`, refunds and every instance find it as `session.reference`.
 */
import type { Payment } from '../../domain/payment.js';
import { safeEqual } from '../../runtime/hashing.js';
import type { CallbackAnswer, CallbackHandler, CallbackRequest, SessionKey } from '../processor.js';
import type { TelcellConfig } from './config.js';
import { readOrderNumber } from './map.js';
import { callbackInvoice, type ResultCallback, resultCallbackSchema, resultChecksum } from './wire.js';

/**
 * The request's fields, as PHP's `$_REQUEST` would see them: the query, then a JSON object's
 * string and number values, then a form body, each later source winning.
 */
export function callbackFields(request: CallbackRequest): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of request.query) fields[name] = value;
  if (request.json !== null && typeof request.json === 'object' && !Array.isArray(request.json)) {
    for (const [name, value] of Object.entries(request.json as Record<string, unknown>)) {
      if (typeof value === 'string') fields[name] = value;
      else if (typeof value === 'number' && Number.isFinite(value)) fields[name] = String(value);
    }
  }
  for (const [name, value] of request.form) fields[name] = value;
  return fields;
}

/** The buyer's browser on REDIRECT_URL: no checksum and no status, only the order. */
function isBuyerReturn(fields: Record<string, string>): boolean {
  return fields.checksum === undefined && fields.status === undefined;
}

/**
 * Whether the callback carries Telcell's checksum made with `shopKey`: first the PostInvoice form
 * (no `buyer`), then, when a `buyer` came, the bill API's form with it. Compared in constant time,
 * ignoring the hex digits' case (clients of both cases exist).
 */
export function verifyResultChecksum(shopKey: string, fields: ResultCallback): boolean {
  const given = fields.checksum.toLowerCase();
  if (safeEqual(given, resultChecksum(shopKey, fields, false))) return true;
  return fields.buyer !== undefined && safeEqual(given, resultChecksum(shopKey, fields, true));
}

const OK: CallbackAnswer = { status: 200, contentType: 'text/plain; charset=utf-8', body: 'OK' };
const BAD_CHECKSUM: CallbackAnswer = { status: 403, contentType: 'text/plain; charset=utf-8', body: 'bad checksum' };
const UNKNOWN_ORDER: CallbackAnswer = { status: 404, contentType: 'text/plain; charset=utf-8', body: 'unknown order' };

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** A page that moves the buyer on to the payment's return page (a plain link if refresh is off). */
function onwardPage(returnUrl: string): CallbackAnswer {
  const url = escapeHtml(returnUrl);
  return {
    status: 200,
    contentType: 'text/html; charset=utf-8',
    body:
      '<!doctype html><html><head><meta charset="utf-8">' +
      `<meta http-equiv="refresh" content="0;url=${url}"><title>Telcell</title></head>` +
      `<body><p><a href="${url}">Continue</a></p></body></html>`,
  };
}

const UNKNOWN_RETURN_PAGE: CallbackAnswer = {
  status: 404,
  contentType: 'text/html; charset=utf-8',
  body: '<!doctype html><html><head><meta charset="utf-8"><title>Telcell</title></head><body><p>This payment is not known here.</p></body></html>',
};

/** A signed callback that tells nothing new: the payment is already paid, or already over and still unpaid. */
function alreadyKnown(payment: Payment, status: string): boolean {
  switch (payment.status) {
    // Telcell holds nothing: no Telcell payment is ever authorized.
    case 'authorized':
    case 'completed':
    case 'refunded':
      return true;
    case 'failed':
    case 'expired':
      // Only a payment is news for a payment that is over (a late confirmation).
      return status !== 'PAID';
    case 'pending':
    case 'processing':
      return false;
  }
}

export const telcellCallback: CallbackHandler<TelcellConfig> = {
  identify(request): SessionKey | null {
    const fields = callbackFields(request);
    const named = fields.issuer_id ?? fields.order;
    if (named === undefined) return null;
    const orderNumber = readOrderNumber(named);
    return orderNumber === null ? null : { orderNumber };
  },

  decide(call, payment, session, request) {
    const fields = callbackFields(request);
    if (isBuyerReturn(fields)) return { outcome: 'read_back', answer: () => onwardPage(call.returnUrl) };
    const parsed = resultCallbackSchema.safeParse(fields);
    if (
      !parsed.success ||
      !verifyResultChecksum(call.config.shop_key, parsed.data) ||
      readOrderNumber(parsed.data.issuer_id) !== session.orderNumber
    ) {
      return { outcome: null, answer: () => BAD_CHECKSUM };
    }
    // The invoice id is stored even when nothing is read back (a refund needs it later), except on a
    // paid payment whose session already names the invoice that paid it: an older signed callback
    // of the same order (an invoice Telcell re-issued) must not move a refund onto another invoice.
    const paid = payment.status === 'completed' || payment.status === 'refunded';
    return {
      outcome: alreadyKnown(payment, parsed.data.status) ? null : 'read_back',
      answer: () => OK,
      ...(paid && session.reference !== null ? {} : { reference: callbackInvoice(parsed.data) }),
    };
  },

  unknown(request) {
    return isBuyerReturn(callbackFields(request)) ? UNKNOWN_RETURN_PAGE : UNKNOWN_ORDER;
  },
};
