/**
 * BPC's callback notifications, for a bank that sends them (none of the public ArCa integrations
 * uses them; the bank sets the address, `<public url>/processors/arca/callback`, and the key on the
 * merchant). A GET (or a form POST) with `mdOrder`, `orderNumber`, `operation` (`deposited`,
 * `approved`, `reversed`, `refunded`, `declinedByTimeout` ...), `status` (1 done, 0 failed),
 * sometimes `amount`, and with a symmetric checksum: `checksum` = upper-case hex HMAC-SHA256, with
 * the shared key, of `name;value;` for every other parameter (`sign_alias` excluded) sorted by
 * name. BPC's own example is pinned in the tests.
 *
 * A callback never decides a payment: it only makes the core read the order back. With
 * `callback_secret` set, a callback whose checksum is missing or wrong is ignored; without it,
 * every callback is an unsigned hint, read back the same way.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Payment } from '../../domain/payment.js';
import type { CallbackAnswer, CallbackHandler, CallbackRequest } from '../processor.js';
import type { ArcaConfig } from './config.js';
import { arcaOrderId } from './wire.js';

/** Parameters that take no part in the checksum. */
const UNSIGNED = new Set(['checksum', 'sign_alias']);

const ORDER_NUMBER = /^[A-Za-z0-9-]{1,32}$/;

/**
 * The callback's parameters, from the query and a form body together; null when a name comes
 * twice (a checksum over it would be ambiguous).
 */
export function callbackParams(request: Pick<CallbackRequest, 'query' | 'form'>): Map<string, string> | null {
  const params = new Map<string, string>();
  for (const source of [request.query, request.form]) {
    for (const [name, value] of source) {
      if (params.has(name)) return null;
      params.set(name, value);
    }
  }
  return params;
}

/** The string BPC signs: `name;value;` of every signed parameter, sorted by name. */
export function checksumSource(params: ReadonlyMap<string, string>): string {
  return [...params.keys()]
    .filter((name) => !UNSIGNED.has(name))
    .sort()
    .map((name) => `${name};${params.get(name)};`)
    .join('');
}

export function callbackChecksum(params: ReadonlyMap<string, string>, secret: string): string {
  return createHmac('sha256', secret).update(checksumSource(params), 'utf8').digest('hex').toUpperCase();
}

/** Whether the callback carries the right checksum (hex in either case), compared in constant time. */
export function checksumValid(params: ReadonlyMap<string, string>, secret: string): boolean {
  const given = params.get('checksum') ?? '';
  if (!/^[0-9A-Fa-f]{64}$/.test(given)) return false;
  return timingSafeEqual(Buffer.from(given, 'hex'), Buffer.from(callbackChecksum(params, secret), 'hex'));
}

const text = (status: number, body: string): CallbackAnswer => ({
  status,
  contentType: 'text/plain; charset=utf-8',
  body,
});

/** BPC wants HTTP 200; anything else is retried a few times. */
const OK = () => text(200, 'OK');

/** A payment a callback can still change: a read-back may complete it (late, when failed or expired). */
function readBackUseful(payment: Payment): boolean {
  switch (payment.status) {
    case 'pending':
    case 'processing':
    case 'failed':
    case 'expired':
      return true;
    // A hold's capture and release are settled by the gateway's own status checks, never by a callback.
    case 'authorized':
    case 'completed':
    case 'refunded':
      return false;
  }
}

export const arcaCallback: CallbackHandler<ArcaConfig> = {
  identify(request) {
    const params = callbackParams(request);
    if (params === null) return null;
    const orderNumber = params.get('orderNumber');
    // Our order number is always in the session; BPC's orderId only once register.do answered.
    if (orderNumber !== undefined && ORDER_NUMBER.test(orderNumber)) return { orderNumber };
    const mdOrder = params.get('mdOrder');
    if (mdOrder !== undefined && arcaOrderId.safeParse(mdOrder).success) return { reference: mdOrder };
    return null;
  },

  decide(call, payment, session, request) {
    const params = callbackParams(request);
    if (params === null) return { outcome: null, answer: () => text(400, 'a parameter is repeated') };
    const secret = call.config.callback_secret;
    if (secret !== undefined && !checksumValid(params, secret)) {
      return { outcome: null, answer: () => text(403, 'checksum mismatch') };
    }
    const orderNumber = params.get('orderNumber');
    const mdOrder = params.get('mdOrder');
    const otherOrder =
      (orderNumber !== undefined && orderNumber !== session.orderNumber) ||
      (mdOrder !== undefined &&
        session.reference !== null &&
        mdOrder.toLowerCase() !== session.reference.toLowerCase());
    if (otherOrder) return { outcome: null, answer: () => text(400, 'order mismatch') };
    // A repeat of what is known (BPC retries, a replay) changes nothing.
    return { outcome: readBackUseful(payment) ? 'read_back' : null, answer: OK };
  },

  unknown: () => text(404, 'unknown order'),
};
