/**
 * FastShift's webhook (`webhook_url` = `/processors/fastshift/callback`). The manual says only that
 * FastShift "sends webhook to this url after the process is completed" with `status` and
 * `order_number`: no method, no content type, no signature, no expected answer. So the order number
 * is read from a JSON body, a form body or the query (in that order), nothing in it is believed,
 * and the status is always read back with the status call. The answer is HTTP 200
 * `{"status":"OK"}`, in FastShift's own answer vocabulary, whatever the payment's state.
 */
import type { CallbackAnswer, CallbackHandler, CallbackRequest, SessionKey } from '../processor.js';
import { GUID_PATTERN } from './wire.js';

const JSON_TYPE = 'application/json';

function jsonAnswer(status: number, body: unknown): CallbackAnswer {
  return { status, contentType: JSON_TYPE, body: JSON.stringify(body) };
}

function fromJson(json: unknown): unknown {
  return typeof json === 'object' && json !== null && !Array.isArray(json)
    ? (json as Record<string, unknown>).order_number
    : undefined;
}

/** The order number a webhook names, lower-cased as we sent it; null when it names no GUID. */
export function webhookOrderNumber(request: CallbackRequest): string | null {
  const candidates: unknown[] = [
    fromJson(request.json),
    request.form.get('order_number'),
    request.query.get('order_number'),
  ];
  const named = candidates.find((value) => value !== undefined && value !== null);
  if (typeof named !== 'string') return null;
  const orderNumber = named.trim();
  return GUID_PATTERN.test(orderNumber) ? orderNumber.toLowerCase() : null;
}

export const fastshiftCallback: CallbackHandler<unknown> = {
  identify(request): SessionKey | null {
    const orderNumber = webhookOrderNumber(request);
    return orderNumber === null ? null : { orderNumber };
  },
  decide() {
    return { outcome: 'read_back', answer: () => jsonAnswer(200, { status: 'OK' }) };
  },
  unknown() {
    return jsonAnswer(404, { status: 'NOT_FOUND', message: 'No such order' });
  },
};
