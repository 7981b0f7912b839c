/**
 * What the gateway needs from a processor. Each processor lives in its own folder beside this file
 * (docs/processors.md "Adding a processor"):
 *
 * - `adapter.ts`: the `Processor` object: HTTP and authentication with the remote;
 * - `wire.ts`: the remote's exact request and answer shapes (zod schemas of what it sends);
 * - `map.ts`: pure mapping of the remote's statuses, amounts and errors to the core's types, with
 *   an exhaustive switch in which an unknown value maps to an explicit unknown;
 * - `callback.ts`: where the remote calls us (a server callback or the buyer's return).
 *
 * The core owns everything around an adapter: the per-domain settings (validated by the adapter's
 * schema, sealed at rest), the session row that links a payment to the processor's own order, the
 * HTTP client with its timeouts and private-address guard, the buyer's return, the callback route,
 * the polling of payments left processing, refunds and their status checks. An adapter answers
 * data (a decline, an unavailable processor, an unknown outcome) and never throws for what a
 * processor answered; it never decides a payment's status from anything unsigned without reading
 * the status back from the processor.
 */
import type { z } from 'zod';
import type { CaptureMethod, Payment } from '../domain/payment.js';
import type { FailureCode, ProviderResult } from '../domain/payment-lifecycle.js';
import type { ProcessorHttp } from './http.js';

/** The language of the processor's pages, from the buyer's checkout language. */
export type ProcessorLanguage = 'hy' | 'ru' | 'en';

/**
 * The link between a payment and its order at one processor, kept by the core (table
 * `processor_sessions`). Created before the processor is first called, so that a repeated start
 * (a double click, a reload) registers the same order number again instead of a second order.
 */
export interface ProcessorSession {
  readonly paymentId: string;
  readonly processor: string;
  /**
   * What the gateway sent the processor as the order's number (Ameria's integer `OrderID`, ArCa's
   * `orderNumber`, Idram's `EDP_BILL_NO`, Telcell's `issuer_id`, FastShift's `order_number`):
   * `newOrderNumber`'s answer, unique per processor.
   */
  readonly orderNumber: string;
  /** The processor's own id of the order (Ameria's PaymentID, ArCa's orderId); null until it gave one. */
  readonly reference: string | null;
}

/** Where the buyer's browser goes to pay: a plain redirect, or a form it posts (Idram). */
export type BuyerRedirect =
  | { readonly method: 'GET'; readonly url: string }
  | { readonly method: 'POST'; readonly url: string; readonly fields: Readonly<Record<string, string>> };

/**
 * What registering a payment at a processor answered.
 *
 * - `redirect`: the order exists (or needs no registration); the buyer goes there.
 * - `refused`: the processor answered and refused (bad settings, an amount it will not take). The
 *   payment stays pending: the buyer may choose another method. `detail` is for the log only.
 * - `unavailable`: no usable answer (not reached, a timeout, an error page). Nothing was started
 *   that the buyer could pay: the payment stays pending.
 */
export type StartAnswer =
  | { readonly kind: 'redirect'; readonly reference: string | null; readonly redirect: BuyerRedirect }
  | { readonly kind: 'refused'; readonly failureCode: FailureCode; readonly detail: string }
  | { readonly kind: 'unavailable'; readonly detail: string };

/**
 * What reading a payment's status back from the processor answered: the provider's result
 * (`pending`: not paid yet, the processor may still take the payment), or `unavailable` when the
 * status could not be read (the payment stays as it is; the poll job asks again later).
 */
export type StatusAnswer = ProviderResult | { readonly kind: 'unavailable'; readonly detail: string };

/** Everything an adapter's call needs, built by the core for one payment's domain. */
export interface ProcessorCall<C> {
  /** The domain's settings for this processor, validated by `configSchema` and unsealed. */
  readonly config: C;
  readonly http: ProcessorHttp;
  /** Where the buyer comes back to (the payment's own return address at the gateway). */
  readonly returnUrl: string;
  /** Where the processor's server calls the gateway (`/processors/<slug>/callback`). */
  readonly callbackUrl: string;
  readonly language: ProcessorLanguage;
  /** Seconds left before the payment expires at the gateway (a processor session should not outlive it). */
  readonly secondsLeft: number;
  /**
   * The next number of this domain's counter for this processor within `range`, for integer order
   * ids from a range the processor assigned: one more than the last it gave, or `range.min` when
   * that is higher (the processor assigned a new range). Null once the range is used up (the
   * counter does not move). Numbers only go up: none is given twice, whatever the ranges.
   */
  sequence(range: { readonly min: number; readonly max: number }): Promise<number | null>;
}

/** A request the processor's server (or the buyer's browser, on a fixed return address) made to us. */
export interface CallbackRequest {
  readonly method: string;
  readonly query: URLSearchParams;
  /** An `application/x-www-form-urlencoded` body, else empty. */
  readonly form: URLSearchParams;
  /** A JSON body, else undefined. */
  readonly json: unknown;
  /** The body's bytes as received, for signatures computed over them. */
  readonly rawBody: Buffer;
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
}

/** An answer to the processor's server, exactly as it expects it (`OK`, JSON, ...). */
export interface CallbackAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/** Which session a callback names. Nothing in it is trusted: it only says where to look. */
export type SessionKey = { readonly orderNumber: string } | { readonly reference: string };

/**
 * What a callback proves, decided by the adapter with the payment's settings:
 *
 * - `read_back`: it says something happened; the core reads the status back (`status`) and applies
 *   that, never the callback's own words;
 * - a `ProviderResult`: the callback is itself the processor's signed proof (Idram's checksum with
 *   the merchant's secret, where no status API exists), applied as is;
 * - `null`: nothing changes (a precheck, a bad signature, a replay of what is already known).
 *
 * `answer` is what the processor is told, from the payment as it is after the outcome was applied.
 */
export interface CallbackDecision {
  readonly outcome: 'read_back' | ProviderResult | null;
  readonly answer: (payment: Payment) => CallbackAnswer;
  /**
   * The processor's own id of the order, when only a (verified) callback names it (Telcell's
   * invoice): stored on the session before the status is read back, so that later reads, refunds
   * and other instances have it.
   */
  readonly reference?: string;
}

export interface CallbackHandler<C> {
  /** The session a request names, or null when it names none (it is then answered by `unknown`). */
  identify(request: CallbackRequest): SessionKey | null;
  decide(
    call: ProcessorCall<C>,
    payment: Payment,
    session: ProcessorSession,
    request: CallbackRequest,
  ): CallbackDecision;
  /** The answer to a request that names no payment of ours. */
  unknown(request: CallbackRequest): CallbackAnswer;
}

/** What the gateway asks a processor to refund: (part of) one paid payment. */
export interface RefundRequest {
  /** The gateway's refund uuid: the idempotency reference a processor's API should be given. */
  readonly refundId: string;
  readonly payment: Payment;
  /** The payment's session at its processor; null for the sandbox. */
  readonly session: ProcessorSession | null;
  /** Whole AMD, at least 1, at most what remains refundable. */
  readonly amount: number;
  readonly reason: string | null;
}

/** A refund whose outcome is asked about later; carries the processor's reference when it gave one. */
export interface RefundStatusRequest extends RefundRequest {
  readonly processorReference: string | null;
}

/**
 * What a processor answered about a refund. Like a payment decline, a refused refund is data, not
 * an exception.
 *
 * - `refunded`: the money goes back to the buyer.
 * - `declined`: the processor refused; nothing was refunded. A status check answers it too when the
 *   processor has no such refund.
 * - `unavailable`: the processor could not be reached and we know nothing reached it. From a status
 *   check: the check itself could not be made (the outcome stays unknown).
 * - `unknown`: no answer (a timeout, a broken connection): the refund may or may not have been made.
 */
export type RefundAttempt =
  | { readonly kind: 'refunded'; readonly reference: string }
  | { readonly kind: 'declined'; readonly code?: string }
  | { readonly kind: 'unavailable' }
  | { readonly kind: 'unknown' };

/**
 * What the gateway asks a processor to do with a `manual` payment's hold: capture `amount` of it,
 * or release it. `operationId` is the gateway's id of this capture or release (its idempotency
 * reference); `session` is null for the sandbox.
 */
export interface HoldRequest {
  readonly operationId: string;
  readonly kind: 'capture' | 'release';
  readonly payment: Payment;
  readonly session: ProcessorSession | null;
  /** Whole AMD: what a capture takes (at most the held amount); for a release, the held amount. */
  readonly amount: number;
}

/**
 * What a processor answered to a capture or release. Like a refund's answer, a refusal is data.
 *
 * - `done`: captured (the amount is taken) or released (the hold is let go);
 * - `declined`: the processor refused; nothing changed at it;
 * - `unavailable`: it could not be reached and nothing reached it;
 * - `unknown`: no answer (a timeout, a broken connection): it may or may not have been done.
 */
export type HoldAttempt =
  | { readonly kind: 'done'; readonly reference: string | null }
  | { readonly kind: 'declined'; readonly code?: string }
  | { readonly kind: 'unavailable' }
  | { readonly kind: 'unknown' };

/**
 * What reading a hold back found (for a capture or release whose outcome is unknown): still `held`
 * (neither captured nor released), `captured` (with the amount taken, whole AMD), `released`, or
 * `unavailable` (the read could not be made, or its answer was not about this payment).
 */
export type HoldFinding =
  | { readonly kind: 'held' }
  | { readonly kind: 'captured'; readonly amount: number; readonly reference: string | null }
  | { readonly kind: 'released' }
  | { readonly kind: 'unavailable'; readonly detail: string };

/**
 * A processor that can hold a payment on the buyer's card (docs/processors.md "Holds"). `start`
 * registers a `manual` payment as an authorization only, and `status` answers `authorized` while
 * the amount is held.
 */
export interface ProcessorHolds<C> {
  /**
   * The capture methods the domain's settings allow (a terminal the bank set up for two-stage
   * payments takes `manual` ones only). Absent: both.
   */
  captureMethods?(config: C): readonly CaptureMethod[];
  /** How long after the authorization the gateway lets the hold be captured (within the processor's window). */
  readonly windowMs: number;
  /** Whether less than the held amount may be captured (the rest is let go). */
  readonly partialCapture: boolean;
  /** Sends the capture once; never retried. Answers `unknown` rather than guess. */
  capture(call: ProcessorCall<C>, request: HoldRequest): Promise<HoldAttempt>;
  /** Sends the release once; never retried. */
  release(call: ProcessorCall<C>, request: HoldRequest): Promise<HoldAttempt>;
  /** Reads what became of the hold, for a capture or release whose outcome is unknown. Never sends either again. */
  status(call: ProcessorCall<C>, request: HoldRequest): Promise<HoldFinding>;
}

export interface Processor<C = unknown> {
  readonly slug: string;
  /** The name the buyer sees on the checkout's list of methods. */
  readonly displayName: string;
  /**
   * The processor's mark on the checkout: an SVG drawn for the gateway (no third-party asset), at
   * most 48 × 32, `currentColor` allowed.
   */
  readonly logoSvg: string;
  /** The domain's settings (`processor enable --config JSON`); null when the processor needs none. */
  readonly configSchema: z.ZodType<C> | null;
  /**
   * The order number sent to the processor for a new session (see `ProcessorSession.orderNumber`).
   * Absent: the payment's uuid without dashes (32 characters).
   */
  newOrderNumber?(call: ProcessorCall<C>, payment: Payment): Promise<string>;
  /**
   * Registers the payment and says where the buyer goes. Called again with the same session when
   * the buyer starts again (a processor that keys orders by number answers the same order).
   * Absent: the buyer pays on the gateway's own page (`paymentPageUrl`, the sandbox).
   */
  start?(call: ProcessorCall<C>, payment: Payment, session: ProcessorSession): Promise<StartAnswer>;
  /** The gateway's own page where the buyer pays (the sandbox's test page). */
  paymentPageUrl?(payment: Payment, publicUrl: string): string;
  /**
   * Reads the payment's status back from the processor. Absent: the processor has no status API
   * and its signed callback is the only proof (Idram); such payments are not polled.
   */
  status?(call: ProcessorCall<C>, payment: Payment, session: ProcessorSession): Promise<StatusAnswer>;
  /**
   * For a processor whose own id of the order only its callback names (Telcell's invoice): reads
   * the status of the order under `reference`, a reference the merchant gives when the callback was
   * lost (`POST /api/v1/payments/{uuid}/processor_reference`). Stricter than `status`: the answer
   * must itself name this session's order, so a reference of another order never settles this one.
   * Absent: the processor's reference is known from the start, and a lost callback is no obstacle.
   */
  settleByReference?(
    call: ProcessorCall<C>,
    payment: Payment,
    session: ProcessorSession & { readonly reference: string },
  ): Promise<StatusAnswer>;
  /** Where the processor's server calls us, or the buyer returns to a fixed address. */
  readonly callback?: CallbackHandler<C>;
  /**
   * Refunds (part of) a paid payment. Absent when the processor cannot refund through its API
   * (`refund_not_supported`). Called once per refund and never retried: an adapter must answer
   * within a few seconds (well under a minute, when status checks of pending refunds start), and
   * answer `unknown` rather than guess when it got no answer.
   */
  refund?(call: ProcessorCall<C>, request: RefundRequest): Promise<RefundAttempt>;
  /**
   * False when the processor refunds only a whole payment, once (Telcell cancels the invoice): the
   * core then answers a partial refund `422 refund_not_supported` without calling it. Absent: true.
   */
  readonly partialRefunds?: boolean;
  /** Asks what became of a refund whose outcome is unknown. Never sends the refund again. */
  refundStatus?(call: ProcessorCall<C>, request: RefundStatusRequest): Promise<RefundAttempt>;
  /**
   * Whether this payment can be refunded through the API (a processor may take payments by methods
   * it cannot refund). Absent: every payment of a processor that has `refund`.
   */
  canRefund?(payment: Payment): boolean;
  /** Holds: authorize now, capture or release later. Absent: the processor cannot hold a payment (the wallets). */
  readonly holds?: ProcessorHolds<C>;
}
