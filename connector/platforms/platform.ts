/**
 * What the connector needs from an e-commerce platform, whatever the platform: read a store order,
 * list orders for reconciliation, mark an order paid, leave a note on it, and record a refund that
 * was made at the gateway. One implementation per platform lives in `plugins/<platform>/`; it is
 * built per store connection from that store's URL and decrypted credentials.
 *
 * Amounts are whole AMD, as at the gateway. A platform that keeps decimals ("1500.00") converts at
 * this boundary; a total with a fractional part is reported as `amount: null` so the caller refuses it.
 */

export interface StoreOrder {
  /** The platform's order id, as text. */
  readonly id: string;
  /** The number the shop owner sees (WooCommerce: `number`). */
  readonly number: string;
  /** The platform's own status word (WooCommerce: pending, processing, on-hold, completed, cancelled, refunded, failed, ...). */
  readonly status: string;
  /** True when the platform considers the order paid (WooCommerce: `date_paid` is set). */
  readonly paid: boolean;
  /** The transaction id the platform holds for the order (we set the gateway payment uuid), or null. */
  readonly transactionId: string | null;
  /** The id of the payment method the buyer chose at checkout (WooCommerce: `payment_method`). */
  readonly paymentMethod: string;
  /** The order total in whole AMD; null when the total has a fractional part. */
  readonly amount: number | null;
  /** The total exactly as the platform wrote it, for messages ("1500.00"). */
  readonly amountText: string;
  /** ISO 4217 code, upper case. */
  readonly currency: string;
  /** Sum of the refunds the store has recorded for the order, in whole AMD (rounded up). */
  readonly refundedAmount: number;
  /** When the order was created, ISO 8601 in UTC with `Z`. */
  readonly createdAt: string;
  readonly customerEmail: string | null;
  readonly customerName: string | null;
}

/** The payment that paid an order, as read back from the gateway. */
export interface PaidWith {
  /** The gateway payment uuid: becomes the order's transaction id. */
  readonly uuid: string;
  /** The processor's retrieval reference number, when it gave one. */
  readonly rrn: string | null;
  readonly amount: number;
  readonly currency: string;
  /** The processor slug (sandbox, idram, ...). */
  readonly processor: string | null;
  readonly sandbox: boolean;
  /**
   * The payment was a card hold captured later (`capture_method: manual`): the order may be on hold,
   * or already set Processing or Completed by the shop owner, when it is marked paid.
   */
  readonly captured?: boolean;
}

/** A refund made at the gateway, to be recorded in the store without refunding again. */
/**
 * The note a store order gets when it is marked paid: the processor, whether money moved, and the
 * payment's uuid and rrn (the uuid is how the connector recognises its own note).
 */
export function paymentNote(payment: PaidWith): string {
  const how = payment.sandbox
    ? 'the sandbox (a test payment: no money moved)'
    : `${payment.processor ?? 'the payment gateway'} (live)`;
  return `Paid with ${how}. Gateway payment ${payment.uuid}, RRN ${payment.rrn ?? 'none'}.`;
}

export interface GatewayRefund {
  /** The gateway refund uuid (kept in the store's refund reason/metadata so it is recognised later). */
  readonly uuid: string;
  /** Whole AMD. */
  readonly amount: number;
  readonly reason: string | null;
}

export interface OrderRange {
  /** Inclusive lower bound on the order's creation time, ISO 8601 UTC. */
  readonly from: string;
  /** Exclusive upper bound on the order's creation time, ISO 8601 UTC. */
  readonly to: string;
}

export interface StorePlatform {
  /** The platform's slug, as in connect tokens: `woocommerce`. */
  readonly platform: string;
  /**
   * The payment method of the orders that are ours, when the store names it itself (Shopify: the
   * manual payment method the shop owner created). Absent: the connector's `paymentMethodId`.
   */
  readonly paymentMethod?: string;
  /** The order, or null when the store has no such order. */
  getOrder(orderId: string): Promise<StoreOrder | null>;
  /** Every order created in the range whose payment method is ours (all pages). */
  listOrders(range: OrderRange, paymentMethod: string): Promise<StoreOrder[]>;
  /**
   * Marks the order paid with the gateway payment as its transaction id, and leaves a note naming
   * the payment uuid and rrn. Safe to repeat: an order already paid with this transaction id is left as is.
   */
  markPaid(orderId: string, payment: PaidWith): Promise<void>;
  /**
   * The buyer's card is held for the order (a payment to capture later): the order is put on hold
   * if it is still waiting for its payment, else left as the shop owner set it. Absent where the
   * platform has no such status: the order's note alone tells.
   */
  placeOnHold?(orderId: string): Promise<void>;
  /** Adds a private order note (failure, expiry, a flag from reconciliation). */
  addNote(orderId: string, note: string): Promise<void>;
  /**
   * Records a refund that already happened at the gateway, without asking the platform to refund
   * money again (WooCommerce: `api_refund: false`). Answers the platform's refund id.
   */
  recordRefund(orderId: string, refund: GatewayRefund): Promise<{ id: string }>;
  /**
   * Deletes a refund object of the order (one the store made for a refund the gateway then did not
   * make), so the store's refunded total is the gateway's again. Absent where the platform has none.
   */
  deleteRefund?(orderId: string, refundId: string): Promise<void>;
  /**
   * One cheap read proving the credentials work (WooCommerce: `GET orders?per_page=1`). A store that
   * refuses them throws a PlatformError with its status (401/403), not retryable.
   */
  checkAccess(): Promise<void>;
}

/**
 * A platform call that did not succeed. `retryable` is true for network errors, timeouts, 429 and
 * 5xx (the connector retries those with backoff); false for answers that will not change on retry
 * (401/403 credentials refused, 404, 400 validation).
 */
export class PlatformError extends Error {
  override readonly name = 'PlatformError';
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status: number | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The store takes no payment for the order in its present status (WooCommerce: a cancelled order,
 * which `set_paid` leaves unpaid). Not retried: a person decides (refund, or reopen the order).
 */
export class OrderNotPayable extends PlatformError {
  constructor(
    readonly orderStatus: string,
    message: string,
  ) {
    super(message, false, null);
  }
}
