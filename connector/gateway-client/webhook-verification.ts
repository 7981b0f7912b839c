/**
 * Verifying the gateway's webhooks on the receiving side (spec "Authentication" 8, "Events",
 * "Delivery rules"; DESIGN "gateway webhook consumer (verify, de-duplicate, read back, then mark paid)").
 *
 * The gateway POSTs a JSON body with `X-Service-Signature`: the hex HMAC-SHA256 of the raw request
 * bytes, keyed with the domain's webhook secret (the whole secret string, `whsec_` included, as UTF-8).
 * During a secret rotation (24 hours) `X-Service-Signature-Next` carries the same HMAC under the new
 * secret. {@link verifyWebhook} checks those headers against every secret the receiver knows and
 * answers the parsed, typed event. {@link verifyStandardWebhook} checks the Standard Webhooks headers
 * (`webhook-id`, `webhook-timestamp`, `webhook-signature`) that the gateway sends in addition.
 *
 * A verified webhook only says "the gateway sent these bytes". After verifying, the receiver must:
 *
 * 1. De-duplicate on `event.delivery_id`: a delivery is retried (after 1, 5 and 30 minutes) until it
 *    gets a 2xx, so the same `delivery_id` can arrive more than once. Record the id in the same
 *    transaction that applies the change (a unique column), not before handling it, so a handling that
 *    failed is retried instead of being dropped as a duplicate.
 * 2. Read the payment back with `GET /api/v1/orders/{order_id}/payment` (order id URL-encoded) and act
 *    on that answer, not on the webhook body: webhooks can arrive out of order, and a failed or expired
 *    payment may later be confirmed. Mark the order paid only when the read-back status is `completed`
 *    and its amount and currency are the order's.
 * 3. Answer 2xx within 10 seconds once handled; answer 5xx when the read-back or the database failed,
 *    so the gateway retries. Answer 4xx to a failed verification.
 *
 * Usage with a plain Node http server (frameworks: disable their JSON body parser on this route, or
 * keep the raw bytes, e.g. `express.raw({ type: 'application/json' })`):
 *
 * ```ts
 * import { createServer } from 'node:http';
 * import { verifyWebhook } from './connector/gateway-client/index.js';
 *
 * createServer(async (req, res) => {
 *   const chunks: Buffer[] = [];
 *   for await (const chunk of req) chunks.push(chunk as Buffer);
 *   const result = verifyWebhook({
 *     rawBody: Buffer.concat(chunks), // the bytes as received, never JSON.stringify(parsedBody)
 *     headers: req.headers,
 *     // the current secret; during a rotation also the new one (empty entries are ignored)
 *     secrets: [process.env.WEBHOOK_SECRET ?? '', process.env.WEBHOOK_SECRET_NEXT ?? ''],
 *   });
 *   if (!result.ok) {
 *     // an authentic event this client version does not know: acknowledge it so it is not retried
 *     res.writeHead(result.reason === 'unsupported_event' ? 200 : 400).end(result.reason);
 *     return;
 *   }
 *   const { delivery_id, transaction } = result.event;
 *   // if (await alreadyHandled(delivery_id)) return res.writeHead(200).end();
 *   // const payment = await gateway.get(`/api/v1/orders/${encodeURIComponent(transaction.order_id)}/payment`);
 *   // if (payment.status === 'completed') await markPaid(transaction.order_id, delivery_id);
 *   res.writeHead(200).end();
 * }).listen(3000);
 * ```
 *
 * Decisions: signatures are compared as bytes, so upper-case hex (`A-F`) is accepted as well as the
 * lower case the gateway sends; a header value may hold several signatures separated by commas (how
 * Node and `Headers` join a repeated header), at most {@link MAX_SIGNATURES} in all; a candidate that is
 * not 64 hex characters is ignored when another candidate is well formed, and every well-formed
 * candidate is compared with every secret, without stopping at the first match.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { isUint8Array } from 'node:util/types';

/** The events the gateway emits (spec "Events"). */
export type WebhookEventName = 'transaction.status.updated' | 'payment.refunded';

/** The payment as it was when the event was emitted. Read it back before acting on it. */
export interface WebhookTransaction {
  uuid: string;
  order_id: string;
  /** `pending`, `processing`, `completed`, `failed`, `expired` or `refunded`. */
  status: string;
  /** Whole AMD. */
  amount: number;
  refunded_amount: number;
  currency: string;
  /** The processor slug; null while no method was chosen (e.g. an expired payment). */
  processor: string | null;
  /** ISO 8601 with offset; null unless the payment completed. */
  completed_at: string | null;
  created_at: string;
}

export interface WebhookRefund {
  uuid: string;
  amount: number;
  reason: string | null;
}

export interface WebhookReceipt {
  receipt_id: string;
  qr_url: string;
}

interface WebhookEventBase {
  /** Unique per delivery, the same on each retry of it: the de-duplication key. */
  delivery_id: string;
  /** False for sandbox payments. */
  livemode: boolean;
  /** Unix time in seconds. */
  timestamp: number;
  transaction: WebhookTransaction;
  receipt: WebhookReceipt | null;
}

/** A payment reached completed, failed or expired (also after a late confirmation). */
export interface TransactionStatusUpdatedEvent extends WebhookEventBase {
  event: 'transaction.status.updated';
  refund: null;
}

/** A refund was made; `transaction` is the payment after it. */
export interface PaymentRefundedEvent extends WebhookEventBase {
  event: 'payment.refunded';
  refund: WebhookRefund;
}

/**
 * The delivery body (spec "Webhook delivery body"). Keys the gateway adds later are kept on the object
 * at run time; they are not in this type.
 */
export type WebhookEvent = TransactionStatusUpdatedEvent | PaymentRefundedEvent;

/** The header whose signature matched. */
export type SignatureHeader = 'x-service-signature' | 'x-service-signature-next' | 'webhook-signature';

/** Why a webhook was not accepted. */
export type VerificationFailure =
  /** No usable secret: an empty string or list, or only empty entries. */
  | 'no_secret'
  /** `rawBody` was not a string or Uint8Array/Buffer (e.g. a body a framework had already parsed). */
  | 'body_not_raw'
  /** None of the signature headers is present (or all are blank). */
  | 'missing_signature'
  /** Signature headers are present but none holds a well-formed signature. */
  | 'malformed_signature'
  /** Well-formed signatures, but none matches the body under any secret given. */
  | 'signature_mismatch'
  /** The signature matched, but the body is not UTF-8 JSON. */
  | 'invalid_json'
  /** The signature matched, but the JSON is not a delivery body. */
  | 'not_a_webhook'
  /** The signature matched and the body is a delivery body, but of an event this client does not know. */
  | 'unsupported_event'
  /** The signed timestamp is further from now than `toleranceSeconds`. */
  | 'stale_timestamp';

export interface VerificationSuccess {
  ok: true;
  event: WebhookEvent;
  /** Index of the matching secret in the `secrets` given (0 when a single string was given). */
  secretIndex: number;
  /** The header that carried the matching signature. */
  header: SignatureHeader;
}

export interface VerificationRejection {
  ok: false;
  reason: VerificationFailure;
  /** For logs; never echo it to the sender. */
  message: string;
}

export type VerificationResult = VerificationSuccess | VerificationRejection;

/** A Node `IncomingMessage.headers`, a Koa/Express `req.headers`, a plain object, or a fetch `Headers`. */
export type WebhookHeaders =
  | Pick<Headers, 'get'>
  | Readonly<Record<string, string | readonly string[] | number | undefined>>;

export interface VerifyWebhookInput {
  /** The request body exactly as received: a Buffer/Uint8Array, or a string of those bytes as UTF-8. */
  rawBody: Uint8Array | string;
  headers: WebhookHeaders;
  /** The domain's webhook secret; during a rotation the current and the next one, in any order. */
  secrets: string | readonly string[];
  /**
   * When given, reject a body whose `timestamp` is more than this many seconds away from now.
   * The gateway sets `timestamp` at each attempt (a retry carries a fresh one, signed with the
   * body), so a few minutes of tolerance is enough; de-duplicate on `delivery_id` all the same.
   */
  toleranceSeconds?: number;
  /** Unix seconds to take as now (default: the system clock). */
  nowSeconds?: number;
}

export interface VerifyStandardWebhookInput extends Omit<VerifyWebhookInput, 'toleranceSeconds'> {
  /**
   * Reject a `webhook-timestamp` (the time of the attempt) further than this from now. Default 300,
   * as the Standard Webhooks libraries do; `null` turns the check off.
   */
  toleranceSeconds?: number | null;
}

/** At most this many signatures are compared per request; more is refused as malformed. */
export const MAX_SIGNATURES = 8;

const SERVICE_HEADERS = ['x-service-signature', 'x-service-signature-next'] as const;
const HEX_SIGNATURE = /^[0-9a-fA-F]{64}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const STANDARD_TIMESTAMP = /^[0-9]{1,15}$/;
const EVENT_NAMES: readonly string[] = ['transaction.status.updated', 'payment.refunded'];
const DEFAULT_STANDARD_TOLERANCE_SECONDS = 300;

interface Candidate {
  header: SignatureHeader;
  bytes: Buffer;
}

interface KeyedSecret {
  index: number;
  key: Uint8Array;
}

/**
 * Verifies `X-Service-Signature` / `X-Service-Signature-Next` over the raw body and answers the
 * parsed event. Throws a RangeError only for a programming error (a negative or non-finite
 * `toleranceSeconds`, a non-finite `nowSeconds`).
 */
export function verifyWebhook(input: VerifyWebhookInput): VerificationResult {
  const tolerance = checkTolerance(input.toleranceSeconds);
  const secrets = usableSecrets(input.secrets, (secret) => Buffer.from(secret, 'utf8'));
  if (secrets.length === 0) {
    return reject('no_secret', 'No webhook secret was given: pass the domain webhook secret (whsec_...).');
  }
  const body = rawBytes(input.rawBody);
  if (body === null) return rejectNotRaw(input.rawBody);

  const values = SERVICE_HEADERS.map((name) => ({ name, tokens: splitTokens(headerValues(input.headers, name), ',') }));
  const total = values.reduce((sum, { tokens }) => sum + tokens.length, 0);
  if (total === 0) {
    return reject('missing_signature', 'Neither X-Service-Signature nor X-Service-Signature-Next is present.');
  }
  if (total > MAX_SIGNATURES) {
    return reject('malformed_signature', `More than ${MAX_SIGNATURES} signatures were sent.`);
  }
  const candidates: Candidate[] = [];
  for (const { name, tokens } of values) {
    for (const token of tokens) {
      if (HEX_SIGNATURE.test(token)) candidates.push({ header: name, bytes: Buffer.from(token, 'hex') });
    }
  }
  if (candidates.length === 0) {
    return reject('malformed_signature', 'The signature header is not 64 hexadecimal characters (HMAC-SHA256).');
  }

  const match = findMatch(secrets, candidates, (key) => createHmac('sha256', key).update(body).digest());
  if (match === null) {
    return reject('signature_mismatch', 'No signature matches the raw body under the secrets given.');
  }
  const parsed = parseEvent(input.rawBody, body);
  if (!parsed.ok) return parsed;
  if (tolerance !== null) {
    const stale = checkFreshness(parsed.event.timestamp, tolerance, input.nowSeconds, 'body timestamp');
    if (stale !== null) return stale;
  }
  return { ok: true, event: parsed.event, secretIndex: match.index, header: match.header };
}

/**
 * Verifies the Standard Webhooks headers (https://www.standardwebhooks.com): `webhook-signature` holds
 * space-separated `v1,<base64 HMAC-SHA256>` entries over `${webhook-id}.${webhook-timestamp}.${body}`,
 * keyed with the base64-decoded part of the secret after `whsec_`. `webhook-id` must equal the body's
 * `delivery_id`; `webhook-timestamp` must be within `toleranceSeconds` (default 300) of now.
 */
export function verifyStandardWebhook(input: VerifyStandardWebhookInput): VerificationResult {
  const tolerance =
    input.toleranceSeconds === null
      ? null
      : checkTolerance(input.toleranceSeconds ?? DEFAULT_STANDARD_TOLERANCE_SECONDS);
  const secrets = usableSecrets(input.secrets, standardKey);
  if (secrets.length === 0) {
    return reject('no_secret', 'No usable webhook secret was given: pass the domain webhook secret (whsec_<base64>).');
  }
  const body = rawBytes(input.rawBody);
  if (body === null) return rejectNotRaw(input.rawBody);

  const ids = splitTokens(headerValues(input.headers, 'webhook-id'), ',');
  const timestamps = splitTokens(headerValues(input.headers, 'webhook-timestamp'), ',');
  const entries = splitTokens(headerValues(input.headers, 'webhook-signature'), ' ');
  if (ids.length === 0 || timestamps.length === 0 || entries.length === 0) {
    return reject('missing_signature', 'webhook-id, webhook-timestamp and webhook-signature must all be present.');
  }
  const [id] = ids;
  const [timestamp] = timestamps;
  if (ids.length > 1 || timestamps.length > 1 || id === undefined || timestamp === undefined) {
    return reject('malformed_signature', 'webhook-id and webhook-timestamp must each hold one value.');
  }
  if (!STANDARD_TIMESTAMP.test(timestamp)) {
    return reject('malformed_signature', 'webhook-timestamp is not a Unix time in seconds.');
  }
  if (entries.length > MAX_SIGNATURES) {
    return reject('malformed_signature', `More than ${MAX_SIGNATURES} signatures were sent.`);
  }
  const candidates: Candidate[] = [];
  for (const entry of entries) {
    // `Headers` joins a repeated header with ", ", leaving a comma after an entry.
    const cleaned = entry.replace(/,$/, '');
    const comma = cleaned.indexOf(',');
    const signature = cleaned.slice(comma + 1);
    if (comma < 0 || cleaned.slice(0, comma) !== 'v1' || !BASE64.test(signature)) continue;
    const bytes = Buffer.from(signature, 'base64');
    if (bytes.length === 32) candidates.push({ header: 'webhook-signature', bytes });
  }
  if (candidates.length === 0) {
    return reject('malformed_signature', 'webhook-signature holds no "v1,<base64 HMAC-SHA256>" entry.');
  }

  const prefix = Buffer.from(`${id}.${timestamp}.`, 'utf8');
  const match = findMatch(secrets, candidates, (key) => createHmac('sha256', key).update(prefix).update(body).digest());
  if (match === null) {
    return reject('signature_mismatch', 'No webhook-signature entry matches under the secrets given.');
  }
  const parsed = parseEvent(input.rawBody, body);
  if (!parsed.ok) return parsed;
  if (parsed.event.delivery_id !== id) {
    return reject('not_a_webhook', 'webhook-id differs from the body delivery_id.');
  }
  if (tolerance !== null) {
    const stale = checkFreshness(Number(timestamp), tolerance, input.nowSeconds, 'webhook-timestamp');
    if (stale !== null) return stale;
  }
  return { ok: true, event: parsed.event, secretIndex: match.index, header: match.header };
}

function reject(reason: VerificationFailure, message: string): VerificationRejection {
  return { ok: false, reason, message };
}

function rejectNotRaw(rawBody: unknown): VerificationRejection {
  const got = rawBody === null ? 'null' : Array.isArray(rawBody) ? 'an array' : `a ${typeof rawBody}`;
  return reject(
    'body_not_raw',
    `rawBody must be the request bytes (Buffer/Uint8Array) or their UTF-8 string, got ${got}; ` +
      'a body parsed and serialised again does not carry the same bytes.',
  );
}

function checkTolerance(tolerance: number | undefined): number | null {
  if (tolerance === undefined) return null;
  if (!Number.isFinite(tolerance) || tolerance < 0) {
    throw new RangeError(`toleranceSeconds must be a finite number >= 0, got ${tolerance}`);
  }
  return tolerance;
}

function checkFreshness(
  signedSeconds: number,
  tolerance: number,
  nowSeconds: number | undefined,
  what: string,
): VerificationRejection | null {
  if (nowSeconds !== undefined && !Number.isFinite(nowSeconds)) {
    throw new RangeError(`nowSeconds must be a finite number, got ${nowSeconds}`);
  }
  const now = nowSeconds ?? Math.floor(Date.now() / 1000);
  const skew = now - signedSeconds;
  if (Math.abs(skew) <= tolerance) return null;
  const direction = skew > 0 ? `${skew} s in the past` : `${-skew} s in the future`;
  return reject('stale_timestamp', `The ${what} is ${direction}, beyond the tolerance of ${tolerance} s.`);
}

/** The non-empty secrets with their index in the caller's list, as HMAC keys. */
function usableSecrets(secrets: unknown, toKey: (secret: string) => Uint8Array | null): KeyedSecret[] {
  const list: readonly unknown[] = typeof secrets === 'string' ? [secrets] : Array.isArray(secrets) ? secrets : [];
  const usable: KeyedSecret[] = [];
  list.forEach((secret, index) => {
    if (typeof secret !== 'string' || secret === '') return;
    const key = toKey(secret);
    if (key !== null && key.length > 0) usable.push({ index, key });
  });
  return usable;
}

/** Standard Webhooks: the key is the base64 after `whsec_` (the prefix is optional there). */
function standardKey(secret: string): Uint8Array | null {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  return BASE64.test(encoded) ? Buffer.from(encoded, 'base64') : null;
}

function rawBytes(rawBody: unknown): Uint8Array | null {
  if (typeof rawBody === 'string') return Buffer.from(rawBody, 'utf8');
  if (isUint8Array(rawBody)) return rawBody;
  return null;
}

/** Every value of a header, case-insensitively, from a plain object or a `Headers`. */
function headerValues(headers: WebhookHeaders, name: string): string[] {
  if (typeof headers.get === 'function') {
    const value = (headers as Pick<Headers, 'get'>).get(name);
    return value === null ? [] : [value];
  }
  const values: string[] = [];
  for (const [key, value] of Object.entries(headers as Readonly<Record<string, unknown>>)) {
    if (key.toLowerCase() !== name) continue;
    if (typeof value === 'string') values.push(value);
    else if (Array.isArray(value)) for (const item of value) if (typeof item === 'string') values.push(item);
  }
  return values;
}

function splitTokens(values: readonly string[], separator: string): string[] {
  return values
    .flatMap((value) => value.split(separator === ' ' ? /\s+/ : separator))
    .flatMap((token) => {
      const trimmed = token.trim();
      return trimmed === '' ? [] : [trimmed];
    });
}

/**
 * Compares every candidate with the HMAC under every secret in constant time and does not stop at a
 * match, so the time taken does not tell which pair matched or how far a guess got.
 */
function findMatch(
  secrets: readonly KeyedSecret[],
  candidates: readonly Candidate[],
  sign: (key: Uint8Array) => Buffer,
): { index: number; header: SignatureHeader } | null {
  let match: { index: number; header: SignatureHeader } | null = null;
  for (const secret of secrets) {
    const expected = sign(secret.key);
    for (const candidate of candidates) {
      // Both are 32 bytes: candidates were length-checked when parsed.
      const equal = candidate.bytes.length === expected.length && timingSafeEqual(expected, candidate.bytes);
      if (equal && match === null) match = { index: secret.index, header: candidate.header };
    }
  }
  return match;
}

type Parsed = { ok: true; event: WebhookEvent } | VerificationRejection;

function parseEvent(rawBody: Uint8Array | string, bytes: Uint8Array): Parsed {
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
  if (event === 'transaction.status.updated' && refund !== null) {
    return reject('not_a_webhook', 'transaction.status.updated with a refund.');
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
