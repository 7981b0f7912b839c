/**
 * ArCa iPay (BPC "RBS" REST) on the wire: every call is `POST <base_url><operation>.do` with an
 * `application/x-www-form-urlencoded` body carrying the merchant's API login (`userName`,
 * `password`), answered by HTTP 200 and a JSON object (served as `text/plain` by some hosts) whose
 * `errorCode` is a request-level code, never the payment's result: a number or a string, absent on
 * success. Requests are built exactly (strict objects of strings); answers are read leniently for
 * keys we do not use and strictly for the ones we rely on. Sources: docs/processors.md "ArCa".
 */
import { z } from 'zod';

/** ISO 4217 numeric code of the Armenian dram: always sent (a host's default currency may be another). */
export const AMD_CURRENCY = '051';

/**
 * The operations the gateway calls: `registerPreAuth.do` (a hold: two-phase payment), `deposit.do`
 * (its capture) and `reverse.do` (its release) only for payments with `capture_method: manual`.
 */
export type ArcaOperation =
  | 'register'
  | 'registerPreAuth'
  | 'getOrderStatusExtended'
  | 'refund'
  | 'deposit'
  | 'reverse';

const credentials = {
  userName: z.string().min(1),
  password: z.string().min(1),
} as const;

/** BPC's own order id (`orderId`, `mdOrder`): a UUID (ANS36). */
export const arcaOrderId = z.string().regex(/^[0-9A-Fa-f]{8}(-[0-9A-Fa-f]{4}){3}-[0-9A-Fa-f]{12}$/);

/** `register.do` (one-phase payment); `registerPreAuth.do` takes the same parameters (a two-phase payment: a hold). */
export const registerRequest = z.strictObject({
  ...credentials,
  /** Unique per merchant, at most 32 characters. */
  orderNumber: z.string().regex(/^[A-Za-z0-9-]{1,32}$/),
  /** Minor units (1 AMD = 100). */
  amount: z.string().regex(/^[1-9]\d{0,17}$/),
  currency: z.literal(AMD_CURRENCY),
  returnUrl: z.url({ protocol: /^https?$/ }).max(512),
  failUrl: z.url({ protocol: /^https?$/ }).max(512),
  /** At most 99 characters reach processing; `%`, `+`, CR and LF are refused. */
  description: z
    .string()
    .max(99)
    .regex(/^[^%+\r\n]*$/),
  language: z.enum(['hy', 'ru', 'en']),
  sessionTimeoutSecs: z.string().regex(/^[1-9]\d{0,3}$/),
});
export type RegisterRequest = z.infer<typeof registerRequest>;

/**
 * `deposit.do`: completes a pre-authorized order, for `amount` minor units at most the held amount
 * (BPC: 0 would take the whole hold; the gateway always names the amount).
 */
export const depositRequest = z.strictObject({
  ...credentials,
  orderId: arcaOrderId,
  amount: z.string().regex(/^[1-9]\d{0,17}$/),
});
export type DepositRequest = z.infer<typeof depositRequest>;

/** `reverse.do`: cancels a pre-authorized order that is not deposited (the hold is released). */
export const reverseRequest = z.strictObject({ ...credentials, orderId: arcaOrderId });
export type ReverseRequest = z.infer<typeof reverseRequest>;

/** `getOrderStatusExtended.do`: by BPC's `orderId`, or by our `orderNumber` when we have no orderId. */
export const orderStatusRequest = z.union([
  z.strictObject({ ...credentials, orderId: arcaOrderId }),
  z.strictObject({ ...credentials, orderNumber: z.string().regex(/^[A-Za-z0-9-]{1,32}$/) }),
]);
export type OrderStatusRequest = z.infer<typeof orderStatusRequest>;

/** `refund.do`: part or all of a deposited order, in minor units. */
export const refundRequest = z.strictObject({
  ...credentials,
  orderId: arcaOrderId,
  amount: z.string().regex(/^[1-9]\d{0,17}$/),
});
export type RefundRequest = z.infer<typeof refundRequest>;

/** `errorCode` as a string: `0` and `"0"` alike; absent means `"0"` (no system error). */
const errorCode = z
  .union([z.number().int(), z.string().regex(/^-?\d{1,9}$/)])
  .nullish()
  .transform((code) => (code === null || code === undefined ? '0' : String(Number(code))));

/** An integer sent as a JSON number or as a string of digits. */
const integer = z.union([
  z.number().int(),
  z
    .string()
    .regex(/^-?\d{1,18}$/)
    .transform(Number),
]);

/** A numeric currency code, `51`, `"051"` alike. */
const currency = z
  .union([z.number().int().min(0).max(999), z.string().regex(/^\d{1,3}$/)])
  .transform((code) => String(code).padStart(3, '0'));

export const registerAnswer = z.looseObject({
  errorCode,
  errorMessage: z.string().nullish(),
  orderId: z.string().nullish(),
  formUrl: z.string().nullish(),
});
export type RegisterAnswer = z.infer<typeof registerAnswer>;

export const orderStatusAnswer = z.looseObject({
  errorCode,
  errorMessage: z.string().nullish(),
  orderNumber: z.string().nullish(),
  /** Absent when no order was found. */
  orderStatus: integer.nullish(),
  actionCode: integer.nullish(),
  actionCodeDescription: z.string().nullish(),
  /** Minor units. */
  amount: integer.nullish(),
  currency: currency.nullish(),
  /** Retrieval reference number of the authorisation. */
  authRefNum: z.string().nullish(),
  terminalId: z.string().nullish(),
  attributes: z.array(z.looseObject({ name: z.string(), value: z.string().nullish() })).nullish(),
  cardAuthInfo: z
    .looseObject({
      /** The masked card number (`411111**1111`); `maskedPan` on some hosts. */
      pan: z.string().nullish(),
      maskedPan: z.string().nullish(),
      approvalCode: z.string().nullish(),
    })
    .nullish(),
  paymentAmountInfo: z
    .looseObject({
      paymentState: z.string().nullish(),
      approvedAmount: integer.nullish(),
      depositedAmount: integer.nullish(),
      refundedAmount: integer.nullish(),
    })
    .nullish(),
  refunds: z.array(z.looseObject({ amount: integer, referenceNumber: z.string().nullish() })).nullish(),
});
export type OrderStatusAnswer = z.infer<typeof orderStatusAnswer>;

/** `deposit.do` and `reverse.do` answer as `refund.do` does: an `errorCode`, nothing else we use. */
export const refundAnswer = z.looseObject({
  errorCode,
  errorMessage: z.string().nullish(),
});
export type RefundAnswer = z.infer<typeof refundAnswer>;

/** BPC's orderId of an order status answer, from its `mdOrder` attribute. */
export function mdOrderOf(answer: OrderStatusAnswer): string | null {
  const value = answer.attributes?.find((attribute) => attribute.name === 'mdOrder')?.value;
  return value !== null && value !== undefined && arcaOrderId.safeParse(value).success ? value : null;
}
