/**
 * The row of a new pending payment, as every creator writes it: the API's payments, payment links'
 * buyers and the house account's purchases.
 */
import { paymentItemsToStored } from '../../storage/payment.repository.js';
import type { PaymentRow } from '../../storage/payment.table.js';
import { MINUTE_MS, toStoredInstant } from '../domain/clock.js';
import { lockedCharge } from '../domain/fx.js';
import type { CaptureMethod, PaymentItem } from '../domain/payment.js';
import type { Deps } from '../runtime/deps.js';

/** A payment is payable for 20 minutes; after that it expires. */
export const PAYMENT_TTL_MS = 20 * MINUTE_MS;

/** What the creator of a payment decides; everything else starts as `newPaymentRow` sets it. */
export type NewPaymentFields = Pick<
  PaymentRow,
  | 'merchant_id'
  | 'key_environment'
  | 'sandbox'
  | 'domain_id'
  | 'order_id'
  | 'active_order_id'
  | 'amount'
  | 'currency'
  | 'processor'
  | 'redirect_mode'
  | 'customer_id'
  | 'customer_email'
  | 'customer_name'
  | 'description'
  | 'return_url'
  | 'cancel_url'
  | 'callback_url'
>;

/** A payment priced in another currency: its price as sent and the rate that converts it into `amount` (AMD). */
export interface PaymentConversion {
  readonly amount: number;
  readonly currency: string;
  readonly rate: string;
}

/**
 * A new pending payment: a fresh id and checkout token, nothing paid or refunded yet, payable for
 * `PAYMENT_TTL_MS`. Used for merchants' payments and the house account's purchase payments alike.
 * Its environment is its livemode (a sandbox payment is a test payment, listed, counted and
 * exported with the test ones, whichever key made it). A conversion locks its rate at this instant
 * into `charge`; `items` are the order lines sent.
 */
export function newPaymentRow(
  deps: Deps,
  fields: NewPaymentFields,
  extra: {
    buyerKey?: string | null;
    conversion?: PaymentConversion | null;
    items?: readonly PaymentItem[] | null;
    captureMethod?: CaptureMethod;
  } = {},
): PaymentRow {
  const nowMs = deps.clock.nowMs();
  const now = toStoredInstant(nowMs);
  const conversion = extra.conversion ?? null;
  return {
    id: deps.ids.uuid(nowMs),
    ...fields,
    environment: fields.sandbox === 1 ? 'test' : 'live',
    refunded_amount: 0,
    refund_reserved_amount: 0,
    price_amount: conversion?.amount ?? null,
    price_currency: conversion?.currency ?? null,
    charge: conversion === null ? null : JSON.stringify(lockedCharge(fields.amount, conversion.rate, now)),
    buyer_key: extra.buyerKey ?? null,
    items: paymentItemsToStored(extra.items ?? null),
    status: 'pending',
    capture_method: extra.captureMethod ?? 'automatic',
    authorized_amount: null,
    authorized_at: null,
    capture_before: null,
    hold_operation_id: null,
    payment_flow: 'redirect',
    qr_code: null,
    rrn: null,
    failure_code: null,
    checkout_token: deps.ids.token(24),
    card_last4: null,
    reconciliation_flag: null,
    created_at: now,
    updated_at: now,
    expires_at: toStoredInstant(nowMs + PAYMENT_TTL_MS),
    completed_at: null,
    refunded_at: null,
  };
}
