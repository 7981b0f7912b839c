/**
 * The vPOS API as the adapter calls it: one JSON POST per operation with the credentials in the
 * body, and the GetPaymentDetails read that every status, refund check and hold check makes.
 * Credentials never appear in a `detail`, an error or a log line.
 */
import { ProcessorCallError, type ProcessorReply } from '../http.js';
import type { ProcessorCall, ProcessorSession } from '../processor.js';
import type { AmeriaConfig } from './config.js';
import {
  AMD_CURRENCY,
  type AmeriaOperation,
  ASP_NET_FAULT_MESSAGE,
  aspNetFault,
  type CancelPaymentRequest,
  type ConfirmPaymentRequest,
  detailsEnvelope,
  type InitPaymentRequest,
  type PaymentDetailsAnswer,
  type PaymentDetailsRequest,
  paymentDetailsAnswer,
  type RefundPaymentRequest,
} from './wire.js';

export type Call = ProcessorCall<AmeriaConfig>;

function operationUrl(config: AmeriaConfig, operation: AmeriaOperation): string {
  return `${config.base_url}api/VPOS/${operation}`;
}

export async function post(
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

export function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

export /** What one GetPaymentDetails read found. */
type DetailsRead =
  | { readonly kind: 'details'; readonly details: PaymentDetailsAnswer }
  /** The bank would not say (its HTTP 500 fault, or "550"): seen for a payment registered and never paid. */
  | { readonly kind: 'not_said'; readonly detail: string }
  | { readonly kind: 'unavailable'; readonly detail: string };

export async function readDetails(call: Call, paymentId: string, timeoutMs: number): Promise<DetailsRead> {
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
export function mismatch(details: PaymentDetailsAnswer, session: ProcessorSession): string | undefined {
  if (details.OrderID !== session.orderNumber) {
    return `GetPaymentDetails names OrderID ${JSON.stringify(details.OrderID)}, the session ${session.orderNumber}`;
  }
  if (details.Currency !== AMD_CURRENCY) return `GetPaymentDetails names currency ${JSON.stringify(details.Currency)}`;
  return undefined;
}

export function callFailure(error: unknown): string {
  if (error instanceof ProcessorCallError) return error.message;
  return 'the call failed';
}

export function quoted(message: string | undefined): string {
  return message === undefined || message === '' ? '(no message)' : JSON.stringify(message.slice(0, 200));
}
