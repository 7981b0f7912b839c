/**
 * Telcell Wallet (Telcell Money) through its WEB shop gateway (docs/processors.md "Telcell"):
 *
 * - `start` calls nothing: the buyer's browser posts the signed PostInvoice form to Telcell, where
 *   the buyer pays from the wallet. Telcell issues the invoice then, so its id is not known yet.
 * - Telcell's server calls RESULT_URL (./callback.ts) with the invoice id and the outcome, signed;
 *   the buyer's browser comes back on REDIRECT_URL. Both are the gateway's callback address,
 *   registered at Telcell by the merchant. The core stores a verified callback's invoice id on the
 *   session as its `reference`.
 * - `status` reads the invoice (`session.reference`) back with `check_bill`, and answers pending
 *   without calling Telcell while no invoice id is known; `refund` is `cancel_bill`, which cancels a
 *   paid invoice for its whole amount only (by `issuer_id` alone when no invoice id is known);
 *   `refundStatus` reads the invoice back again.
 */
import type { Payment } from '../../domain/payment.js';
import { ProcessorCallError, type ProcessorReply } from '../http.js';
import type {
  Processor,
  ProcessorCall,
  ProcessorSession,
  RefundAttempt,
  RefundRequest,
  RefundStatusRequest,
  StatusAnswer,
} from '../processor.js';
import { telcellCallback } from './callback.js';
import { type TelcellConfig, telcellConfigSchema } from './config.js';
import {
  cancelOutcome,
  fromWireSum,
  invoiceOutcome,
  readOrderNumber,
  telcellLanguage,
  toIssuerId,
  toWirePrice,
} from './map.js';
import {
  type BillRecord,
  base64Text,
  cancelBillChecksum,
  checkBillChecksum,
  type PostInvoiceForm,
  postInvoiceSecurityCode,
  readBillRecord,
  TELCELL_CURRENCY_SIGN,
} from './wire.js';

/** `start` makes no call (the buyer's browser goes to Telcell); kept for the table of timeouts. */
export const TELCELL_START_TIMEOUT_MS = 15_000;
/** `check_bill` for a payment's status. */
export const TELCELL_STATUS_TIMEOUT_MS = 10_000;
/** `cancel_bill`. */
export const TELCELL_REFUND_TIMEOUT_MS = 20_000;
/** `check_bill` for a refund's status. */
export const TELCELL_REFUND_STATUS_TIMEOUT_MS = 10_000;

export interface TelcellTimeouts {
  readonly statusMs: number;
  readonly refundMs: number;
  readonly refundStatusMs: number;
}

export const TELCELL_TIMEOUTS: TelcellTimeouts = {
  statusMs: TELCELL_STATUS_TIMEOUT_MS,
  refundMs: TELCELL_REFUND_TIMEOUT_MS,
  refundStatusMs: TELCELL_REFUND_STATUS_TIMEOUT_MS,
};

/** What the buyer sees on Telcell's page as the product. */
function productText(payment: Payment): string {
  return payment.description ?? `Order ${payment.orderId}`;
}

/** The PostInvoice form for a payment's session, signed. */
export function postInvoiceForm(
  call: ProcessorCall<TelcellConfig>,
  payment: Payment,
  session: ProcessorSession,
): PostInvoiceForm {
  const unsigned = {
    action: 'PostInvoice' as const,
    issuer: call.config.issuer,
    currency: TELCELL_CURRENCY_SIGN,
    price: toWirePrice(payment.amount),
    product: base64Text(productText(payment)),
    issuer_id: toIssuerId(session.orderNumber),
    valid_days: String(call.config.valid_days),
    lang: telcellLanguage(call.language),
  };
  return { ...unsigned, security_code: postInvoiceSecurityCode(call.config.shop_key, unsigned) };
}

type Sent =
  | { readonly kind: 'reply'; readonly reply: ProcessorReply }
  | { readonly kind: 'failed'; readonly reached: boolean; readonly detail: string };

/** Posts a form to the gateway's base URL. */
async function postForm(
  call: ProcessorCall<TelcellConfig>,
  fields: Readonly<Record<string, string>>,
  timeoutMs: number,
): Promise<Sent> {
  try {
    const reply = await call.http.request({
      method: 'POST',
      url: call.config.base_url,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
      timeoutMs,
    });
    return { kind: 'reply', reply };
  } catch (error) {
    if (error instanceof ProcessorCallError) return { kind: 'failed', reached: error.reached, detail: error.message };
    throw error;
  }
}

type BillRead =
  | { readonly kind: 'record'; readonly record: BillRecord }
  | { readonly kind: 'unreadable'; readonly detail: string };

/** `check_bill` of one invoice: its record, or why there is none. */
async function checkBill(call: ProcessorCall<TelcellConfig>, invoice: string, timeoutMs: number): Promise<BillRead> {
  const { issuer, shop_key } = call.config;
  const sent = await postForm(
    call,
    { 'check_bill:issuer': issuer, invoice, checksum: checkBillChecksum(shop_key, issuer, invoice) },
    timeoutMs,
  );
  if (sent.kind === 'failed') return { kind: 'unreadable', detail: `check_bill: ${sent.detail}` };
  if (sent.reply.status !== 200) return { kind: 'unreadable', detail: `check_bill: HTTP ${sent.reply.status}` };
  const record = readBillRecord(sent.reply.body);
  if (record === null) return { kind: 'unreadable', detail: 'check_bill answered an error, not the invoice' };
  if (record.invoice !== invoice) return { kind: 'unreadable', detail: 'check_bill answered about another invoice' };
  return { kind: 'record', record };
}

/**
 * Whether an invoice record is about this session's order. An absent `issuer_id` is not held
 * against it when the invoice came from Telcell's own callback; `strict` (an invoice id a person
 * gave) requires the record to name the order.
 */
function recordOfOrder(record: BillRecord, session: ProcessorSession, strict = false): boolean {
  if (record.issuer_id === undefined) return !strict;
  return readOrderNumber(record.issuer_id) === session.orderNumber;
}

async function readStatus(
  call: ProcessorCall<TelcellConfig>,
  payment: Payment,
  session: ProcessorSession,
  timeoutMs: number,
  strict = false,
): Promise<StatusAnswer> {
  const invoice = session.reference;
  // No verified callback has named the invoice yet: Telcell has told us nothing, keep waiting.
  if (invoice === null) return { kind: 'pending', failureCode: 'processor_timeout', cardLast4: null };
  const read = await checkBill(call, invoice, timeoutMs);
  if (read.kind === 'unreadable') return { kind: 'unavailable', detail: read.detail };
  const { record } = read;
  if (!recordOfOrder(record, session, strict)) {
    return {
      kind: 'unavailable',
      detail:
        record.issuer_id === undefined
          ? 'check_bill: the invoice record does not name its order'
          : 'check_bill: the invoice is of another order',
    };
  }
  const outcome = invoiceOutcome(record.status);
  switch (outcome.kind) {
    case 'paid': {
      const paid = record.sum === undefined ? payment.amount : fromWireSum(record.sum);
      if (paid !== payment.amount)
        return { kind: 'unavailable', detail: 'check_bill: PAID for another sum than the payment' };
      return { kind: 'paid', rrn: record.invoice, cardLast4: null, processor: 'telcell' };
    }
    case 'declined':
      return { kind: 'declined', failureCode: outcome.failureCode, cardLast4: null };
    case 'pending':
      return { kind: 'pending', failureCode: outcome.failureCode, cardLast4: null };
  }
}

async function cancelBill(
  call: ProcessorCall<TelcellConfig>,
  request: RefundRequest,
  timeoutMs: number,
): Promise<RefundAttempt> {
  const { payment, session } = request;
  // cancel_bill gives the whole invoice back; Telcell has no partial refund.
  if (request.amount !== payment.amount || payment.refundedAmount !== 0)
    return { kind: 'declined', code: 'refund_not_supported' };
  if (session === null) return { kind: 'declined', code: 'refund_declined' };
  const { issuer, shop_key } = call.config;
  // Without the invoice id (no verified callback named it), cancel_bill finds the invoice by issuer_id.
  const invoice = session.reference;
  const issuerId = toIssuerId(session.orderNumber);
  const fields: Record<string, string> = { 'cancel_bill:issuer': issuer };
  if (invoice !== null) fields.invoice = invoice;
  fields.issuer_id = issuerId;
  fields.checksum = cancelBillChecksum(shop_key, issuer, invoice ?? '', issuerId);
  const sent = await postForm(call, fields, timeoutMs);
  if (sent.kind === 'failed') return sent.reached ? { kind: 'unknown' } : { kind: 'unavailable' };
  // An error page may come after the cancellation was made.
  if (sent.reply.status >= 500) return { kind: 'unknown' };
  if (sent.reply.status !== 200) return { kind: 'declined', code: 'refund_declined' };
  const record = readBillRecord(sent.reply.body);
  // Telcell answered with an error text instead of the invoice: it cancelled nothing.
  if (record === null) return { kind: 'declined', code: 'refund_declined' };
  if ((invoice !== null && record.invoice !== invoice) || !recordOfOrder(record, session)) return { kind: 'unknown' };
  switch (cancelOutcome(record.status)) {
    case 'cancelled':
      return { kind: 'refunded', reference: record.invoice };
    case 'not_cancelled':
      return { kind: 'declined', code: 'refund_declined' };
    case 'unknown':
      return { kind: 'unknown' };
  }
}

async function readRefund(
  call: ProcessorCall<TelcellConfig>,
  request: RefundStatusRequest,
  timeoutMs: number,
): Promise<RefundAttempt> {
  // The refund's reference (the invoice cancel_bill answered about), else the session's.
  const invoice = request.processorReference ?? request.session?.reference ?? null;
  // check_bill needs the invoice id; without it the refund's outcome cannot be read.
  if (invoice === null) return { kind: 'unavailable' };
  const read = await checkBill(call, invoice, timeoutMs);
  if (read.kind === 'unreadable') return { kind: 'unavailable' };
  if (request.session !== null && !recordOfOrder(read.record, request.session)) return { kind: 'unavailable' };
  switch (cancelOutcome(read.record.status)) {
    case 'cancelled':
      // The payment was paid (only paid payments are refunded): cancelled now means given back.
      return { kind: 'refunded', reference: read.record.invoice };
    case 'not_cancelled':
      return { kind: 'declined', code: 'refund_declined' };
    case 'unknown':
      return { kind: 'unavailable' };
  }
}

/** A wallet with a "T" on its flap. */
const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 32" width="48" height="32" aria-hidden="true">' +
  '<rect x="3" y="5" width="42" height="24" rx="4" fill="none" stroke="currentColor" stroke-width="2"/>' +
  '<path d="M31 13h14v10H31a5 5 0 0 1 0-10z" fill="#f47b20"/>' +
  '<circle cx="32" cy="18" r="1.6" fill="#fff"/>' +
  '<path d="M9 11h12M15 11v12" fill="none" stroke="currentColor" stroke-width="2.6" stroke-linecap="round"/>' +
  '</svg>';

/** The adapter, with its calls' timeouts (tests shorten them). */
export function createTelcellProcessor(timeouts: TelcellTimeouts = TELCELL_TIMEOUTS): Processor<TelcellConfig> {
  return {
    slug: 'telcell',
    displayName: 'Telcell Wallet',
    logoSvg: LOGO_SVG,
    configSchema: telcellConfigSchema,
    partialRefunds: false,
    async start(call, payment, session) {
      if (payment.currency !== 'AMD')
        return { kind: 'refused', failureCode: 'general_failure', detail: 'Telcell takes AMD only' };
      return {
        kind: 'redirect',
        reference: null,
        redirect: { method: 'POST', url: call.config.base_url, fields: postInvoiceForm(call, payment, session) },
      };
    },
    status: (call, payment, session) => readStatus(call, payment, session, timeouts.statusMs),
    // Only Telcell's callback names the invoice: when it was lost, the merchant gives the invoice id.
    settleByReference: (call, payment, session) => readStatus(call, payment, session, timeouts.statusMs, true),
    callback: telcellCallback,
    refund: (call, request) => cancelBill(call, request, timeouts.refundMs),
    refundStatus: (call, request) => readRefund(call, request, timeouts.refundStatusMs),
  };
}

export const telcellProcessor: Processor<TelcellConfig> = createTelcellProcessor();
