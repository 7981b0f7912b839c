/**
 * The BPC host as the adapter calls it: one form-encoded POST per operation (its JSON answer read
 * whatever its content type says), and the order read back (`getOrderStatusExtended.do`) that a
 * status, a refund check and a hold check all make, checked to be the payment's own order. The
 * merchant's login and password never reach a log line.
 */
import { type Payment, registeredAmount } from '../../domain/payment.js';
import { ProcessorCallError, type ProcessorReply } from '../http.js';
import type { ProcessorCall, ProcessorSession } from '../processor.js';
import type { ArcaConfig } from './config.js';
import { isAmountOf, orderStatusOf, paymentOutcome } from './map.js';
import {
  AMD_CURRENCY,
  type ArcaOperation,
  mdOrderOf,
  type OrderStatusAnswer,
  orderStatusAnswer,
  orderStatusRequest,
} from './wire.js';

export type Reply =
  | { readonly kind: 'answer'; readonly json: unknown }
  | { readonly kind: 'failed'; readonly reached: boolean; readonly detail: string };

/** Text from the bank for the log: without the merchant's login or password, and short. */
export function logText(config: ArcaConfig, text: string | null | undefined): string {
  if (text === null || text === undefined || text === '') return '';
  const clean = text.replaceAll(config.password, '***').replaceAll(config.username, '***');
  return ` (${clean.length > 200 ? `${clean.slice(0, 200)}...` : clean})`;
}

/** One call: a form-encoded POST; the answer's JSON whatever its content type says. */
export async function post(
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

export function credentials(config: ArcaConfig): { userName: string; password: string } {
  return { userName: config.username, password: config.password };
}

export type OrderRead =
  | { readonly kind: 'order'; readonly answer: OrderStatusAnswer; readonly orderStatus: number }
  | { readonly kind: 'unreadable'; readonly detail: string };

/**
 * The order as the bank has it (`getOrderStatusExtended.do`, by BPC's orderId when we have it,
 * else by our order number), checked to be ours: its order number, amount, currency and orderId
 * must be the payment's, or nothing is concluded from it.
 */
export async function readOrder(
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
