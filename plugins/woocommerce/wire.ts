/**
 * The parts of WooCommerce REST API (wc/v3) answers the connector reads, as zod schemas, and the
 * conversions between WooCommerce's decimal money strings and the gateway's whole AMD.
 *
 * Parsing is permissive: WooCommerce and its extensions add fields to every resource, so objects keep
 * unknown keys, and only what the connector uses is required.
 */
import { z } from 'zod';

/** WooCommerce writes most ids as integers; some extensions answer them as numeric strings. */
const wooId = z.union([z.number().int().nonnegative(), z.string().regex(/^\d+$/).transform(Number)]);

/** A text field that WooCommerce may leave out or send as null; read as '' then. */
const text = z
  .string()
  .nullish()
  .transform((value) => value ?? '');

/** A GMT date-time as WooCommerce writes it (`2017-03-22T19:28:02`, no zone), or null. */
const gmtDate = z
  .string()
  .nullish()
  .transform((value) => (value === undefined || value === null || value === '' ? null : value));

/** One entry of an order's `refunds` list; `total` is negative ("-10.00"). */
export const orderRefundSummarySchema = z.looseObject({
  id: wooId,
  total: z.string(),
  reason: text,
});

export const orderBillingSchema = z.looseObject({
  first_name: text,
  last_name: text,
  email: text,
});

/** An order (GET/PUT orders/{id}, one element of GET orders). */
export const orderSchema = z.looseObject({
  id: wooId,
  number: z.union([z.string(), z.number()]).transform(String),
  status: z.string(),
  currency: z.string(),
  total: z.string(),
  date_created_gmt: z.string(),
  date_paid_gmt: gmtDate,
  transaction_id: text,
  payment_method: text,
  billing: orderBillingSchema.nullish().transform((value) => value ?? { first_name: '', last_name: '', email: '' }),
  refunds: z
    .array(orderRefundSummarySchema)
    .nullish()
    .transform((value) => value ?? []),
});
export type WooOrder = z.infer<typeof orderSchema>;

export const orderListSchema = z.array(orderSchema);

const metaDataSchema = z
  .array(z.looseObject({ key: z.string(), value: z.unknown() }))
  .nullish()
  .transform((value) => value ?? []);

/** An order refund (POST/GET orders/{id}/refunds). `amount` is positive ("10.00"). */
export const refundSchema = z.looseObject({
  id: wooId,
  amount: z.string(),
  reason: text,
  meta_data: metaDataSchema,
});
export type WooRefund = z.infer<typeof refundSchema>;

export const refundListSchema = z.array(refundSchema);

/** An order note (POST/GET orders/{id}/notes). */
export const noteSchema = z.looseObject({
  id: wooId,
  note: z.string(),
  customer_note: z.boolean().nullish(),
});
export type WooNote = z.infer<typeof noteSchema>;

export const noteListSchema = z.array(noteSchema);

/**
 * The error body of the WordPress REST API: `{"code", "message", "data"}`. `data` is usually
 * `{"status": 404, ...}`, but an error made as `new WP_Error(code, message, 500)` carries the bare
 * number: WooCommerce's refunds controller answers a refund it cannot create as
 * `{"code":"woocommerce_rest_cannot_create_order_refund","message":"Invalid refund amount.","data":500}`
 * and a refund for an order it does not have as `{"code":"woocommerce_rest_invalid_order_id",...,"data":404}`
 * (class-wc-rest-order-refunds-controller.php), both with HTTP status 500 since
 * `rest_convert_error_to_response()` reads a status only from an array.
 */
export const errorSchema = z.looseObject({
  code: z.string(),
  message: z.string(),
  data: z.union([z.number(), z.looseObject({ status: z.number().int().optional() })]).nullish(),
});
export type WooError = z.infer<typeof errorSchema>;

/** The status an error body names: `data.status`, or `data` itself when it is a number. */
export function errorDataStatus(error: WooError): number | null {
  const data = error.data;
  if (typeof data === 'number') return Number.isInteger(data) ? data : null;
  return data?.status ?? null;
}

/**
 * The order status of the block checkout's draft orders (WooCommerce Blocks registers
 * `wc-checkout-draft`). A draft is a cart on its way through checkout, not a placed order; `GET orders`
 * lists drafts along with every other status.
 */
export const CHECKOUT_DRAFT_STATUS = 'checkout-draft';

/** The body WooCommerce posts to the callback URL of the key exchange (`/wc-auth/v1/authorize`). */
export const keyDeliverySchema = z.looseObject({
  key_id: wooId,
  user_id: z.union([z.string(), z.number()]).transform(String),
  consumer_key: z.string(),
  consumer_secret: z.string(),
  key_permissions: z.string(),
});

/** Whole AMD as WooCommerce writes money: 500 -> "500.00". */
export function formatAmd(amount: number): string {
  if (!Number.isSafeInteger(amount) || amount < 0) {
    throw new RangeError(`an AMD amount is a whole non-negative number, not ${amount}`);
  }
  return `${amount}.00`;
}
