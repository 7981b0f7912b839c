/**
 * Ameriabank vPOS 3.x: the buyer pays by card on the bank's page. `start` registers the payment
 * (InitPayment, keyed by our integer OrderID from the bank's assigned range) and sends the buyer
 * to `{base}Payments/Pay?id=…`; the bank sends the browser back to the payment's return page with
 * an unsigned query, and the core reads the status back (GetPaymentDetails). There is no server
 * callback. Refunds are RefundPayment (full or partial, repeatable); a refund whose answer was lost
 * is found by comparing the bank's cumulative `RefundedAmount` with what the gateway had counted.
 *
 * Holds: a terminal the bank set up for two-stage payments (`two_stage: true`) holds every payment
 * it takes until ConfirmPayment (a capture, whole or part) or CancelPayment (a release); such a
 * terminal takes `manual` payments only, and a one-stage one `automatic` payments only. A held
 * payment reads back as OrderStatus "1"; an unanswered confirm or cancel is settled by reading the
 * order back (docs/processors.md "Ameriabank", "Holds").
 *
 * Credentials travel in every request body; they never appear in a `detail`, an error or a log line.
 */
import { type Payment, registeredAmount } from '../../domain/payment.js';
import type { ProcessorReply } from '../http.js';
import type { Processor, ProcessorLanguage, ProcessorSession, StartAnswer, StatusAnswer } from '../processor.js';
import { type Call, callFailure, mismatch, parseJson, post, quoted, readDetails } from './client.js';
import { declineFailureCode, initRefusalFailureCode } from './codes.js';
import { type AmeriaConfig, ameriaConfigSchema } from './config.js';
import { AMERIA_HOLD_MS, holdCall, holdStatus } from './holds.js';
import { ameriaLanguage, cardLast4FromMask, isHeld, isWireAmount, orderOutcome, toWireAmount } from './map.js';
import { refund, refundStatus } from './refunds.js';
import {
  AMD_CURRENCY,
  type InitPaymentRequest,
  initPaymentAnswer,
  MAX_DESCRIPTION_LENGTH,
  MAX_ORDER_ID,
  MAX_SESSION_SECONDS,
  PAYMENT_ID_PATTERN,
  type PaymentDetailsAnswer,
} from './wire.js';

/** How long each call waits for the bank's whole answer (docs/processors.md). */
export const START_TIMEOUT_MS = 15_000;
export const STATUS_TIMEOUT_MS = 10_000;

/** The bank's payment page for a registered payment. */
export function bankPageUrl(config: AmeriaConfig, paymentId: string, language: ProcessorLanguage): string {
  return `${config.base_url}Payments/Pay?id=${encodeURIComponent(paymentId)}&lang=${ameriaLanguage(language)}`;
}

/**
 * The next OrderID: the domain's counter itself, kept within the bank's range. A new range the bank
 * assigned (entered with `processor enable`) starts at its first OrderID; none is ever sent twice.
 */
export async function nextOrderId(call: Call): Promise<number> {
  const { order_id_min: min, order_id_max: max } = call.config;
  const orderId = await call.sequence({ min, max });
  if (orderId === null) {
    throw new RangeError(`the assigned OrderID range ${min}-${max} is used up: ask Ameriabank for a new range`);
  }
  return orderId;
}

/** The OrderID a session carries, or undefined when it is not one (a session made by something else). */
function sessionOrderId(session: ProcessorSession): number | undefined {
  if (!/^[1-9]\d{0,9}$/.test(session.orderNumber)) return undefined;
  const orderId = Number(session.orderNumber);
  return orderId <= MAX_ORDER_ID ? orderId : undefined;
}

/** The payment's text for the bank (its own description, else its order), within the accepted length. */
export function wireDescription(payment: Payment): string {
  const own = payment.description?.trim() ?? '';
  const text = own === '' ? `Order ${payment.orderId}` : own;
  let cut = '';
  for (const character of text) {
    if (cut.length + character.length > MAX_DESCRIPTION_LENGTH) break;
    cut += character;
  }
  return cut;
}

function sessionSeconds(call: Call): number {
  return Math.max(1, Math.min(MAX_SESSION_SECONDS, Math.floor(call.secondsLeft)));
}

async function start(call: Call, payment: Payment, session: ProcessorSession): Promise<StartAnswer> {
  const orderId = sessionOrderId(session);
  if (orderId === undefined) {
    return { kind: 'refused', failureCode: 'general_failure', detail: 'the session has no integer OrderID' };
  }
  if (payment.currency !== 'AMD') {
    return { kind: 'refused', failureCode: 'general_failure', detail: `currency ${payment.currency} is not AMD` };
  }
  const request: InitPaymentRequest = {
    ClientID: call.config.client_id,
    Username: call.config.username,
    Password: call.config.password,
    OrderID: orderId,
    Amount: toWireAmount(payment.amount),
    Currency: AMD_CURRENCY,
    Description: wireDescription(payment),
    BackURL: call.returnUrl,
    Opaque: payment.uuid,
    Timeout: sessionSeconds(call),
  };
  let reply: ProcessorReply;
  try {
    reply = await post(call, 'InitPayment', request, START_TIMEOUT_MS);
  } catch (error) {
    return { kind: 'unavailable', detail: `InitPayment: ${callFailure(error)}` };
  }
  if (reply.status !== 200) return { kind: 'unavailable', detail: `InitPayment answered HTTP ${reply.status}` };
  const answer = initPaymentAnswer.safeParse(parseJson(reply.body));
  if (!answer.success) return { kind: 'unavailable', detail: 'InitPayment answered an unreadable body' };
  const { ResponseCode: code, PaymentID: paymentId } = answer.data;
  if (code !== 1) {
    return {
      kind: 'refused',
      failureCode: initRefusalFailureCode(code),
      detail: `InitPayment refused OrderID ${orderId}: ResponseCode ${JSON.stringify(code)} ${quoted(answer.data.ResponseMessage)}`,
    };
  }
  if (!PAYMENT_ID_PATTERN.test(paymentId)) {
    return { kind: 'unavailable', detail: 'InitPayment answered success without a PaymentID' };
  }
  return {
    kind: 'redirect',
    reference: paymentId,
    redirect: { method: 'GET', url: bankPageUrl(call.config, paymentId, call.language) },
  };
}

async function status(call: Call, payment: Payment, session: ProcessorSession): Promise<StatusAnswer> {
  // No PaymentID: the bank never registered the payment for us, so no buyer was sent to pay it.
  if (session.reference === null) return { kind: 'pending', failureCode: 'processor_timeout', cardLast4: null };
  const read = await readDetails(call, session.reference, STATUS_TIMEOUT_MS);
  switch (read.kind) {
    case 'unavailable':
      return { kind: 'unavailable', detail: read.detail };
    case 'not_said':
      return { kind: 'pending', failureCode: 'processor_timeout', cardLast4: null };
    case 'details':
      return statusOf(read.details, payment, session);
  }
}

function statusOf(details: PaymentDetailsAnswer, payment: Payment, session: ProcessorSession): StatusAnswer {
  const cardLast4 = cardLast4FromMask(details.CardNumber);
  if (payment.captureMethod === 'manual' && isHeld(details.OrderStatus) && details.ResponseCode === '00') {
    // A two-stage terminal holds the amount: the payment is authorized, the same checks as paid.
    const wrong = mismatch(details, session);
    if (wrong !== undefined) return { kind: 'unavailable', detail: wrong };
    if (!isWireAmount(details.ApprovedAmount, registeredAmount(payment))) {
      return {
        kind: 'unavailable',
        detail: `GetPaymentDetails holds ${details.ApprovedAmount} AMD for a payment of ${registeredAmount(payment)}`,
      };
    }
    return { kind: 'authorized', rrn: rrnOf(details, session), cardLast4, holdMs: AMERIA_HOLD_MS };
  }
  const outcome = orderOutcome(details.OrderStatus);
  switch (outcome) {
    case 'paid': {
      // Paid only on the query's "00": any other code with a paid status is not read as paid.
      if (details.ResponseCode !== '00') return { kind: 'pending', failureCode: 'processor_timeout', cardLast4 };
      const wrong = mismatch(details, session);
      if (wrong !== undefined) return { kind: 'unavailable', detail: wrong };
      if (!isWireAmount(details.ApprovedAmount, registeredAmount(payment))) {
        return {
          kind: 'unavailable',
          detail: `GetPaymentDetails approved ${details.ApprovedAmount} AMD for a payment of ${registeredAmount(payment)}`,
        };
      }
      return { kind: 'paid', rrn: rrnOf(details, session), cardLast4 };
    }
    case 'declined': {
      // A decline body may come without the OrderID filled in; one that names another order is not ours.
      if (details.OrderID !== '' && details.OrderID !== session.orderNumber) {
        return { kind: 'unavailable', detail: mismatch(details, session) ?? 'GetPaymentDetails names another order' };
      }
      return {
        kind: 'declined',
        failureCode: declineFailureCode(details.ResponseCode, details.ActionCode),
        cardLast4,
      };
    }
    case 'pending':
      return { kind: 'pending', failureCode: 'processor_timeout', cardLast4 };
  }
}

/** The retrieval reference: `rrn` (on the test host the same value as `MDOrderID`), else that, else the PaymentID. */
function rrnOf(details: PaymentDetailsAnswer, session: ProcessorSession): string {
  if (details.rrn !== '') return details.rrn;
  if (details.MDOrderID !== undefined && details.MDOrderID !== '') return details.MDOrderID;
  return session.reference ?? session.orderNumber;
}

/** A card in the bank's deep blue with a bold "A" chevron: drawn for the gateway. */
const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 32" width="48" height="32" aria-hidden="true">' +
  '<rect x="1" y="3" width="46" height="26" rx="4" fill="#1d3f8f"/>' +
  '<path d="M14 24 22 8h4l8 16h-4.4l-1.7-3.6h-7.8L18.4 24zm7.7-7.2h4.6L24 11.9z" fill="#fff"/>' +
  '<rect x="1" y="3" width="46" height="26" rx="4" fill="none" stroke="currentColor" stroke-opacity=".25"/>' +
  '</svg>';

export const ameriaProcessor: Processor<AmeriaConfig> = {
  slug: 'ameria',
  displayName: 'Bank card (Ameriabank)',
  logoSvg: LOGO_SVG,
  configSchema: ameriaConfigSchema,
  newOrderNumber: async (call) => String(await nextOrderId(call)),
  start,
  status,
  refund,
  refundStatus,
  holds: {
    captureMethods: (config) => (config.two_stage === true ? ['manual'] : ['automatic']),
    windowMs: AMERIA_HOLD_MS,
    partialCapture: true,
    capture: holdCall,
    release: holdCall,
    status: holdStatus,
  },
};
