import type { Generated, Insertable, Selectable } from 'kysely';
import type { CaptureMethod, PaymentStatus } from '../gateway/domain/payment.js';

export interface PaymentTable {
  id: string;
  merchant_id: string;
  /**
   * The payment's livemode: `test` for every sandbox payment (`sandbox` = 1), `live` otherwise.
   * Lists, counts, totals and exports show one environment.
   */
  environment: 'live' | 'test';
  /** 1 when no bank is contacted: a test key's payment, or a live key's with `processor: sandbox`. */
  sandbox: number;
  /**
   * The environment of the key (or payment link) that made the payment: a live key reads back the
   * sandbox payments it made, one at a time, though they are listed with the test ones.
   */
  key_environment: 'live' | 'test';
  domain_id: string;
  order_id: string;
  /**
   * Equal to `order_id` while the payment holds its order (pending, processing, completed,
   * refunded), null otherwise. A unique index on it keeps an order from having two such payments.
   */
  active_order_id: string | null;
  /** Whole AMD: what the processor is asked for, what billing and refunds count in. */
  amount: number;
  refunded_amount: number;
  /** Sum of this payment's refunds still in flight (pending or unknown): not refundable again until they end. */
  refund_reserved_amount: Generated<number>;
  /** The currency of `amount`: always `AMD` (a converted payment's priced currency is `price_currency`). */
  currency: string;
  /**
   * A converted payment's price as the merchant sent it (`price_amount` whole units of
   * `price_currency`, e.g. 10 USD); both null for payments priced in AMD.
   */
  price_amount: number | null;
  price_currency: string | null;
  /** The API's `charge` object as JSON (`{amount, currency, fx_rate, locked_at}`), null when nothing was converted. */
  charge: string | null;
  status: PaymentStatus;
  /** `automatic` (taken when paid) or `manual` (held until captured or voided): migration 0028. */
  capture_method: Generated<CaptureMethod>;
  /** Whole AMD the processor holds for a `manual` payment once authorized; null otherwise. */
  authorized_amount: number | null;
  /** When the hold was placed (stored instant); null unless authorized. */
  authorized_at: string | null;
  /** Until when the hold may be captured (stored instant); the expiry job releases it then. */
  capture_before: string | null;
  /**
   * The capture or release of the hold in flight or done (`hold_operations.id`): set by one
   * conditional update while the payment is `authorized` and this is null, so only one capture or
   * release is ever sent; cleared again when it failed and nothing was taken or released.
   */
  hold_operation_id: string | null;
  processor: string | null;
  redirect_mode: 'hosted' | 'direct';
  payment_flow: 'redirect' | 'qr';
  qr_code: string | null;
  rrn: string | null;
  failure_code: string | null;
  customer_id: string | null;
  customer_email: string | null;
  customer_name: string | null;
  /** Who the buyer is for the velocity limit: `customer:<id>` or `email:<lower-case address>`; null when unknown. */
  buyer_key: string | null;
  description: string | null;
  /**
   * The order lines as JSON (`StoredPaymentItem[]`: `{name, quantity_milli, unit_price,
   * classification_code, code, unit}`), null when the request had none.
   */
  items: string | null;
  return_url: string;
  cancel_url: string | null;
  callback_url: string | null;
  checkout_token: string;
  /** Last four digits of the card that paid or was refused; the number itself is never stored. */
  card_last4: string | null;
  /** Set when something needs a person: `duplicate_completion` (a late confirmation of a second payment). */
  reconciliation_flag: string | null;
  created_at: string;
  updated_at: string;
  expires_at: string;
  completed_at: string | null;
  refunded_at: string | null;
}

export type PaymentRow = Selectable<PaymentTable>;
export type NewPaymentRow = Insertable<PaymentTable>;

/** One order line as `payments.items` holds it: quantity in thousandths, price in whole AMD. */
export interface StoredPaymentItem {
  name: string;
  quantity_milli: number;
  unit_price: number;
  classification_code: string | null;
  code: string | null;
  unit: string | null;
}
