/**
 * e-HDM (the State Revenue Committee's virtual cash register web service): its exact requests and
 * answers, as public clients send and read them (docs/receipts.md, "e-HDM", with sources).
 *
 * Every call is `POST {base}{method}` with a JSON body carrying `crn` (the register) and `seq`
 * (the register's request sequence number); authentication is the client certificate alone.
 * Every answer is the envelope `{code, message, result, errorMessage}`, `code` 0 for success.
 *
 * Answers are read leniently (unknown keys are ignored, amounts may come as numbers or decimal
 * strings, ids as strings or numbers) and strictly on the fields the gateway relies on. Requests
 * are described as e-HDM takes them; the adapter fills only part of them (mode 2, no discounts).
 */
import { z } from 'zod';

/** The production service: `{base}{method}`. */
export const EHDM_PRODUCTION_URL = 'https://ecrm.taxservice.am/taxsystem-rs-vcr/api/v1.0/';

/** The methods the gateway calls. */
export type EhdmMethod = 'checkConnection' | 'print' | 'printReturnReceipt' | 'getReturnedReceiptInfo';

/** `print` modes: 2 a receipt of products (items required), 3 a prepayment (items forbidden: 187). */
export const PRINT_MODE_PRODUCTS = 2;
export const PRINT_MODE_PREPAYMENT = 3;

/** `getReturnedReceiptInfo`'s `receiptType`. */
export const RECEIPT_TYPE_SALE = 0;
export const RECEIPT_TYPE_RETURN = 2;
export const RECEIPT_TYPE_PREPAYMENT = 3;

/** Longest `goodName`, `goodCode` and `unit` the public clients send (characters). */
export const MAX_TEXT_LENGTH = 50;

/**
 * The code we take for "this receipt does not exist" on `getReturnedReceiptInfo`. ASSUMED: no
 * public source names the answer for an unknown receipt; the local fake answers this code and
 * the docs list it as an open detail. Any other refusal ends a search undecided.
 */
export const RECEIPT_NOT_FOUND_CODE = 404;

// ---- Requests ----

const seq = z.number().int().positive();
const crn = z.string().min(1);

/** A JSON number with at most `places` decimals, as e-HDM takes money (2) and quantities (3). */
function decimalNumber(places: number) {
  const pattern = new RegExp(`^\\d+(\\.\\d{1,${places}})?$`);
  return z
    .number()
    .nonnegative()
    .refine((value) => pattern.test(String(value)), { message: `must have at most ${places} decimals` });
}

export const wireMoney = decimalNumber(2);
export const wireQuantity = decimalNumber(3);

export const checkConnectionRequest = z.strictObject({ crn, seq });
export type CheckConnectionRequest = z.infer<typeof checkConnectionRequest>;

/** One line of `print`. `adgCode` is the classification code (ԱԴԳ); discounts are optional. */
export const printItem = z.strictObject({
  adgCode: z.string().min(1),
  dep: z.number().int().nonnegative(),
  goodCode: z.string().min(1).max(MAX_TEXT_LENGTH),
  goodName: z.string().min(1).max(MAX_TEXT_LENGTH),
  quantity: wireQuantity.refine((value) => value > 0, { message: 'must be above 0' }),
  unit: z.string().min(1).max(MAX_TEXT_LENGTH),
  price: wireMoney.refine((value) => value > 0, { message: 'must be above 0' }),
  /** 1 percent, 2 per unit, 4 off the line's total. */
  discount: wireMoney.optional(),
  discountType: z.union([z.literal(1), z.literal(2), z.literal(4)]).optional(),
  /** 8 percent, 16 an amount. */
  additionalDiscount: wireMoney.optional(),
  additionalDiscountType: z.union([z.literal(8), z.literal(16)]).optional(),
});
export type PrintItem = z.infer<typeof printItem>;

export const printRequest = z.strictObject({
  crn,
  seq,
  cashierId: z.number().int().positive(),
  mode: z.union([z.literal(PRINT_MODE_PRODUCTS), z.literal(PRINT_MODE_PREPAYMENT)]),
  cardAmount: wireMoney,
  cashAmount: wireMoney,
  partialAmount: wireMoney,
  prePaymentAmount: wireMoney,
  /** The buyer's TIN for a business buyer; null for a consumer. */
  partnerTin: z
    .string()
    .regex(/^\d{8}$/)
    .nullable(),
  items: z.array(printItem).nullable(),
  /** Excise marks; never sent by the gateway. */
  emarks: z.array(z.string().min(29).max(128)).optional(),
});
export type PrintRequest = z.infer<typeof printRequest>;

/** Returns lines of a sale: `receiptProductId` is the line's 0-based index in the sale. */
export const returnItem = z.strictObject({
  receiptProductId: z.number().int().nonnegative(),
  quantity: wireQuantity.refine((value) => value > 0, { message: 'must be above 0' }),
});

export const printReturnReceiptRequest = z.strictObject({
  crn,
  seq,
  /** The sale's `receiptId`. */
  receiptId: z.string().min(1),
  cardAmountForReturn: wireMoney,
  cashAmountForReturn: wireMoney,
  prePaymentAmountForReturn: wireMoney,
  returnItemList: z.array(returnItem).min(1),
});
export type PrintReturnReceiptRequest = z.infer<typeof printReturnReceiptRequest>;

export const receiptInfoRequest = z.strictObject({ crn, seq, receiptId: z.string().min(1) });
export type ReceiptInfoRequest = z.infer<typeof receiptInfoRequest>;

// ---- Answers ----

/** An amount as answered: a JSON number, or a decimal string ("44000.00") as some clients record. */
const answeredAmount = z.union([
  z.number(),
  z
    .string()
    .regex(/^-?\d+(\.\d+)?$/)
    .transform(Number),
]);

/** Epoch milliseconds, a number or a string of digits. */
const answeredTime = z.union([z.number().int().nonnegative(), z.string().regex(/^\d+$/).transform(Number)]);

/** The envelope of every answer. `code` 0 is success; `result` is read per method. */
export const envelope = z.object({
  code: z.union([
    z.number().int(),
    z
      .string()
      .regex(/^-?\d+$/)
      .transform(Number),
  ]),
  message: z.string().nullish(),
  result: z.unknown().optional(),
  errorMessage: z.string().nullish(),
});
export type Envelope = z.infer<typeof envelope>;

/**
 * The result of `print` and `printReturnReceipt` (and `printCopy`). `fiscal` may be missing or
 * null in some recorded answers; `change`, `emarkCount` and `emarkVerificationCode` are not read.
 */
export const printResult = z.object({
  receiptId: z.union([z.string().regex(/^\d+$/), z.number().int().nonnegative().transform(String)]),
  crn: z.string().min(1),
  sn: z.string(),
  tin: z.string(),
  taxpayer: z.string(),
  address: z.string(),
  time: answeredTime,
  fiscal: z.string().nullish(),
  total: answeredAmount,
  qr: z.string().min(1),
});
export type PrintResult = z.infer<typeof printResult>;

/**
 * The result of `getReturnedReceiptInfo`, for any receipt of the register. The search reads the
 * type, the amounts and the time. `items` (per line: `receiptProductId`, `quantity`, `price`,
 * `goodCode`, `goodName`, `adgCode`, `unit`, `dep`, `taxRegime`, `vat`, `totalWithoutTaxes`,
 * `totalWithTaxes`, optional discounts), `cashierId`, `partnerTin`, `partialAmount`,
 * `prePayment`, `saleType`, `receiptSubType` and `emarks` are not relied on.
 */
export const receiptInfoResult = z.object({
  receiptType: z.number().int(),
  cardAmount: answeredAmount,
  cashAmount: answeredAmount,
  totalAmount: answeredAmount,
  time: answeredTime,
  items: z.array(z.unknown()).optional(),
});
export type ReceiptInfoResult = z.infer<typeof receiptInfoResult>;
