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
import { createHmac } from 'node:crypto';
import {
  BASE64,
  type Candidate,
  findMatch,
  headerValues,
  rawBytes,
  type SignatureHeader,
  splitTokens,
  standardKey,
  usableSecrets,
  type WebhookHeaders,
} from './signatures.js';
import { parseEvent } from './webhook-body.js';
import type { WebhookEvent } from './webhook-event.js';

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
const STANDARD_TIMESTAMP = /^[0-9]{1,15}$/;
const DEFAULT_STANDARD_TOLERANCE_SECONDS = 300;

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
