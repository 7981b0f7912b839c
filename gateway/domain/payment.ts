/**
 * The payment as the core sees it, and the response object clients read back (spec "Payment").
 * Every key of the spec's table is always present, null where there is no value.
 */
import { toApiInstant } from './clock.js';
import type { Charge } from './fx.js';

export const PAYMENT_STATUSES = [
  'pending',
  'processing',
  'authorized',
  'completed',
  'failed',
  'expired',
  'refunded',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/**
 * When the money is taken (docs/decisions.md "Holds"): `automatic` (the default, as before) when the
 * buyer pays; `manual` holds the amount on the card (`authorized`) until the merchant captures or
 * voids it.
 */
export const CAPTURE_METHODS = ['automatic', 'manual'] as const;
export type CaptureMethod = (typeof CAPTURE_METHODS)[number];

export type Environment = 'live' | 'test';

export type PaymentFlow = 'redirect' | 'qr';

/**
 * One order line the merchant sent with the payment (docs/decisions.md, "Order lines"): what a
 * fiscal receipt prints. `unitPrice × quantityMilli / 1000` is the line's value in AMD, exact to
 * 2 decimals; the lines' values add up to the payment's `amount`.
 */
export interface PaymentItem {
  readonly name: string;
  /** Thousandths of a unit: 1500 is 1.5 units. At least 1, at most 1,000,000,000. */
  readonly quantityMilli: number;
  /** Whole AMD per unit, at least 1. */
  readonly unitPrice: number;
  /** The goods/service classification code (Armenia: ADG code); null when not given. */
  readonly classificationCode: string | null;
  /** The merchant's own code of the goods; null when not given. */
  readonly code: string | null;
  /** The unit of the quantity (`pcs`, `kg`); null when not given. */
  readonly unit: string | null;
}

/** An order line in API answers: `quantity` is a JSON number (1.5), nulls where not given. */
export interface PaymentItemResponse {
  name: string;
  quantity: number;
  unit_price: number;
  classification_code: string | null;
  code: string | null;
  unit: string | null;
}

export interface Payment {
  readonly uuid: string;
  readonly merchantId: string;
  readonly environment: Environment;
  /** True when no bank is contacted: every test-key payment, and live-key payments with `processor: sandbox`. */
  readonly sandbox: boolean;
  readonly domainId: string;
  readonly orderId: string;
  /**
   * Whole AMD: what the processor is asked for; refunds and billing count in it too. A `manual`
   * payment's becomes what was captured (`authorizedAmount` keeps what was held).
   */
  readonly amount: number;
  /** Whole AMD. */
  readonly refundedAmount: number;
  /** The currency of `amount`: `AMD`. */
  readonly currency: string;
  /** A converted payment's price as the merchant sent it (e.g. 10 USD); null when priced in AMD. */
  readonly price: { readonly amount: number; readonly currency: string } | null;
  /** The AMD charged and the rate locked at creation; null when nothing was converted. */
  readonly charge: Charge | null;
  readonly status: PaymentStatus;
  readonly captureMethod: CaptureMethod;
  /**
   * Whole AMD held on the buyer's card for a `manual` payment once authorized (the amount asked
   * for); null before, and for `automatic` payments. `amount` becomes what was captured.
   */
  readonly authorizedAmount: number | null;
  /** Until when the hold may be captured (stored instant); null unless authorized. */
  readonly captureBefore: string | null;
  readonly processor: string | null;
  readonly redirectMode: 'hosted' | 'direct';
  readonly paymentFlow: PaymentFlow;
  readonly qrCode: string | null;
  readonly rrn: string | null;
  readonly failureCode: string | null;
  readonly customerId: string | null;
  readonly customerEmail: string | null;
  readonly customerName: string | null;
  readonly description: string | null;
  /** The order lines as sent (always for a payment in AMD); null when the request had none. */
  readonly items: readonly PaymentItem[] | null;
  readonly returnUrl: string;
  readonly cancelUrl: string | null;
  readonly callbackUrl: string | null;
  readonly checkoutToken: string;
  readonly cardLast4: string | null;
  readonly reconciliationFlag: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly expiresAt: string;
  readonly completedAt: string | null;
  readonly refundedAt: string | null;
}

export interface PaymentResponse {
  uuid: string;
  order_id: string;
  amount: number;
  refunded_amount: number;
  currency: string;
  charge: Charge | null;
  customer_id: string | null;
  status: PaymentStatus;
  checkout_url: string;
  processor: string | null;
  created_at: string;
  completed_at: string | null;
  refunded_at: string | null;
  payment_flow: PaymentFlow;
  qr_code: string | null;
  rrn: string | null;
  redirect_url: string;
  description: string | null;
  livemode: boolean;
  failure_code: string | null;
  items: PaymentItemResponse[] | null;
  /**
   * True while the payment waits for the id of the order that only its processor's callback names
   * (Telcell's invoice id): no callback named it, so the gateway cannot ask the processor, and the
   * payment is not paid. It completes when that callback comes, or when the merchant gives the id
   * (`POST /api/v1/payments/{uuid}/processor_reference`). False otherwise.
   */
  awaiting_processor_reference: boolean;
  /** `automatic` (the money is taken when the buyer pays) or `manual` (held until captured or voided). */
  capture_method: CaptureMethod;
  /** Whole AMD held for a `manual` payment once authorized; null otherwise. */
  authorized_amount: number | null;
  /** ISO 8601: capture the hold before this instant, or it is released; null unless authorized. */
  capture_before: string | null;
}

/**
 * The amount registered at the processor: what was held for a `manual` payment once authorized
 * (its `amount` becomes what is captured), else `amount`.
 */
export function registeredAmount(payment: Pick<Payment, 'amount' | 'authorizedAmount'>): number {
  return payment.authorizedAmount ?? payment.amount;
}

export function checkoutUrl(publicUrl: string, payment: Pick<Payment, 'checkoutToken'>): string {
  return `${publicUrl}/checkout/${payment.checkoutToken}`;
}

/**
 * What the merchant priced the payment in: `amount` and `currency` as sent, so a converted payment
 * reads back as it was asked for (10 USD) and `charge` says what was charged in AMD.
 */
export function pricedAs(payment: Pick<Payment, 'amount' | 'currency' | 'price'>): {
  amount: number;
  currency: string;
} {
  return payment.price ?? { amount: payment.amount, currency: payment.currency };
}

/**
 * The payment object of the API. `redirect_url` is where to send the buyer: the hosted checkout,
 * which forwards straight to the processor when the payment was created with `redirect_mode=direct`.
 * The buyer's email and name are never part of it. `refunded_amount` is whole AMD, like
 * `charge.amount` of a converted payment (refunds give back AMD that was charged).
 * `awaitingProcessorReference` is read from the payment's processor session by the caller
 * (gateway/payments/awaiting-reference.ts).
 */
export function toPaymentResponse(
  payment: Payment,
  publicUrl: string,
  awaitingProcessorReference: boolean,
): PaymentResponse {
  const checkout = checkoutUrl(publicUrl, payment);
  const priced = pricedAs(payment);
  return {
    uuid: payment.uuid,
    order_id: payment.orderId,
    amount: priced.amount,
    refunded_amount: payment.refundedAmount,
    currency: priced.currency,
    charge: payment.charge,
    customer_id: payment.customerId,
    status: payment.status,
    checkout_url: checkout,
    processor: payment.processor,
    created_at: toApiInstant(payment.createdAt) as string,
    completed_at: toApiInstant(payment.completedAt),
    refunded_at: toApiInstant(payment.refundedAt),
    payment_flow: payment.paymentFlow,
    qr_code: payment.qrCode,
    rrn: payment.rrn,
    redirect_url: checkout,
    description: payment.description,
    livemode: !payment.sandbox,
    failure_code: payment.failureCode,
    items: payment.items === null ? null : payment.items.map(toPaymentItemResponse),
    awaiting_processor_reference: awaitingProcessorReference,
    capture_method: payment.captureMethod,
    authorized_amount: payment.authorizedAmount,
    capture_before: toApiInstant(payment.captureBefore),
  };
}

/** `quantityMilli / 1000` is the nearest double to the three-decimal quantity, which JSON writes back as sent. */
export function toPaymentItemResponse(item: PaymentItem): PaymentItemResponse {
  return {
    name: item.name,
    quantity: item.quantityMilli / 1000,
    unit_price: item.unitPrice,
    classification_code: item.classificationCode,
    code: item.code,
    unit: item.unit,
  };
}
