/**
 * The payment as the core sees it, and the response object clients read back (spec "Payment").
 * Every key of the spec's table is always present, null where there is no value.
 */
import { toApiInstant } from './clock.js';

export const PAYMENT_STATUSES = ['pending', 'processing', 'completed', 'failed', 'expired', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export type Environment = 'live' | 'test';

export type PaymentFlow = 'redirect' | 'qr';

export interface Payment {
  readonly uuid: string;
  readonly merchantId: string;
  readonly environment: Environment;
  /** True when no bank is contacted: every test-key payment, and live-key payments with `processor: sandbox`. */
  readonly sandbox: boolean;
  readonly domainId: string;
  readonly orderId: string;
  readonly amount: number;
  readonly refundedAmount: number;
  readonly currency: string;
  readonly charge: Readonly<Record<string, unknown>> | null;
  readonly status: PaymentStatus;
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
  charge: Readonly<Record<string, unknown>> | null;
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
}

export function checkoutUrl(publicUrl: string, payment: Pick<Payment, 'checkoutToken'>): string {
  return `${publicUrl}/checkout/${payment.checkoutToken}`;
}

/**
 * The payment object of the API. `redirect_url` is where to send the buyer: the hosted checkout,
 * which forwards straight to the processor when the payment was created with `redirect_mode=direct`.
 * The buyer's email and name are never part of it.
 */
export function toPaymentResponse(payment: Payment, publicUrl: string): PaymentResponse {
  const checkout = checkoutUrl(publicUrl, payment);
  return {
    uuid: payment.uuid,
    order_id: payment.orderId,
    amount: payment.amount,
    refunded_amount: payment.refundedAmount,
    currency: payment.currency,
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
  };
}
