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
 * refunded total back (refunds.ts). See docs/processors.md "ArCa".
 *
 * Holds: a payment with `capture_method: manual` is registered with `registerPreAuth.do` (the same
 * parameters): paid, its order is approved (`orderStatus` 1, held) and the payment authorized.
 * `deposit.do` captures all or part of it, `reverse.do` releases it; an unanswered one is settled by
 * reading the order back (holds.ts).
 */
import { z } from 'zod';
import type { Payment } from '../../domain/payment.js';
import type { ProviderResult } from '../../domain/payment-lifecycle.js';
import type { Processor, ProcessorCall, ProcessorSession, StartAnswer, StatusAnswer } from '../processor.js';
import { arcaCallback } from './callback.js';
import { credentials, logText, post, readOrder } from './client.js';
import { type ArcaConfig, arcaConfigSchema } from './config.js';
import { ARCA_HOLD_MS, holdCall, holdStatus } from './holds.js';
import {
  actionCodeClass,
  arcaDescription,
  arcaLanguage,
  cardLast4FromMask,
  declineFailureCode,
  holdStateOf,
  orderStatusOf,
  paymentOutcome,
  registerError,
  toMinorUnits,
} from './map.js';
import { refund, refundStatus } from './refunds.js';
import {
  AMD_CURRENCY,
  arcaOrderId,
  mdOrderOf,
  type OrderStatusAnswer,
  registerAnswer,
  registerRequest,
} from './wire.js';

/** How long each call waits for the whole answer. */
export const START_TIMEOUT_MS = 15_000;
export const STATUS_TIMEOUT_MS = 10_000;

/** BPC's default (and the gateway's own) time to enter the card: the bank page never outlives the payment. */
export const MAX_SESSION_SECONDS = 1200;

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
