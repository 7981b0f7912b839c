/**
 * Ameriabank vPOS 3.x, exactly as it is spoken: every call is `POST {base}api/VPOS/{Operation}`
 * with a JSON body carrying the credentials, and the HTTP status says nothing about the business
 * outcome (a refusal is HTTP 200 with a code). Sources and conflicts: docs/processors.md, "Ameriabank".
 *
 * Requests are the shapes the adapter sends (strict: nothing else goes on the wire). Answers are
 * read leniently about keys we do not use (the bank adds fields) and strictly about the ones we rely
 * on: a field of the wrong type makes the answer unusable rather than guessed at.
 */
import { z } from 'zod';

/** The operations the adapter calls, by their path segment after `api/VPOS/`. */
export type AmeriaOperation =
  | 'InitPayment'
  | 'GetPaymentDetails'
  | 'RefundPayment'
  | 'ConfirmPayment'
  | 'CancelPayment';

/** .NET `Int32`: the bank declares OrderID an integer (the upper bound is an inference). */
export const MAX_ORDER_ID = 2_147_483_647;

/** "Cannot exceed 1200 seconds" (manual); the server does not check it, so we do. */
export const MAX_SESSION_SECONDS = 1200;

/** The request `Description`: at least 1000 characters were seen accepted; no limit is documented. */
export const MAX_DESCRIPTION_LENGTH = 1000;

/** ISO 4217 numeric code of AMD, the only currency seen accepted. */
export const AMD_CURRENCY = '051';

export const initPaymentRequest = z.strictObject({
  ClientID: z.string().min(1),
  Username: z.string().min(1),
  Password: z.string().min(1),
  /** The merchant's order number, from the range the bank assigned; the bank keys orders by it. */
  OrderID: z.number().int().min(1).max(MAX_ORDER_ID),
  /** Major units (whole drams): 10 means 10 AMD. */
  Amount: z.number().int().min(1),
  Currency: z.literal(AMD_CURRENCY),
  Description: z.string().min(1).max(MAX_DESCRIPTION_LENGTH),
  /** Where the browser comes back to (GET, unsigned query). */
  BackURL: z.string().min(1),
  /** Echoed on every answer about the payment: the gateway's payment uuid. */
  Opaque: z.string().min(1),
  Timeout: z.number().int().min(1).max(MAX_SESSION_SECONDS),
});
export type InitPaymentRequest = z.infer<typeof initPaymentRequest>;

/** GetPaymentDetails, and the body of every PaymentID-keyed call: no ClientID. */
export const paymentDetailsRequest = z.strictObject({
  PaymentID: z.string().min(1),
  Username: z.string().min(1),
  Password: z.string().min(1),
});
export type PaymentDetailsRequest = z.infer<typeof paymentDetailsRequest>;

export const refundPaymentRequest = z.strictObject({
  PaymentID: z.string().min(1),
  Username: z.string().min(1),
  Password: z.string().min(1),
  /** Major units; always sent (what an absent Amount does was never observed). */
  Amount: z.number().int().min(1),
});
export type RefundPaymentRequest = z.infer<typeof refundPaymentRequest>;

/**
 * ConfirmPayment: the second stage of a two-stage payment (a capture). The manual's "confirmed
 * amount", in major units; whether less than the approved amount may be confirmed is not on record.
 */
export const confirmPaymentRequest = z.strictObject({
  PaymentID: z.string().min(1),
  Username: z.string().min(1),
  Password: z.string().min(1),
  Amount: z.number().int().min(1),
});
export type ConfirmPaymentRequest = z.infer<typeof confirmPaymentRequest>;

/**
 * CancelPayment: cancels (reverses) a payment, "within 72 hours after the payment" (manual); for a
 * two-stage payment not yet confirmed, the release of the hold. PaymentID-keyed, no amount.
 */
export const cancelPaymentRequest = paymentDetailsRequest;
export type CancelPaymentRequest = z.infer<typeof cancelPaymentRequest>;

/** The PaymentID the bank issues: a GUID, upper case from InitPayment, lower case on the return. */
export const PAYMENT_ID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * InitPayment's answer. `ResponseCode` is the integer 1 on success; a refusal carries another code
 * (integer 20 for bad credentials, 560 for the test host's amount rule) and `PaymentID: ""`.
 */
export const initPaymentAnswer = z.object({
  PaymentID: z.string(),
  ResponseCode: z.union([z.number().int(), z.string()]),
  ResponseMessage: z.string().optional(),
});
export type InitPaymentAnswer = z.infer<typeof initPaymentAnswer>;

/** The ASP.NET fault envelope (HTTP 500): no business code at all. */
export const aspNetFault = z.object({ Message: z.string() });
export const ASP_NET_FAULT_MESSAGE = 'An error has occurred.';

/** The first thing read off a GetPaymentDetails answer: a "550" body has every other string empty. */
export const detailsEnvelope = z.object({ ResponseCode: z.string() });

/**
 * GetPaymentDetails answered "00" (the query succeeded). Amounts are JSON floats in major units;
 * `OrderID` and `OrderStatus` are strings of digits (the manual says integers; the wire says not).
 * Absent values are "" rather than null. `ActionCode` has never been seen filled in, so it is read
 * whatever its type.
 */
export const paymentDetailsAnswer = z.object({
  ResponseCode: z.string(),
  OrderStatus: z.string(),
  PaymentState: z.string().optional(),
  OrderID: z.string(),
  Amount: z.number().optional(),
  ApprovedAmount: z.number(),
  DepositedAmount: z.number().optional(),
  RefundedAmount: z.number(),
  Currency: z.string(),
  CardNumber: z.string(),
  rrn: z.string(),
  MDOrderID: z.string().optional(),
  ActionCode: z
    .union([z.string(), z.number()])
    .nullish()
    .transform((code) => (code == null ? '' : String(code))),
  Description: z.string().optional(),
  Opaque: z.string().optional(),
});
export type PaymentDetailsAnswer = z.infer<typeof paymentDetailsAnswer>;

/** RefundPayment's answer (CancelPayment and ConfirmPayment answer the same shape). */
export const refundPaymentAnswer = z.object({
  ResponseCode: z.string(),
  ResponseMessage: z.string().optional(),
  Opaque: z.string().optional(),
});
export type RefundPaymentAnswer = z.infer<typeof refundPaymentAnswer>;

/**
 * The query the bank's page appends to BackURL when it sends the buyer back (GET). Unsigned:
 * anyone can write `resposneCode=00`, so it only ever leads to a GetPaymentDetails read-back.
 * `resposneCode` is spelled so on the wire; `paymentID` arrives in lower case.
 */
export const BACK_URL_PARAMETERS = ['orderID', 'resposneCode', 'paymentID', 'opaque', 'description'] as const;
