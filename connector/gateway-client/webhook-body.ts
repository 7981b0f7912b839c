/**
 * The checks of a webhook body once its signature matched: UTF-8 JSON, shaped as a delivery body,
 * of an event this client knows.
 */
import type { WebhookEvent } from './webhook-event.js';

/** Why an authentic body is not accepted (a reason of `VerificationFailure`). */
export type BodyProblem = 'invalid_json' | 'not_a_webhook' | 'unsupported_event';

const EVENT_NAMES: readonly string[] = ['transaction.status.updated', 'payment.refunded', 'payment.authorized'];

type Parsed = { ok: true; event: WebhookEvent } | { ok: false; reason: BodyProblem; message: string };

function reject(reason: BodyProblem, message: string): Parsed {
  return { ok: false, reason, message };
}

export function parseEvent(rawBody: Uint8Array | string, bytes: Uint8Array): Parsed {
  let value: unknown;
  try {
    const text = typeof rawBody === 'string' ? rawBody : new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    value = JSON.parse(text);
  } catch {
    return reject('invalid_json', 'The signature matches but the body is not UTF-8 JSON.');
  }
  const problem = deliveryBodyProblem(value);
  if (problem !== null)
    return reject('not_a_webhook', `The signature matches but the body is not a delivery: ${problem}.`);
  const event = (value as { event: string }).event;
  if (!EVENT_NAMES.includes(event)) {
    return reject('unsupported_event', `Authentic delivery of an event this client does not know: ${event}.`);
  }
  const refund = (value as { refund: unknown }).refund;
  if (event === 'payment.refunded' && refund === null)
    return reject('not_a_webhook', 'payment.refunded without refund.');
  if (event !== 'payment.refunded' && refund !== null) {
    return reject('not_a_webhook', `${event} with a refund.`);
  }
  return { ok: true, event: value as WebhookEvent };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

type FieldType = 'string' | 'number' | 'boolean' | 'string|null';

function fieldProblem(record: Record<string, unknown>, fields: Readonly<Record<string, FieldType>>, path: string) {
  for (const [field, type] of Object.entries(fields)) {
    const value = record[field];
    const ok =
      type === 'string|null'
        ? value === null || typeof value === 'string'
        : type === 'number'
          ? typeof value === 'number' && Number.isFinite(value)
          : typeof value === type;
    if (!ok) return `${path}${field} is not a ${type}`;
  }
  return null;
}

/** What makes `value` not a delivery body, or null; the event name is checked by the caller. */
function deliveryBodyProblem(value: unknown): string | null {
  if (!isRecord(value)) return 'not a JSON object';
  if (typeof value.delivery_id !== 'string' || value.delivery_id === '') return 'delivery_id is missing';
  const top = fieldProblem(value, { event: 'string', livemode: 'boolean', timestamp: 'number' }, '');
  if (top !== null) return top;
  if (!isRecord(value.transaction)) return 'transaction is missing';
  const transaction = fieldProblem(
    value.transaction,
    {
      uuid: 'string',
      order_id: 'string',
      status: 'string',
      amount: 'number',
      refunded_amount: 'number',
      currency: 'string',
      processor: 'string|null',
      completed_at: 'string|null',
      created_at: 'string',
    },
    'transaction.',
  );
  if (transaction !== null) return transaction;
  if (value.refund !== null) {
    if (!isRecord(value.refund)) return 'refund is neither null nor an object';
    const refund = fieldProblem(value.refund, { uuid: 'string', amount: 'number', reason: 'string|null' }, 'refund.');
    if (refund !== null) return refund;
  }
  if (value.receipt !== null) {
    if (!isRecord(value.receipt)) return 'receipt is neither null nor an object';
    const receipt = fieldProblem(value.receipt, { receipt_id: 'string', qr_url: 'string' }, 'receipt.');
    if (receipt !== null) return receipt;
  }
  return null;
}
