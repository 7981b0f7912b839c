/**
 * Where Idram calls the gateway. Two addresses, both routed here by the core:
 *
 * - RESULT_URL (`/processors/idram/callback`), Idram's server, two form posts per payment: the
 *   unsigned precheck (`EDP_PRECHECK=YES`), answered `OK` only for a payment Idram may take now,
 *   then the confirmation signed with the merchant's secret (`EDP_CHECKSUM`), the only proof of
 *   payment Idram gives (it has no status API), applied as `paid`.
 * - SUCCESS_URL and FAIL_URL (`/processors/idram/return`), the buyer's browser coming back with
 *   `EDP_BILL_NO`, unsigned: it changes nothing.
 *
 * Answers follow the 2025 manual's rules for the confirmation: `OK` with HTTP 200 accepts; HTTP 200
 * with any other body makes Idram cancel the transaction (the buyer keeps the money); a non-2xx
 * answer leaves it paid at Idram with only an alert to Idram's support. Every refusal is therefore a
 * 200 with a non-`OK` body: a payment the gateway did not record is cancelled rather than taken.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Payment } from '../../domain/payment.js';
import type {
  CallbackAnswer,
  CallbackDecision,
  CallbackHandler,
  CallbackRequest,
  ProcessorCall,
  ProcessorSession,
} from '../processor.js';
import type { IdramConfig } from './config.js';
import { type IdramRefusal, refusalText, sameAmount } from './map.js';
import { IDRAM_ACCEPT, IdramBillNo, IdramConfirmation, IdramPrecheck } from './wire.js';

const PLAIN_TEXT = 'text/plain; charset=utf-8';

const accepted: CallbackAnswer = { status: 200, contentType: PLAIN_TEXT, body: IDRAM_ACCEPT };

function refused(reason: IdramRefusal): CallbackAnswer {
  return { status: 200, contentType: PLAIN_TEXT, body: refusalText(reason) };
}

function refusal(reason: IdramRefusal): CallbackDecision {
  return { outcome: null, answer: () => refused(reason) };
}

/** The request's fields: its form body when that names a bill, else its query (a GET return). */
function fieldsOf(request: CallbackRequest): URLSearchParams {
  return request.form.has('EDP_BILL_NO') ? request.form : request.query;
}

/** The `EDP_` fields (Idram's own), or null when one is repeated: nothing to guess between. */
function idramFields(params: URLSearchParams): Map<string, string> | null {
  const fields = new Map<string, string>();
  for (const [name, value] of params) {
    if (!name.startsWith('EDP_')) continue;
    if (fields.has(name)) return null;
    fields.set(name, value);
  }
  return fields;
}

/** MD5 of the seven fields as received, joined by colons, in the manual's order (lower-case hex). */
export function confirmationChecksum(fields: IdramConfirmation, secretKey: string): string {
  const signed = [
    fields.EDP_REC_ACCOUNT,
    fields.EDP_AMOUNT,
    secretKey,
    fields.EDP_BILL_NO,
    fields.EDP_PAYER_ACCOUNT,
    fields.EDP_TRANS_ID,
    fields.EDP_TRANS_DATE,
  ].join(':');
  return createHash('md5').update(signed, 'utf8').digest('hex');
}

/** Whether `EDP_CHECKSUM` is right, compared in constant time; the hex case is not documented, so either is taken. */
export function checksumMatches(fields: IdramConfirmation, secretKey: string): boolean {
  const expected = Buffer.from(confirmationChecksum(fields, secretKey), 'ascii');
  const received = Buffer.from(fields.EDP_CHECKSUM.toLowerCase(), 'ascii');
  return expected.length === received.length && timingSafeEqual(expected, received);
}

/** A payment Idram may take now: processing with Idram, before its expiry at the gateway. */
function payable(payment: Payment, secondsLeft: number): boolean {
  return payment.status === 'processing' && payment.processor === 'idram' && secondsLeft > 0;
}

function decidePrecheck(
  call: ProcessorCall<IdramConfig>,
  payment: Payment,
  session: ProcessorSession,
  fields: Map<string, string>,
): CallbackDecision {
  const parsed = IdramPrecheck.safeParse(Object.fromEntries(fields));
  if (!parsed.success) return refusal('malformed');
  const precheck = parsed.data;
  if (precheck.EDP_BILL_NO !== session.orderNumber) return refusal('unknown_order');
  if (precheck.EDP_REC_ACCOUNT !== call.config.rec_account) return refusal('wrong_account');
  if (!sameAmount(precheck.EDP_AMOUNT, payment.amount)) return refusal('wrong_amount');
  const secondsLeft = call.secondsLeft;
  return {
    outcome: null,
    answer: (current) => (payable(current, secondsLeft) ? accepted : refused('not_payable')),
  };
}

function decideConfirmation(
  call: ProcessorCall<IdramConfig>,
  payment: Payment,
  session: ProcessorSession,
  fields: Map<string, string>,
): CallbackDecision {
  const parsed = IdramConfirmation.safeParse(Object.fromEntries(fields));
  if (!parsed.success) return refusal('malformed');
  const confirmation = parsed.data;
  if (!checksumMatches(confirmation, call.config.secret_key)) return refusal('bad_checksum');
  if (confirmation.EDP_BILL_NO !== session.orderNumber) return refusal('unknown_order');
  if (confirmation.EDP_REC_ACCOUNT !== call.config.rec_account) return refusal('wrong_account');
  if (!sameAmount(confirmation.EDP_AMOUNT, payment.amount)) return refusal('wrong_amount');
  const transactionId = confirmation.EDP_TRANS_ID;
  return {
    outcome: { kind: 'paid', rrn: transactionId, cardLast4: null, processor: 'idram' },
    // `OK` only once the payment is recorded as paid by this very transaction (a replay included).
    // A payment the core would not complete (never started, or paid by another transaction) is
    // refused, so that Idram cancels this transaction instead of keeping money nobody recorded.
    answer: (current) =>
      (current.status === 'completed' || current.status === 'refunded') && current.rrn === transactionId
        ? accepted
        : refused('not_recorded'),
  };
}

export const idramCallback: CallbackHandler<IdramConfig> = {
  identify(request) {
    const billNo = IdramBillNo.safeParse(fieldsOf(request).get('EDP_BILL_NO'));
    return billNo.success ? { orderNumber: billNo.data } : null;
  },

  decide(call, payment, session, request) {
    const fields = idramFields(fieldsOf(request));
    if (fields === null) return refusal('malformed');
    if (fields.has('EDP_PRECHECK')) return decidePrecheck(call, payment, session, fields);
    if (fields.has('EDP_CHECKSUM')) return decideConfirmation(call, payment, session, fields);
    // The buyer's return to SUCCESS_URL or FAIL_URL, or a confirmation without its checksum.
    return refusal('unsigned');
  },

  unknown(request) {
    return refused(fieldsOf(request).has('EDP_BILL_NO') ? 'unknown_order' : 'malformed');
  },
};
