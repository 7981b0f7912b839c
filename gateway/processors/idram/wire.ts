/**
 * Idram's wire format (docs/processors.md "Idram"; "Idram Payment System merchant interface
 * description", 16.10.2025): the payment form the buyer's browser posts to Idram, and the two
 * form posts Idram's server makes to the merchant's RESULT_URL (a precheck, then the signed
 * confirmation). Idram has no API the gateway calls: no status, no refund.
 *
 * What Idram sends is read leniently for extra keys (it echoes every non-`EDP_` field of the form)
 * and strictly for the fields the gateway relies on.
 */
import { z } from 'zod';

export const IDRAM_FORM_URL = 'https://banking.idram.am/Payment/GetPayment';

/** The merchant's IdramID ("EDP_REC_ACCOUNT"), e.g. `100000114`. */
export const IdramAccount = z.string().regex(/^\d{1,20}$/, 'must be the digits of an IdramID');

/** A positive amount in AMD, fraction separated by a dot ("1900", "1900.00"). */
export const IdramAmount = z.string().regex(/^\d{1,15}(\.\d{1,2})?$/, 'must be an amount with a dot decimal');

/** The merchant's bill id, as the gateway gave it in the form (ours are 32 hex digits). */
export const IdramBillNo = z.string().min(1).max(64);

/** The languages of Idram's pages. */
export const IDRAM_LANGUAGES = ['AM', 'RU', 'EN'] as const;
export type IdramLanguage = (typeof IDRAM_LANGUAGES)[number];

/** The hidden fields of the form the buyer's browser posts to `form_url` (nothing in it is signed). */
export const IdramPaymentForm = z.strictObject({
  EDP_LANGUAGE: z.enum(IDRAM_LANGUAGES),
  EDP_REC_ACCOUNT: IdramAccount,
  EDP_DESCRIPTION: z.string(),
  EDP_AMOUNT: IdramAmount,
  EDP_BILL_NO: IdramBillNo,
});
export type IdramPaymentForm = z.infer<typeof IdramPaymentForm>;

/**
 * RESULT_URL request (a), "order authenticity confirmation": sent just before the money moves,
 * unsigned. Answering `OK` (HTTP 200, no HTML) lets the buyer pay; anything else sends the buyer to
 * FAIL_URL and nothing is transferred.
 */
export const IdramPrecheck = z.looseObject({
  EDP_PRECHECK: z.literal('YES'),
  EDP_BILL_NO: IdramBillNo,
  EDP_REC_ACCOUNT: IdramAccount,
  EDP_AMOUNT: IdramAmount,
});
export type IdramPrecheck = z.infer<typeof IdramPrecheck>;

/**
 * RESULT_URL request (b), "payment confirmation": sent after the money moved, signed by
 * `EDP_CHECKSUM = MD5(EDP_REC_ACCOUNT:EDP_AMOUNT:SECRET_KEY:EDP_BILL_NO:EDP_PAYER_ACCOUNT:
 * EDP_TRANS_ID:EDP_TRANS_DATE)` in hex. `EDP_AMOUNT` is documented as "0.00", `EDP_TRANS_ID` as
 * char(14) and `EDP_TRANS_DATE` as dd/mm/yyyy; the id is read as any short token (it is signed, and
 * refusing a real payment over its length would cancel it), the payer and the date only enter the
 * checksum.
 */
export const IdramConfirmation = z.looseObject({
  EDP_BILL_NO: IdramBillNo,
  EDP_REC_ACCOUNT: IdramAccount,
  EDP_PAYER_ACCOUNT: z.string().min(1).max(64),
  EDP_AMOUNT: IdramAmount,
  EDP_TRANS_ID: z.string().regex(/^[0-9A-Za-z-]{1,64}$/),
  EDP_TRANS_DATE: z.string().min(1).max(32),
  EDP_CHECKSUM: z.string().regex(/^[0-9A-Fa-f]{32}$/),
});
export type IdramConfirmation = z.infer<typeof IdramConfirmation>;

/** The only answer that accepts a precheck or a confirmation: exactly this body, HTTP 200. */
export const IDRAM_ACCEPT = 'OK';
