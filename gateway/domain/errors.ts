/**
 * The one table of error codes a client can see, each with its HTTP status and the text that
 * `/docs/errors#<code>` shows. Codes are part of the API contract: a code never changes meaning.
 * The spec's codes come first; the codes after them cover transport faults (bad JSON, wrong
 * content type, oversized bodies, unknown routes) in the same error shape.
 */

export interface ErrorCodeInfo {
  readonly status: number;
  readonly title: string;
  readonly explanation: string;
}

export const ERROR_CODES = {
  missing_credentials: {
    status: 401,
    title: 'No credentials sent',
    explanation:
      'The request carried neither `X-Service-Key`, `Authorization: Bearer <key>` nor `X-Service-Connect`. Send your secret key in one of those headers.',
  },
  invalid_api_key: {
    status: 401,
    title: 'API key not recognised',
    explanation:
      'The key is malformed, unknown or revoked. Keys start with `sk_live_` or `sk_test_` and are shown once when created; create a new one if it was lost. Repeated failures from one address are limited (see `too_many_attempts`).',
  },
  invalid_connect_token: {
    status: 401,
    title: 'Connect token not accepted',
    explanation:
      'The `X-Service-Connect` token is malformed, was not signed by this service, has expired or been revoked, or its domain is no longer a verified domain of the account. The message says which. Create a new token for the store and paste it into the plugin settings. Repeated failures from one address are limited (see `too_many_attempts`).',
  },
  domain_required: {
    status: 403,
    title: 'No domain could be determined',
    explanation:
      'Live requests are tied to one of your verified domains, taken from the `Origin` header, else the `domain` body field, else the host of `return_url`. None of them named a domain.',
  },
  domain_not_registered: {
    status: 403,
    title: 'Domain not registered or not verified',
    explanation:
      'The domain this request came from is not a verified domain of your account. Add the domain and complete its verification before taking live payments on it.',
  },
  domain_mismatch: {
    status: 403,
    title: 'Address outside your verified domains',
    explanation:
      '`return_url`, `cancel_url` and `callback_url` must lie on a verified domain of your account (the domain itself or a subdomain of it), and the `domain` field must agree with the `Origin` of a browser request. `localhost` can never be verified; use a test key for local development.',
  },
  VERIFICATION_REQUIRED: {
    status: 403,
    title: 'Business verification required',
    explanation:
      'Live keys, live payments and purchases need a verified business. Test keys work at once. The body carries `verification_url`, where verification is explained.',
  },
  insufficient_scope: {
    status: 403,
    title: 'Key not allowed to do this',
    explanation:
      'Payments-only keys may create and read payments and payment links, but may not refund or buy units; connect tokens may create, read and refund payments of their own domain. Use a full-access key for this call.',
  },
  BALANCE_EXHAUSTED: {
    status: 402,
    title: 'Transaction balance used up',
    explanation:
      'The account used its `transactions` units past the grace floor, so new live payments are refused until units are bought. The body carries `available`, `grace_floor` and `top_up_url`. Test payments are never refused for balance.',
  },
  not_found: {
    status: 404,
    title: 'Not found',
    explanation:
      'No such resource for this key: it does not exist, belongs to another account, or belongs to the other environment (a test key never sees live records and the reverse). Also answered for unknown routes.',
  },
  order_not_found: {
    status: 404,
    title: 'No payment for this order',
    explanation:
      "No payment of this key's environment carries this `order_id`. URL-encode the order id when it contains `/`, `?`, `#` or spaces.",
  },
  conflict: {
    status: 409,
    title: 'Request with this Idempotency-Key still running',
    explanation:
      'A request with the same `Idempotency-Key` is still being processed. Wait a moment and retry with the same key: once the first request finishes, the retry answers its result.',
  },
  not_refundable: {
    status: 409,
    title: 'Payment cannot be refunded',
    explanation:
      'Only a `completed` payment can be refunded. This payment is `pending`, `processing`, `failed` or `expired` (the body adds `payment_status`): nothing was taken from the buyer, so there is nothing to refund. A payment that is fully refunded answers `already_refunded` instead.',
  },
  payment_not_cancellable: {
    status: 409,
    title: 'Payment already paid',
    explanation:
      'Only an open payment (`pending` or `processing`) can be cancelled. This one is `completed` or `refunded` (the body adds `payment_status`): the buyer paid, so refund it instead; or `authorized` (the card holds its amount): void it instead. Cancelling a payment that is already `expired` or `failed` answers it as it is.',
  },
  already_refunded: {
    status: 409,
    title: 'Payment already fully refunded',
    explanation:
      'The payment is `refunded`: its whole amount has already been refunded (`refunded_amount` equals `amount`, or `charge.amount` for a payment converted from another currency), so nothing remains to refund.',
  },
  refund_in_progress: {
    status: 409,
    title: 'Another refund is running',
    explanation:
      'Refunds of this payment that are still in flight (pending, or with an unknown outcome) hold part of its amount, and the request needs some of it: `amount` was left out (a refund of the whole remaining amount) while any refund is in flight, or `amount` is at most what remains (`remaining_amount`: `amount` minus `refunded_amount`) but more than that minus the refunds in flight (`in_progress_amount`); the body adds both. Also answered to a retry with the same `Idempotency-Key` while its refund is still being sent; the body then adds that `refund`. Read `GET /api/v1/payments/{uuid}/refunds` and retry once they have ended.',
  },
  refund_outcome_unknown: {
    status: 409,
    title: 'Refund outcome unknown',
    explanation:
      'The processor did not answer the refund, so it may or may not have been made. The refund (in `refund`, with status `unknown`) keeps its amount reserved and is never sent again; status checks with the processor settle it after 1, 5 and 30 minutes, then every 6 hours, and a `payment.refunded` webhook follows if it succeeded. A retry with the same `Idempotency-Key` answers the same refund in its current state. Do not refund again with a new key: read the payment or `GET /api/v1/payments/{uuid}/refunds` first.',
  },
  refund_declined: {
    status: 409,
    title: 'Refund declined by the processor',
    explanation:
      'The processor refused the refund (in `refund`, with status `failed`). Nothing was refunded and its amount is free again. A retry with the same `Idempotency-Key` answers this error again; use a new key to try again.',
  },
  processor_unavailable: {
    status: 409,
    title: 'Processor unavailable',
    explanation:
      'The processor could not be reached and nothing was sent to it: the refund (in `refund`) failed, nothing was refunded and its amount is free again; or the capture or void (in `operation`) failed and the hold is unchanged (the payment stays `authorized`). The `Idempotency-Key` is released, so retrying later with the same key is safe.',
  },
  payment_not_authorized: {
    status: 409,
    title: 'Payment holds nothing to capture or void',
    explanation:
      'Only an `authorized` payment (created with `capture_method: manual`, its amount held on the card) can be captured or voided. This one is not (the body adds `payment_status`): still open (`pending`, `processing`), already captured (`completed`, `refunded`), or over (`failed`, or `expired`: voided, or its hold ran out). A capture is made once; refund a captured payment instead.',
  },
  hold_operation_in_progress: {
    status: 409,
    title: 'A capture or void is running',
    explanation:
      "A capture or void of this payment's hold is still being sent to the processor (in `operation`). Only one is ever sent. Read the payment back in a moment: it ends `completed` (captured), `expired` (released) or stays `authorized` (the operation failed; try again).",
  },
  capture_outcome_unknown: {
    status: 409,
    title: 'Capture outcome unknown',
    explanation:
      'The processor did not answer the capture, so the money may or may not have been taken. The capture (in `operation`, status `unknown`) is never sent again, and no other capture or void is sent meanwhile; status checks with the processor settle it after 1, 5 and 30 minutes, then every 6 hours, and `transaction.status.updated` follows when it was captured. A retry with the same `Idempotency-Key` answers its current state. Read the payment back; do not capture again.',
  },
  void_outcome_unknown: {
    status: 409,
    title: 'Void outcome unknown',
    explanation:
      'The processor did not answer the void, so the hold may or may not have been released. The void (in `operation`, status `unknown`) is never sent again; status checks settle it as a capture is settled, and `transaction.status.updated` (`expired`, `failure_code: voided`) follows when the hold was released. Read the payment back.',
  },
  capture_declined: {
    status: 409,
    title: 'Capture declined by the processor',
    explanation:
      'The processor refused the capture (in `operation`, status `failed`): nothing was taken and the hold stands, so the payment stays `authorized` until you void it or its hold runs out (`capture_before`). A retry with the same `Idempotency-Key` answers this error again; use a new key to try again.',
  },
  void_declined: {
    status: 409,
    title: 'Void declined by the processor',
    explanation:
      "The processor refused to release the hold (in `operation`, status `failed`; some release a hold only on the day it was placed). The payment stays `authorized`; the gateway never captures it without you, and releases it when its hold runs out (`capture_before`), when the card's issuer lets it go anyway.",
  },
  authorization_expired: {
    status: 409,
    title: 'Hold ran out',
    explanation:
      "The payment's hold can no longer be captured: `capture_before` has passed (the processor's hold window). The gateway releases it: the payment becomes `expired` with `failure_code: authorization_expired`, and the order may be paid again.",
  },
  validation_failed: {
    status: 422,
    title: 'Request is invalid',
    explanation:
      'One or more fields or parameters are invalid. The body adds `errors`: an object mapping each field name to a list of messages, for example `{"amount": ["must be a whole number of AMD"]}`.',
  },
  no_payment_method_configured: {
    status: 422,
    title: 'No payment method for this domain',
    explanation:
      'The domain has no enabled processor, or the named `processor` is not enabled for it. Enable a processor for the domain first.',
  },
  amount_limit_exceeded: {
    status: 422,
    title: 'Amount above the limit',
    explanation:
      'The amount, in AMD (after conversion for a payment in another currency), is above the largest amount one payment may carry: the service-wide maximum, or the lower maximum the domain set. The body adds `max_amount` (AMD). Split the order or ask for a higher limit.',
  },
  velocity_exceeded: {
    status: 422,
    title: 'Too many payments in a short time',
    explanation:
      'This buyer (the `customer_id` you sent, else `customer_email`) already has as many payments on this domain in the window as the domain allows, failed and expired attempts included. The body adds `velocity_limit` (payments), `velocity_window_minutes` and `retry_after` (seconds until one more fits; also the `Retry-After` header).',
  },
  refund_not_supported: {
    status: 422,
    title: 'Processor cannot refund',
    explanation:
      "The payment was taken by a processor, or with a payment method, that cannot refund through the API. Refund it in the processor's own back office. Checked after the payment status and before the amount.",
  },
  no_webhook_target: {
    status: 409,
    title: 'Nowhere to send the event',
    explanation:
      "An event was to be resent, but its payment has no `callback_url` and the payment's domain has no webhook URL. Set the domain's webhook URL (dashboard, or `bin/gateway domain add --webhook-url`), then resend.",
  },
  receipts_not_enabled: {
    status: 422,
    title: 'Fiscal receipts not enabled',
    explanation:
      'A live receipt was asked for on a domain that does not issue fiscal receipts (never enabled, or test receipts only). Enable them for the domain with its cash-register settings (docs/receipts.md), or name a domain that has them with `domain`.',
  },
  invalid_amount: {
    status: 422,
    title: 'Invalid amount',
    explanation:
      'A refund or capture `amount`, when sent, must be a JSON integer of whole AMD, at least 1 (not 0, negative, a fraction, a string, null, or beyond 9007199254740991). Leave `amount` out to refund the whole remaining amount, or to capture the whole hold. The body adds `errors.amount`.',
  },
  amount_exceeds_authorized: {
    status: 422,
    title: 'Capture larger than the hold',
    explanation:
      'The capture `amount` is larger than what the card holds (`authorized_amount`, whole AMD). The body adds `authorized_amount`. Leave `amount` out to capture the whole hold.',
  },
  amount_exceeds_remaining: {
    status: 422,
    title: 'Refund larger than what remains',
    explanation:
      "The refund `amount` is larger than what remains refundable: the payment's `amount` (`charge.amount` in AMD for a payment converted from another currency) minus its `refunded_amount` (succeeded refunds). The body adds `remaining_amount`. When the amount fits but refunds still in flight hold part of it, the answer is `refund_in_progress` instead.",
  },
  below_minimum: {
    status: 422,
    title: 'Below the minimum purchase',
    explanation: 'The purchase quantity is below the minimum purchase quantity.',
  },
  rate_limited: {
    status: 429,
    title: 'Too many requests',
    explanation:
      'The account sent more requests per minute than its limit (60 by default). Wait the number of seconds in `Retry-After` before retrying.',
  },
  too_many_attempts: {
    status: 429,
    title: 'Too many failed authentications',
    explanation:
      'More than 120 requests with missing or wrong credentials came from this address within a minute. Wait the number of seconds in `Retry-After`, and check the key you send.',
  },
  invalid_json: {
    status: 400,
    title: 'Body is not valid JSON',
    explanation: 'The request body could not be parsed as JSON. Send a JSON object encoded as UTF-8.',
  },
  malformed_request: {
    status: 400,
    title: 'Request could not be read as HTTP',
    explanation:
      'The request line or the headers are not valid HTTP/1.1 (a bad method, target, header or framing), so the request never reached the API. The connection is closed after this answer. Use an HTTP client library rather than writing requests by hand.',
  },
  request_timeout: {
    status: 408,
    title: 'Request sent too slowly',
    explanation:
      'The client took longer than the limit to send the request: its headers must arrive within 10 seconds and the whole request within 20 seconds of its first byte. Nothing was done; the connection is closed after this answer. Retry it (with the same `Idempotency-Key` where the call takes one).',
  },
  headers_too_large: {
    status: 431,
    title: 'Request headers too large',
    explanation:
      'The request line and headers together are larger than the limit (16 KiB). Nothing was done; the connection is closed after this answer. API requests need only a few small headers: check for oversized cookies or repeated headers added by a proxy.',
  },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed',
    explanation:
      'The route exists but does not accept this HTTP method. The `Allow` header lists the methods it accepts.',
  },
  payload_too_large: {
    status: 413,
    title: 'Body too large',
    explanation: 'The request body is larger than the limit (64 KiB). API bodies are small JSON objects.',
  },
  unsupported_media_type: {
    status: 415,
    title: 'Body must be JSON',
    explanation: 'Requests with a body must send `Content-Type: application/json`.',
  },
  internal_error: {
    status: 500,
    title: 'Internal error',
    explanation:
      'Something failed on our side. Nothing is half-written: the request either took effect or did not. Retry with the same `Idempotency-Key`, and quote `request_id` to support.',
  },
  service_unavailable: {
    status: 503,
    title: 'Service unavailable',
    explanation:
      'The service is starting, stopping or cannot reach its database. Retry after the seconds `Retry-After` gives; retry a POST with the same `Idempotency-Key`, so that a request that took effect before the failure is answered, not done twice.',
  },
} as const satisfies Record<string, ErrorCodeInfo>;

export type ErrorCode = keyof typeof ERROR_CODES;

export type FieldErrors = Record<string, string[]>;

/**
 * An error a client may see. `details` are the extra keys the spec adds to some codes
 * (`verification_url`, `available`, ...); `fieldErrors` becomes `errors` of a 422.
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly fieldErrors: FieldErrors | undefined;
  readonly details: Readonly<Record<string, unknown>>;
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    code: ErrorCode,
    message: string,
    options: {
      fieldErrors?: FieldErrors;
      details?: Record<string, unknown>;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.fieldErrors = options.fieldErrors;
    this.details = options.details ?? {};
    this.headers = options.headers ?? {};
  }
}

export function validationFailed(fieldErrors: FieldErrors, message?: string): ApiError {
  const fields = Object.keys(fieldErrors);
  const text =
    message ??
    (fields.length === 1
      ? `The ${fields[0]} field is invalid: ${fieldErrors[fields[0] as string]?.[0] ?? 'invalid'}.`
      : `${fields.length} fields are invalid: ${fields.join(', ')}.`);
  return new ApiError('validation_failed', text, { fieldErrors });
}

/** The message of a body field a request does not have (a body names only the API's fields). */
export const UNKNOWN_FIELD = 'is not a field of this request';
