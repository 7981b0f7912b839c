/**
 * ArCa iPay: bank cards through the BPC host ArCa runs for Armenian banks (ArCa's own iPay host,
 * and the banks on it or on their own BPC host: Evoca, Converse, ACBA, IDBank, Inecobank,
 * Ardshinbank ...). One adapter: the bank's host is a setting.
 *
 * The flow: `register.do` registers the order (our order number, minor units, AMD) and answers
 * BPC's `orderId` and its payment page (`formUrl`); the buyer pays there and comes back to our
 * return address with `orderId=<orderId>` appended, unsigned. Whatever the return or a callback
 * says, the outcome is read back with `getOrderStatusExtended.do` and decided from `orderStatus`
 * alone (deposited: paid), never from `errorCode`. Refunds go through `refund.do` (partial and
 * repeated up to the payment), and a refund without an answer is settled by reading the order's
 * refunded total back. See docs/processors.md "ArCa".
 *
 * Holds: a payment with `capture_method: manual` is registered with `registerPreAuth.do` (the same
 * parameters): paid, its order is approved (`orderStatus` 1, held) and the payment authorized.
 * `deposit.do` captures all or part of it, `reverse.do` releases it; an unanswered one is settled by
 * reading the order back.
 */
import { z } from 'zod';
import { DAY_MS } from '../../domain/clock.js';
import { type Payment, registeredAmount } from '../../domain/payment.js';
import type { ProviderResult } from '../../domain/payment-lifecycle.js';
import { ProcessorCallError, type ProcessorReply } from '../http.js';
import type {
  HoldAttempt,
  HoldFinding,
  HoldRequest,
  Processor,
  ProcessorCall,
  ProcessorSession,
  RefundAttempt,
  RefundRequest,
  RefundStatusRequest,
  StartAnswer,
  StatusAnswer,
} from '../processor.js';
import { arcaCallback } from './callback.js';
import { type ArcaConfig, arcaConfigSchema } from './config.js';
import {
  actionCodeClass,
  arcaDescription,
  arcaLanguage,
  cardLast4FromMask,
  declineFailureCode,
  holdCallError,
  holdStateOf,
  isAmountOf,
  orderStatusOf,
  paymentOutcome,
  refundError,
  refundedMinorUnits,
  refundFinding,
  registerError,
  toMinorUnits,
} from './map.js';
import {
  AMD_CURRENCY,
  type ArcaOperation,
  arcaOrderId,
  depositRequest,
  mdOrderOf,
  type OrderStatusAnswer,
  orderStatusAnswer,
  orderStatusRequest,
  refundAnswer,
  refundRequest,
  registerAnswer,
  registerRequest,
  reverseRequest,
} from './wire.js';

/** How long each call waits for the whole answer. */
export const START_TIMEOUT_MS = 15_000;
export const STATUS_TIMEOUT_MS = 10_000;
export const REFUND_TIMEOUT_MS = 20_000;
export const REFUND_STATUS_TIMEOUT_MS = 10_000;
export const CAPTURE_TIMEOUT_MS = 20_000;
export const RELEASE_TIMEOUT_MS = 20_000;
export const HOLD_STATUS_TIMEOUT_MS = 10_000;

/**
 * How long a hold may be captured: 7 days, the usual life of an e-commerce card hold (the issuer's,
 * not documented for ArCa). `reverse.do` works only until the end of the bank day of the payment
 * (BPC): a release later is refused and the hold lapses at the issuer.
 */
export const ARCA_HOLD_MS = 7 * DAY_MS;

/** BPC's default (and the gateway's own) time to enter the card: the bank page never outlives the payment. */
export const MAX_SESSION_SECONDS = 1200;

type Reply =
  | { readonly kind: 'answer'; readonly json: unknown }
  | { readonly kind: 'failed'; readonly reached: boolean; readonly detail: string };

/** Text from the bank for the log: without the merchant's login or password, and short. */
function logText(config: ArcaConfig, text: string | null | undefined): string {
  if (text === null || text === undefined || text === '') return '';
  const clean = text.replaceAll(config.password, '***').replaceAll(config.username, '***');
  return ` (${clean.length > 200 ? `${clean.slice(0, 200)}...` : clean})`;
}

/** One call: a form-encoded POST; the answer's JSON whatever its content type says. */
async function post(
  call: ProcessorCall<ArcaConfig>,
  operation: ArcaOperation,
  fields: Readonly<Record<string, string>>,
  timeoutMs: number,
): Promise<Reply> {
  let reply: ProcessorReply;
  try {
    reply = await call.http.request({
      method: 'POST',
      url: `${call.config.base_url}${operation}.do`,
      // Some hosts answer 406 to `Accept: application/json` alone: their JSON is served as text/plain.
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: '*/*' },
      body: new URLSearchParams(fields).toString(),
      timeoutMs,
    });
  } catch (error) {
    if (error instanceof ProcessorCallError) {
      return { kind: 'failed', reached: error.reached, detail: `${operation}.do: ${error.message}` };
    }
    throw error;
  }
  if (reply.status !== 200) return { kind: 'failed', reached: true, detail: `${operation}.do: HTTP ${reply.status}` };
  try {
    return { kind: 'answer', json: JSON.parse(reply.body) };
  } catch {
    return { kind: 'failed', reached: true, detail: `${operation}.do: the answer is not JSON` };
  }
}

function credentials(config: ArcaConfig): { userName: string; password: string } {
  return { userName: config.username, password: config.password };
}

/** The bank's payment page of a registered order, as the host builds it (`formUrl`). */
export function paymentPageUrl(
  config: ArcaConfig,
  terminalId: string,
  orderId: string,
  language: 'hy' | 'ru' | 'en',
): string {
  const payment = config.base_url.slice(0, -'rest/'.length);
  return `${payment}merchants/${encodeURIComponent(terminalId)}/payment_${language}.html?mdOrder=${orderId}`;
}

/** Our return address with `orderId` appended, as the bank sends the buyer back (its own query kept). */
export function returnWithOrderId(returnUrl: string, orderId: string): string {
  const hash = returnUrl.indexOf('#');
  const base = hash === -1 ? returnUrl : returnUrl.slice(0, hash);
  const fragment = hash === -1 ? '' : returnUrl.slice(hash);
  return `${base}${base.includes('?') ? '&' : '?'}orderId=${encodeURIComponent(orderId)}${fragment}`;
}

type OrderRead =
  | { readonly kind: 'order'; readonly answer: OrderStatusAnswer; readonly orderStatus: number }
  | { readonly kind: 'unreadable'; readonly detail: string };

/**
 * The order as the bank has it (`getOrderStatusExtended.do`, by BPC's orderId when we have it,
 * else by our order number), checked to be ours: its order number, amount, currency and orderId
 * must be the payment's, or nothing is concluded from it.
 */
async function readOrder(
  call: ProcessorCall<ArcaConfig>,
  payment: Payment,
  session: ProcessorSession,
  timeoutMs: number,
): Promise<OrderRead> {
  const key = session.reference === null ? { orderNumber: session.orderNumber } : { orderId: session.reference };
  const request = orderStatusRequest.safeParse({ ...credentials(call.config), ...key });
  if (!request.success)
    return { kind: 'unreadable', detail: 'getOrderStatusExtended.do: the session has no valid key' };
  const reply = await post(call, 'getOrderStatusExtended', request.data, timeoutMs);
  if (reply.kind === 'failed') return { kind: 'unreadable', detail: reply.detail };
  const parsed = orderStatusAnswer.safeParse(reply.json);
  if (!parsed.success) return { kind: 'unreadable', detail: 'getOrderStatusExtended.do: the answer is not understood' };
  const answer = parsed.data;
  const orderStatus = answer.orderStatus;
  if (orderStatus === null || orderStatus === undefined) {
    return {
      kind: 'unreadable',
      detail: `getOrderStatusExtended.do: errorCode ${answer.errorCode} without orderStatus${logText(call.config, answer.errorMessage)}`,
    };
  }
  // errorCode 0: no error. 2 ("order declined") comes with a declined order on some hosts; it
  // never vouches for a paid one.
  const usable =
    answer.errorCode === '0' || (answer.errorCode === '2' && paymentOutcome(orderStatusOf(orderStatus)) !== 'paid');
  if (!usable) {
    return {
      kind: 'unreadable',
      detail: `getOrderStatusExtended.do: errorCode ${answer.errorCode}${logText(call.config, answer.errorMessage)}`,
    };
  }
  const mismatch = mismatchOf(answer, payment, session);
  if (mismatch !== null) return { kind: 'unreadable', detail: `getOrderStatusExtended.do: ${mismatch}` };
  return { kind: 'order', answer, orderStatus };
}

/** Why an answer is not about this payment's order, or null when it is. */
function mismatchOf(answer: OrderStatusAnswer, payment: Payment, session: ProcessorSession): string | null {
  if (answer.orderNumber !== session.orderNumber) return 'the answer names another order number';
  // The order keeps the amount registered (held): a partial capture does not change it.
  if (answer.amount === null || answer.amount === undefined || !isAmountOf(answer.amount, registeredAmount(payment))) {
    return 'the answer has another amount';
  }
  if (answer.currency !== null && answer.currency !== undefined && answer.currency !== AMD_CURRENCY) {
    return 'the answer has another currency';
  }
  const mdOrder = mdOrderOf(answer);
  if (mdOrder !== null && session.reference !== null && mdOrder.toLowerCase() !== session.reference.toLowerCase()) {
    return 'the answer names another orderId';
  }
  return null;
}

/** The payment's result from an order that passed `readOrder`. */
function resultOf(
  answer: OrderStatusAnswer,
  orderStatus: number,
  orderId: string | null,
  payment: Payment,
): ProviderResult {
  const card = answer.cardAuthInfo;
  const cardLast4 = cardLast4FromMask(card?.pan ?? card?.maskedPan);
  if (payment.captureMethod === 'manual' && holdStateOf(orderStatusOf(orderStatus)) === 'held') {
    const rrn = answer.authRefNum?.trim() || orderId || answer.orderNumber || '';
    return { kind: 'authorized', rrn, cardLast4, holdMs: ARCA_HOLD_MS, processor: 'arca' };
  }
  switch (paymentOutcome(orderStatusOf(orderStatus))) {
    case 'paid': {
      const rrn = answer.authRefNum?.trim() || orderId || answer.orderNumber || '';
      return { kind: 'paid', rrn, cardLast4, processor: 'arca' };
    }
    case 'declined':
      return { kind: 'declined', failureCode: declineFailureCode(actionCodeClass(answer.actionCode)), cardLast4 };
    case 'pending':
      return { kind: 'pending', failureCode: 'processor_timeout', cardLast4 };
  }
}

async function start(
  call: ProcessorCall<ArcaConfig>,
  payment: Payment,
  session: ProcessorSession,
): Promise<StartAnswer> {
  if (payment.currency !== 'AMD') {
    return { kind: 'refused', failureCode: 'general_failure', detail: `ArCa takes AMD, not ${payment.currency}` };
  }
  if (!Number.isSafeInteger(payment.amount) || payment.amount < 1) {
    return { kind: 'refused', failureCode: 'general_failure', detail: 'the amount is not a whole number of AMD' };
  }
  const seconds = Math.min(MAX_SESSION_SECONDS, Math.floor(call.secondsLeft));
  if (seconds < 1) {
    return {
      kind: 'refused',
      failureCode: 'transaction_expired',
      detail: 'the payment expires before the bank page opens',
    };
  }
  const language = arcaLanguage(call.language);
  const request = registerRequest.safeParse({
    ...credentials(call.config),
    orderNumber: session.orderNumber,
    amount: toMinorUnits(payment.amount),
    currency: AMD_CURRENCY,
    returnUrl: call.returnUrl,
    // Declines come back to the same address: the outcome is read back either way.
    failUrl: call.returnUrl,
    description: arcaDescription(payment.description, payment.orderId),
    language,
    sessionTimeoutSecs: String(seconds),
  });
  if (!request.success) {
    const fields = [...new Set(request.error.issues.map((issue) => issue.path.join('.')))].join(', ');
    return { kind: 'refused', failureCode: 'general_failure', detail: `register.do: cannot send ${fields}` };
  }
  // A hold is a two-phase order: the same parameters, another operation.
  const operation = payment.captureMethod === 'manual' ? 'registerPreAuth' : 'register';
  const reply = await post(call, operation, request.data, START_TIMEOUT_MS);
  if (reply.kind === 'failed') return { kind: 'unavailable', detail: reply.detail };
  const parsed = registerAnswer.safeParse(reply.json);
  if (!parsed.success) return { kind: 'unavailable', detail: 'register.do: the answer is not understood' };
  const answer = parsed.data;
  const meaning = registerError(answer.errorCode);
  switch (meaning.kind) {
    case 'ok': {
      const orderId = arcaOrderId.safeParse(answer.orderId);
      const formUrl = z.url({ protocol: /^https?$/ }).safeParse(answer.formUrl);
      if (!orderId.success || !formUrl.success) {
        return { kind: 'unavailable', detail: 'register.do: no orderId and formUrl in a successful answer' };
      }
      return { kind: 'redirect', reference: orderId.data, redirect: { method: 'GET', url: formUrl.data } };
    }
    case 'already_registered':
      return resume(call, payment, session, language);
    case 'refused':
      return {
        kind: 'refused',
        failureCode: meaning.failureCode,
        detail: `register.do: errorCode ${answer.errorCode}, ${meaning.reason}${logText(call.config, answer.errorMessage)}`,
      };
    case 'unavailable':
      return {
        kind: 'unavailable',
        detail: `register.do: errorCode ${answer.errorCode}, ${meaning.reason}${logText(call.config, answer.errorMessage)}`,
      };
  }
}

/**
 * The order number is registered already (`errorCode` 1): an earlier start registered it and its
 * answer was lost, or the buyer started again. The order is read back by its number: still
 * waiting for the card, the buyer goes to its payment page (rebuilt as the host builds it, from
 * the order's terminal); in any other state, to our return address with its orderId, as the bank
 * would send them, where the outcome is read back.
 */
async function resume(
  call: ProcessorCall<ArcaConfig>,
  payment: Payment,
  session: ProcessorSession,
  language: 'hy' | 'ru' | 'en',
): Promise<StartAnswer> {
  const read = await readOrder(call, payment, session, STATUS_TIMEOUT_MS);
  if (read.kind === 'unreadable') {
    return { kind: 'unavailable', detail: `register.do: order number registered already; ${read.detail}` };
  }
  const orderId = session.reference ?? mdOrderOf(read.answer);
  if (orderId === null) {
    return {
      kind: 'refused',
      failureCode: 'duplicate_transaction',
      detail: 'register.do: order number registered already, and the bank names no orderId for it',
    };
  }
  if (orderStatusOf(read.orderStatus) !== 'registered') {
    return {
      kind: 'redirect',
      reference: orderId,
      redirect: { method: 'GET', url: returnWithOrderId(call.returnUrl, orderId) },
    };
  }
  const terminalId = read.answer.terminalId?.trim() ?? '';
  if (terminalId === '') {
    return {
      kind: 'refused',
      failureCode: 'duplicate_transaction',
      detail: 'register.do: order number registered already, and its payment page cannot be rebuilt (no terminalId)',
    };
  }
  return {
    kind: 'redirect',
    reference: orderId,
    redirect: { method: 'GET', url: paymentPageUrl(call.config, terminalId, orderId, language) },
  };
}

async function status(
  call: ProcessorCall<ArcaConfig>,
  payment: Payment,
  session: ProcessorSession,
): Promise<StatusAnswer> {
  const read = await readOrder(call, payment, session, STATUS_TIMEOUT_MS);
  if (read.kind === 'unreadable') return { kind: 'unavailable', detail: read.detail };
  return resultOf(read.answer, read.orderStatus, session.reference ?? mdOrderOf(read.answer), payment);
}

async function refund(call: ProcessorCall<ArcaConfig>, request: RefundRequest): Promise<RefundAttempt> {
  const orderId = request.session?.reference ?? null;
  // Without BPC's orderId nothing can be refunded (and nothing was sent).
  if (orderId === null) return { kind: 'declined', code: 'arca_no_order_id' };
  if (!Number.isSafeInteger(request.amount) || request.amount < 1)
    return { kind: 'declined', code: 'arca_amount_invalid' };
  const fields = refundRequest.safeParse({
    ...credentials(call.config),
    orderId,
    amount: toMinorUnits(request.amount),
  });
  if (!fields.success) return { kind: 'declined', code: 'arca_request_invalid' };
  const reply = await post(call, 'refund', fields.data, REFUND_TIMEOUT_MS);
  if (reply.kind === 'failed') return { kind: reply.reached ? 'unknown' : 'unavailable' };
  const parsed = refundAnswer.safeParse(reply.json);
  if (!parsed.success) return { kind: 'unknown' };
  switch (refundError(parsed.data.errorCode)) {
    case 'ok':
      // refund.do answers no id of its own: the refund is found under the order's orderId.
      return { kind: 'refunded', reference: orderId };
    case 'refused':
      return { kind: 'declined', code: `arca_error_${parsed.data.errorCode}` };
    case 'unknown':
      return { kind: 'unknown' };
  }
}

/**
 * What became of a refund that got no answer: the order's refunded total at the bank, against the
 * ledger's (the payment's refunded amount, which does not include this refund) plus this refund.
 */
async function refundStatus(call: ProcessorCall<ArcaConfig>, request: RefundStatusRequest): Promise<RefundAttempt> {
  const session = request.session;
  if (session === null || session.reference === null) return { kind: 'declined', code: 'arca_no_order_id' };
  const read = await readOrder(call, request.payment, session, REFUND_STATUS_TIMEOUT_MS);
  if (read.kind === 'unreadable') return { kind: 'unavailable' };
  const refunded = refundedMinorUnits(read.answer);
  if (refunded === null) return { kind: 'unknown' };
  switch (refundFinding(refunded, request.payment.refundedAmount * 100, request.amount * 100)) {
    case 'refunded':
      return { kind: 'refunded', reference: session.reference };
    case 'not_refunded':
      return { kind: 'declined', code: 'arca_not_refunded' };
    case 'unknown':
      return { kind: 'unknown' };
  }
}

/** Sends `deposit.do` (a capture, of `amount`) or `reverse.do` (a release) once; never retried. */
async function holdCall(call: ProcessorCall<ArcaConfig>, request: HoldRequest): Promise<HoldAttempt> {
  const orderId = request.session?.reference ?? null;
  // Without BPC's orderId there is no order to capture or release (and nothing is sent).
  if (orderId === null) return { kind: 'declined', code: 'arca_no_order_id' };
  const capture = request.kind === 'capture';
  const fields = capture
    ? depositRequest.safeParse({ ...credentials(call.config), orderId, amount: toMinorUnits(request.amount) })
    : reverseRequest.safeParse({ ...credentials(call.config), orderId });
  if (!fields.success) return { kind: 'declined', code: 'arca_request_invalid' };
  const reply = await post(
    call,
    capture ? 'deposit' : 'reverse',
    fields.data,
    capture ? CAPTURE_TIMEOUT_MS : RELEASE_TIMEOUT_MS,
  );
  if (reply.kind === 'failed') return { kind: reply.reached ? 'unknown' : 'unavailable' };
  const parsed = refundAnswer.safeParse(reply.json);
  if (!parsed.success) return { kind: 'unknown' };
  switch (holdCallError(parsed.data.errorCode)) {
    case 'ok':
      // Neither answers an id of its own: the operation is found under the order's orderId.
      return { kind: 'done', reference: orderId };
    case 'refused':
      return { kind: 'declined', code: `arca_error_${parsed.data.errorCode}` };
    case 'unknown':
      return { kind: 'unknown' };
  }
}

/**
 * What became of a hold whose deposit or reversal got no answer: the order read back. Held
 * (`orderStatus` 1); captured (2, or 4 once refunded: `paymentAmountInfo.depositedAmount` plus the
 * refunded total, else the amount asked); released (3 reversed, 6 declined).
 */
async function holdStatus(call: ProcessorCall<ArcaConfig>, request: HoldRequest): Promise<HoldFinding> {
  const session = request.session;
  if (session === null || session.reference === null) return { kind: 'unavailable', detail: 'no orderId' };
  const read = await readOrder(call, request.payment, session, HOLD_STATUS_TIMEOUT_MS);
  if (read.kind === 'unreadable') return { kind: 'unavailable', detail: read.detail };
  switch (holdStateOf(orderStatusOf(read.orderStatus))) {
    case 'held':
      return { kind: 'held' };
    case 'captured': {
      const deposited = read.answer.paymentAmountInfo?.depositedAmount;
      const minor =
        deposited === null || deposited === undefined ? null : deposited + (refundedMinorUnits(read.answer) ?? 0);
      return {
        kind: 'captured',
        amount: minor === null || minor <= 0 ? request.amount : Math.floor(minor / 100),
        reference: session.reference,
      };
    }
    case 'released':
      return { kind: 'released' };
    case 'unknown':
      return {
        kind: 'unavailable',
        detail: `getOrderStatusExtended.do: orderStatus ${read.orderStatus} is not a hold`,
      };
  }
}

/** A card with an arch over it, for ArCa (Armenian Card). */
const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 32" width="48" height="32" aria-hidden="true">' +
  '<rect x="1" y="3" width="46" height="26" rx="4" fill="none" stroke="currentColor" stroke-width="2"/>' +
  '<path d="M12 24V18a12 8 0 0 1 24 0v6" fill="none" stroke="#1f5aa6" stroke-width="3" stroke-linecap="round"/>' +
  '<path d="M18 24v-5a6 4 0 0 1 12 0v5" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>' +
  '</svg>';

export const arcaProcessor: Processor<ArcaConfig> = {
  slug: 'arca',
  displayName: 'Bank card (ArCa)',
  logoSvg: LOGO_SVG,
  configSchema: arcaConfigSchema,
  start,
  status,
  callback: arcaCallback,
  refund,
  refundStatus,
  holds: {
    windowMs: ARCA_HOLD_MS,
    partialCapture: true,
    capture: holdCall,
    release: holdCall,
    status: holdStatus,
  },
};
