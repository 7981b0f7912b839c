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
import { z } from 'zod';
import { HOUR_MS } from '../../domain/clock.js';
import { type Payment, registeredAmount } from '../../domain/payment.js';
import { ProcessorCallError, type ProcessorReply } from '../http.js';
import type {
  HoldAttempt,
  HoldFinding,
  HoldRequest,
  Processor,
  ProcessorCall,
  ProcessorLanguage,
  ProcessorSession,
  RefundAttempt,
  RefundRequest,
  RefundStatusRequest,
  StartAnswer,
  StatusAnswer,
} from '../processor.js';
import { isProcessorAddress } from '../settings.js';
import {
  ameriaLanguage,
  cardLast4FromMask,
  declineFailureCode,
  holdCallOutcome,
  holdState,
  initRefusalFailureCode,
  isHeld,
  isWireAmount,
  orderOutcome,
  refundOutcome,
  refundReadBack,
  toWireAmount,
} from './map.js';
import {
  AMD_CURRENCY,
  type AmeriaOperation,
  ASP_NET_FAULT_MESSAGE,
  aspNetFault,
  type CancelPaymentRequest,
  type ConfirmPaymentRequest,
  detailsEnvelope,
  type InitPaymentRequest,
  initPaymentAnswer,
  MAX_DESCRIPTION_LENGTH,
  MAX_ORDER_ID,
  MAX_SESSION_SECONDS,
  PAYMENT_ID_PATTERN,
  type PaymentDetailsAnswer,
  type PaymentDetailsRequest,
  paymentDetailsAnswer,
  type RefundPaymentRequest,
  refundPaymentAnswer,
} from './wire.js';

/** How long each call waits for the bank's whole answer (docs/processors.md). */
export const START_TIMEOUT_MS = 15_000;
export const STATUS_TIMEOUT_MS = 10_000;
export const REFUND_TIMEOUT_MS = 20_000;
export const REFUND_STATUS_TIMEOUT_MS = 10_000;
export const CAPTURE_TIMEOUT_MS = 20_000;
export const RELEASE_TIMEOUT_MS = 20_000;
export const HOLD_STATUS_TIMEOUT_MS = 10_000;

/**
 * How long a hold may be captured: CancelPayment works "within 72 hours after the payment"
 * (manual), so the gateway lets a hold be captured for 71 hours and releases it then, while the
 * bank still takes the release.
 */
export const AMERIA_HOLD_MS = 71 * HOUR_MS;

export const AMERIA_PRODUCTION_URL = 'https://services.ameriabank.am/VPOS/';
/** The bank's test host: 10 AMD payments only, OrderIDs from the range it assigned. */
export const AMERIA_TEST_URL = 'https://servicestest.ameriabank.am/VPOS/';

const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

function isVposBase(value: string): boolean {
  return isProcessorAddress(value, { pathEnd: '/VPOS/' }) && !new URL(value).pathname.endsWith('/api/VPOS/');
}

const orderIdBound = z.number().int().min(1).max(MAX_ORDER_ID);

/** A domain's settings (`processor enable ameria --config JSON`). Messages name fields, never values. */
export const ameriaConfigSchema = z
  .strictObject({
    base_url: z
      .string()
      .refine(isVposBase, { message: 'must be an http(s) address ending in /VPOS/, without query or credentials' })
      .default(AMERIA_PRODUCTION_URL),
    client_id: z.string().regex(GUID, { message: 'must be the ClientID GUID the bank issued' }),
    username: z.string().min(1, { message: 'must not be empty' }),
    password: z.string().min(1, { message: 'must not be empty' }),
    order_id_min: orderIdBound,
    order_id_max: orderIdBound,
    /**
     * The bank set this ClientID's terminal up for two-stage payments: each payment is held until
     * confirmed or cancelled. Such a terminal takes `capture_method: manual` payments only.
     */
    two_stage: z.boolean().optional(),
  })
  .refine((config) => config.order_id_min <= config.order_id_max, {
    message: 'must not be below order_id_min',
    path: ['order_id_max'],
  });
export type AmeriaConfig = z.output<typeof ameriaConfigSchema>;

type Call = ProcessorCall<AmeriaConfig>;

function operationUrl(config: AmeriaConfig, operation: AmeriaOperation): string {
  return `${config.base_url}api/VPOS/${operation}`;
}

/** The bank's payment page for a registered payment. */
export function bankPageUrl(config: AmeriaConfig, paymentId: string, language: ProcessorLanguage): string {
  return `${config.base_url}Payments/Pay?id=${encodeURIComponent(paymentId)}&lang=${ameriaLanguage(language)}`;
}

async function post(
  call: Call,
  operation: AmeriaOperation,
  body:
    | InitPaymentRequest
    | PaymentDetailsRequest
    | RefundPaymentRequest
    | ConfirmPaymentRequest
    | CancelPaymentRequest,
  timeoutMs: number,
): Promise<ProcessorReply> {
  return call.http.request({
    method: 'POST',
    url: operationUrl(call.config, operation),
    headers: { 'Content-Type': 'application/json; charset=utf-8', Accept: 'application/json' },
    body: JSON.stringify(body),
    timeoutMs,
  });
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
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

/** What one GetPaymentDetails read found. */
type DetailsRead =
  | { readonly kind: 'details'; readonly details: PaymentDetailsAnswer }
  /** The bank would not say (its HTTP 500 fault, or "550"): seen for a payment registered and never paid. */
  | { readonly kind: 'not_said'; readonly detail: string }
  | { readonly kind: 'unavailable'; readonly detail: string };

async function readDetails(call: Call, paymentId: string, timeoutMs: number): Promise<DetailsRead> {
  const request: PaymentDetailsRequest = {
    PaymentID: paymentId,
    Username: call.config.username,
    Password: call.config.password,
  };
  let reply: ProcessorReply;
  try {
    reply = await post(call, 'GetPaymentDetails', request, timeoutMs);
  } catch (error) {
    return { kind: 'unavailable', detail: `GetPaymentDetails: ${callFailure(error)}` };
  }
  const body = parseJson(reply.body);
  if (reply.status !== 200) {
    const fault = aspNetFault.safeParse(body);
    if (reply.status === 500 && fault.success && fault.data.Message === ASP_NET_FAULT_MESSAGE) {
      return { kind: 'not_said', detail: 'GetPaymentDetails answered the HTTP 500 fault' };
    }
    return { kind: 'unavailable', detail: `GetPaymentDetails answered HTTP ${reply.status}` };
  }
  const envelope = detailsEnvelope.safeParse(body);
  if (!envelope.success) return { kind: 'unavailable', detail: 'GetPaymentDetails answered an unreadable body' };
  if (envelope.data.ResponseCode === '550') {
    return { kind: 'not_said', detail: 'GetPaymentDetails answered ResponseCode 550' };
  }
  const details = paymentDetailsAnswer.safeParse(body);
  if (!details.success) return { kind: 'unavailable', detail: 'GetPaymentDetails answered an unreadable body' };
  return { kind: 'details', details: details.data };
}

/** The bank's answer names our order (its OrderID) in AMD: else it is about something else. */
function mismatch(details: PaymentDetailsAnswer, session: ProcessorSession): string | undefined {
  if (details.OrderID !== session.orderNumber) {
    return `GetPaymentDetails names OrderID ${JSON.stringify(details.OrderID)}, the session ${session.orderNumber}`;
  }
  if (details.Currency !== AMD_CURRENCY) return `GetPaymentDetails names currency ${JSON.stringify(details.Currency)}`;
  return undefined;
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

/**
 * RefundPayment answers no id of its own: a refund's reference is the bank's PaymentID with the
 * gateway's refund uuid, so the same one comes out of a refund and of its status check.
 */
export function ameriaRefundReference(paymentId: string, refundId: string): string {
  return `${paymentId.toUpperCase()}/${refundId}`;
}

async function refund(call: Call, request: RefundRequest): Promise<RefundAttempt> {
  const paymentId = request.session?.reference ?? null;
  // Never registered at the bank: nothing to refund there, and nothing is sent.
  if (paymentId === null) return { kind: 'unavailable' };
  const body: RefundPaymentRequest = {
    PaymentID: paymentId,
    Username: call.config.username,
    Password: call.config.password,
    Amount: toWireAmount(request.amount),
  };
  let reply: ProcessorReply;
  try {
    reply = await post(call, 'RefundPayment', body, REFUND_TIMEOUT_MS);
  } catch (error) {
    return error instanceof ProcessorCallError && !error.reached ? { kind: 'unavailable' } : { kind: 'unknown' };
  }
  // Something reached the bank: from here on, anything but a clear answer is an unknown outcome.
  if (reply.status !== 200) return { kind: 'unknown' };
  const answer = refundPaymentAnswer.safeParse(parseJson(reply.body));
  if (!answer.success) return { kind: 'unknown' };
  switch (refundOutcome(answer.data.ResponseCode)) {
    case 'refunded':
      return { kind: 'refunded', reference: ameriaRefundReference(paymentId, request.refundId) };
    case 'declined':
      return { kind: 'declined', code: answer.data.ResponseCode };
    case 'unknown':
      return { kind: 'unknown' };
  }
}

/**
 * A refund whose answer was lost, read back from the bank's cumulative `RefundedAmount`: refunded
 * once it covers what the gateway had counted before (`payment.refundedAmount`) plus this refund;
 * not made (declined) while it is no more than that count; asked again while in between.
 */
async function refundStatus(call: Call, request: RefundStatusRequest): Promise<RefundAttempt> {
  const session = request.session;
  // A refund is only sent with a PaymentID: without one, none was made.
  if (session === null || session.reference === null) return { kind: 'declined', code: 'not_registered' };
  const read = await readDetails(call, session.reference, REFUND_STATUS_TIMEOUT_MS);
  if (read.kind !== 'details') return { kind: 'unavailable' };
  const details = read.details;
  if (details.ResponseCode !== '00' || mismatch(details, session) !== undefined) return { kind: 'unavailable' };
  switch (refundReadBack(details.RefundedAmount, request.payment.refundedAmount, request.amount)) {
    case 'refunded':
      return { kind: 'refunded', reference: ameriaRefundReference(session.reference, request.refundId) };
    case 'not_made':
      return { kind: 'declined', code: 'not_refunded' };
    case 'unclear':
      return { kind: 'unknown' };
  }
}

/** A capture's or release's reference: the bank's PaymentID with the gateway's operation id (the bank answers none). */
export function ameriaHoldReference(paymentId: string, operationId: string): string {
  return `${paymentId.toUpperCase()}/${operationId}`;
}

/** Sends ConfirmPayment (a capture) or CancelPayment (a release) once; never retried. */
async function holdCall(call: Call, request: HoldRequest): Promise<HoldAttempt> {
  const paymentId = request.session?.reference ?? null;
  // Never registered at the bank: there is no hold there, and nothing is sent.
  if (paymentId === null) return { kind: 'unavailable' };
  const credentials = { PaymentID: paymentId, Username: call.config.username, Password: call.config.password };
  const capture = request.kind === 'capture';
  let reply: ProcessorReply;
  try {
    reply = capture
      ? await post(call, 'ConfirmPayment', { ...credentials, Amount: toWireAmount(request.amount) }, CAPTURE_TIMEOUT_MS)
      : await post(call, 'CancelPayment', credentials, RELEASE_TIMEOUT_MS);
  } catch (error) {
    return error instanceof ProcessorCallError && !error.reached ? { kind: 'unavailable' } : { kind: 'unknown' };
  }
  // Something reached the bank: from here on, anything but a clear answer is an unknown outcome.
  if (reply.status !== 200) return { kind: 'unknown' };
  const answer = refundPaymentAnswer.safeParse(parseJson(reply.body));
  if (!answer.success) return { kind: 'unknown' };
  switch (holdCallOutcome(answer.data.ResponseCode, capture ? 'confirm' : 'cancel')) {
    case 'done':
      return { kind: 'done', reference: ameriaHoldReference(paymentId, request.operationId) };
    case 'declined':
      return { kind: 'declined', code: answer.data.ResponseCode };
    case 'unknown':
      return { kind: 'unknown' };
  }
}

/**
 * What became of a hold whose confirm or cancel got no answer, read back (GetPaymentDetails):
 * still held ("1"), captured ("2", or "4" once refunded: what was taken is `DepositedAmount` plus
 * `RefundedAmount`), released ("3", "6"). A failed read, or one about another order, concludes
 * nothing.
 */
async function holdStatus(call: Call, request: HoldRequest): Promise<HoldFinding> {
  const session = request.session;
  if (session === null || session.reference === null) return { kind: 'unavailable', detail: 'no PaymentID' };
  const read = await readDetails(call, session.reference, HOLD_STATUS_TIMEOUT_MS);
  if (read.kind !== 'details') return { kind: 'unavailable', detail: read.detail };
  const details = read.details;
  if (details.ResponseCode !== '00') {
    return { kind: 'unavailable', detail: `GetPaymentDetails answered ResponseCode ${details.ResponseCode}` };
  }
  const wrong = mismatch(details, session);
  if (wrong !== undefined) return { kind: 'unavailable', detail: wrong };
  switch (holdState(details.OrderStatus)) {
    case 'held':
      return { kind: 'held' };
    case 'captured': {
      const luma = Math.round((details.DepositedAmount ?? 0) * 100) + Math.round(details.RefundedAmount * 100);
      return {
        kind: 'captured',
        amount: Math.floor(luma / 100),
        reference: ameriaHoldReference(session.reference, request.operationId),
      };
    }
    case 'released':
      return { kind: 'released' };
    case 'unknown':
      return { kind: 'unavailable', detail: `GetPaymentDetails answered OrderStatus ${details.OrderStatus}` };
  }
}

function callFailure(error: unknown): string {
  if (error instanceof ProcessorCallError) return error.message;
  return 'the call failed';
}

function quoted(message: string | undefined): string {
  return message === undefined || message === '' ? '(no message)' : JSON.stringify(message.slice(0, 200));
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
