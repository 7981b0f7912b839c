/**
 * FastShift wallet ("Pay by FastShift" vPOS). The gateway registers the order with a GUID order
 * number (the payment's uuid) and sends the buyer to FastShift's page, where they confirm in the
 * FastShift app. FastShift then sends the browser back to the payment's return address and calls
 * the gateway's callback address (webhook_url), both unsigned and with only `status` and
 * `order_number`: the outcome is always read back with the status call. FastShift documents no
 * refund: refunds are made by hand with FastShift (the core answers `refund_not_supported`).
 */
import { z } from 'zod';
import type { Payment } from '../../domain/payment.js';
import type { FailureCode } from '../../domain/payment-lifecycle.js';
import { ProcessorCallError, type ProcessorReply } from '../http.js';
import type { Processor, ProcessorCall, ProcessorSession, StartAnswer, StatusAnswer } from '../processor.js';
import { isProcessorAddress } from '../settings.js';
import { fastshiftCallback } from './callback.js';
import {
  answerStatusOf,
  duplicateOrderFailure,
  orderResult,
  orderStatusOf,
  type RegisterFailure,
  registerFailure,
  wireAmount,
} from './map.js';
import {
  type ErrorAnswer,
  errorAnswerSchema,
  parseJson,
  type RegisterRequest,
  registerAnswerSchema,
  statusAnswerSchema,
  type WireOrder,
} from './wire.js';

/** How long each call waits for FastShift's whole answer. FastShift has no refund call. */
export const START_TIMEOUT_MS = 15_000;
export const STATUS_TIMEOUT_MS = 10_000;

/** The production API, as the manual gives it. */
export const FASTSHIFT_DEFAULT_BASE_URL = 'https://merchants.fastshift.am/api/en/';

const TOKEN_PATTERN = /^[\x21-\x7e]+$/;

function isApiBaseUrl(value: string): boolean {
  return isProcessorAddress(value, { pathEnd: '/api/en/' });
}

/**
 * `processor enable fastshift --config '{"token":"..."}'`. `base_url` defaults to production; the
 * test host some integrations use (`test-merchants.fastshift.am`) is set here when FastShift gives it.
 */
export const fastshiftConfigSchema = z.strictObject({
  token: z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
    .min(1, { error: 'must not be empty' })
    .max(4096, { error: 'is longer than 4096 characters' })
    .regex(TOKEN_PATTERN, { error: 'must be the bearer token as FastShift issued it (printable ASCII, no spaces)' }),
  base_url: z
    .string({ error: 'must be a string' })
    .refine(isApiBaseUrl, { error: 'must be an http(s) URL ending in /api/en/, without credentials or query' })
    .default(FASTSHIFT_DEFAULT_BASE_URL),
});
export type FastShiftConfig = z.infer<typeof fastshiftConfigSchema>;

function apiHeaders(config: FastShiftConfig): Record<string, string> {
  return { Authorization: `Bearer ${config.token}`, 'Content-Type': 'application/json' };
}

function callFailure(error: unknown): string {
  if (error instanceof ProcessorCallError) return error.reached ? `no answer: ${error.message}` : error.message;
  throw error;
}

/** At most `max` characters of a processor's text, on one line. */
function clip(text: string, max = 200): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/** An error answer for the log: the HTTP code, FastShift's status, its message and per-field messages. */
function describeError(reply: ProcessorReply, status: string, error: ErrorAnswer | undefined): string {
  const parts = [`HTTP ${reply.status} ${status}`];
  if (error?.message) parts.push(clip(error.message));
  for (const [field, messages] of Object.entries(error?.errors ?? {})) {
    parts.push(`${field}: ${clip(Array.isArray(messages) ? messages.join(' ') : messages)}`);
  }
  if (error === undefined && reply.body.trim() !== '') parts.push(`body: ${clip(reply.body, 120)}`);
  return parts.join('; ');
}

function sameGuid(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** What the status call found. */
type OrderRead =
  | { readonly kind: 'order'; readonly order: WireOrder }
  | { readonly kind: 'not_found' }
  | { readonly kind: 'unavailable'; readonly detail: string };

async function readOrder(call: ProcessorCall<FastShiftConfig>, orderNumber: string): Promise<OrderRead> {
  let reply: ProcessorReply;
  try {
    reply = await call.http.request({
      method: 'GET',
      url: `${call.config.base_url}vpos/order/status/${encodeURIComponent(orderNumber)}`,
      headers: apiHeaders(call.config),
      timeoutMs: STATUS_TIMEOUT_MS,
    });
  } catch (error) {
    return { kind: 'unavailable', detail: `FastShift status: ${callFailure(error)}` };
  }
  const json = parseJson(reply.body);
  if (reply.status === 200) {
    const answer = statusAnswerSchema.safeParse(json);
    if (answer.success) {
      const order = answer.data.data.order;
      if (!sameGuid(order.order_number, orderNumber)) {
        return { kind: 'unavailable', detail: 'FastShift status: the answer names another order' };
      }
      return { kind: 'order', order };
    }
  }
  const error = errorAnswerSchema.safeParse(json);
  const status = answerStatusOf(reply.status, error.success ? error.data.status : undefined);
  if (status === 'NOT_FOUND') return { kind: 'not_found' };
  const detail = describeError(reply, status, error.success ? error.data : undefined);
  return {
    kind: 'unavailable',
    detail:
      status === 'UNAUTHORIZED' || status === 'FORBIDDEN'
        ? `FastShift status refused the token or this server's address (${detail})`
        : `FastShift status: ${status === 'OK' ? 'an answer that could not be read' : detail}`,
  };
}

function registerRequest(call: ProcessorCall<FastShiftConfig>, payment: Payment, orderNumber: string, amount: number) {
  const request: RegisterRequest = {
    order_number: orderNumber,
    amount,
    description: payment.description?.trim() ? payment.description : `Order ${payment.orderId}`,
    callback_url: call.returnUrl,
    webhook_url: call.callbackUrl,
    external_order_id: payment.orderId,
  };
  return request;
}

function refused(failureCode: FailureCode, detail: string): StartAnswer {
  return { kind: 'refused', failureCode, detail };
}

function fromFailure(failure: RegisterFailure, detail: string): StartAnswer {
  return failure.kind === 'refused' ? refused(failure.failureCode, detail) : { kind: 'unavailable', detail };
}

async function start(
  call: ProcessorCall<FastShiftConfig>,
  payment: Payment,
  session: ProcessorSession,
): Promise<StartAnswer> {
  const amount = wireAmount(payment.amount);
  if (payment.currency !== 'AMD' || amount === null) {
    return refused('amount_limit_exceeded', 'FastShift takes whole AMD of at least 1');
  }
  const request = registerRequest(call, payment, session.orderNumber, amount);
  let reply: ProcessorReply;
  try {
    reply = await call.http.request({
      method: 'POST',
      url: `${call.config.base_url}vpos/order/register`,
      headers: apiHeaders(call.config),
      body: JSON.stringify(request),
      timeoutMs: START_TIMEOUT_MS,
    });
  } catch (error) {
    return { kind: 'unavailable', detail: `FastShift register: ${callFailure(error)}` };
  }
  const json = parseJson(reply.body);
  if (reply.status === 200) {
    const answer = registerAnswerSchema.safeParse(json);
    if (answer.success) return redirectTo(answer.data.data.order, answer.data.data.redirect_url, request);
  }
  const parsed = errorAnswerSchema.safeParse(json);
  const error = parsed.success ? parsed.data : undefined;
  const status = answerStatusOf(reply.status, error?.status);
  const fields = Object.keys(error?.errors ?? {});
  const detail = describeError(reply, status, error);
  if (status === 'UNAUTHORIZED' || status === 'FORBIDDEN') {
    return refused('processor_unavailable', `FastShift refused the token or this server's address (${detail})`);
  }
  if ((status === 'INVALID_DATA' && fields.includes('order_number')) || status === 'ERROR') {
    // Perhaps the order number is already registered: a repeated start of this payment.
    const existing = await readOrder(call, session.orderNumber);
    if (existing.kind === 'unavailable') {
      return { kind: 'unavailable', detail: `FastShift register: ${detail}; ${existing.detail}` };
    }
    if (existing.kind === 'order') {
      const found = orderStatusOf(existing.order.status);
      return fromFailure(
        duplicateOrderFailure(found),
        `FastShift already has order ${session.orderNumber} (status ${clip(existing.order.status, 40)}) and ` +
          `gives no way to reopen its payment page (${detail})`,
      );
    }
  }
  if (status === 'OK') return { kind: 'unavailable', detail: 'FastShift register: an answer that could not be read' };
  return fromFailure(registerFailure(status, reply.status, fields), `FastShift register: ${detail}`);
}

function redirectTo(order: WireOrder, redirectUrl: string, request: RegisterRequest): StartAnswer {
  if (!sameGuid(order.order_number, request.order_number) || order.amount !== request.amount) {
    return {
      kind: 'unavailable',
      detail: `FastShift register answered order ${clip(order.order_number, 40)} of ${order.amount} AMD for ${request.amount} AMD`,
    };
  }
  let url: URL;
  try {
    url = new URL(redirectUrl);
  } catch {
    return { kind: 'unavailable', detail: 'FastShift register: redirect_url is not a URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { kind: 'unavailable', detail: 'FastShift register: redirect_url is not http(s)' };
  }
  return { kind: 'redirect', reference: order.order_guid, redirect: { method: 'GET', url: url.href } };
}

async function status(
  call: ProcessorCall<FastShiftConfig>,
  payment: Payment,
  session: ProcessorSession,
): Promise<StatusAnswer> {
  const read = await readOrder(call, session.orderNumber);
  switch (read.kind) {
    case 'unavailable':
      return read;
    case 'not_found':
      return { kind: 'unavailable', detail: `FastShift has no order ${session.orderNumber}` };
    case 'order':
      if (read.order.amount !== payment.amount) {
        return {
          kind: 'unavailable',
          detail: `FastShift order ${session.orderNumber} is of ${read.order.amount} AMD, the payment of ${payment.amount} AMD`,
        };
      }
      return orderResult(orderStatusOf(read.order.status), read.order.order_guid);
  }
}

/** A wallet with two forward chevrons: a payment shifted fast. */
const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 32" width="48" height="32" aria-hidden="true">' +
  '<rect x="2" y="5" width="38" height="22" rx="4" fill="none" stroke="currentColor" stroke-width="2"/>' +
  '<path d="M32 12h12v8H32a4 4 0 0 1 0-8z" fill="none" stroke="currentColor" stroke-width="2"/>' +
  '<path d="M9 11l5 5-5 5M17 11l5 5-5 5" fill="none" stroke="#6d28d9" stroke-width="2.6" ' +
  'stroke-linecap="round" stroke-linejoin="round"/>' +
  '</svg>';

export const fastshiftProcessor: Processor<FastShiftConfig> = {
  slug: 'fastshift',
  displayName: 'FastShift wallet',
  logoSvg: LOGO_SVG,
  configSchema: fastshiftConfigSchema,
  /** FastShift wants a GUID as `order_number`: the payment's uuid. */
  newOrderNumber: async (_call, payment) => payment.uuid.toLowerCase(),
  start,
  status,
  callback: fastshiftCallback,
};
