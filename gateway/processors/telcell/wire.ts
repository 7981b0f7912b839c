/**
 * Telcell Wallet's wire format (/work/research/telcell.md, docs/processors.md "Telcell"): the
 * PostInvoice form the buyer's browser takes to Telcell, the RESULT_URL callback Telcell's server
 * sends, and the server-to-server `check_bill` and `cancel_bill` requests with their `key=value`
 * answers. Every checksum is an md5 (lower-case hex) of the fields concatenated with no separator,
 * the shop key first, each value exactly as it travels (base64 strings, `֏` as its UTF-8 bytes).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';

/** PostInvoice's `currency`: U+058F ARMENIAN DRAM SIGN, not the ISO code. */
export const TELCELL_CURRENCY_SIGN = '\u058f' as const;

/** Lower-case hex md5 of the UTF-8 bytes of `text`. */
export function md5Hex(text: string): string {
  return createHash('md5').update(text, 'utf8').digest('hex');
}

/** Standard base64 (with `+`, `/` and `=` padding, as PHP's base64_encode) of a string's UTF-8 bytes. */
export function base64Text(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

/**
 * The UTF-8 text a canonical base64 string stands for; null when `value` is not base64 exactly as
 * base64_encode writes it (so a plain order number is never taken for an encoded one).
 */
export function decodeBase64Text(value: string): string | null {
  if (value === '' || value.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return null;
  const bytes = Buffer.from(value, 'base64');
  if (bytes.toString('base64') !== value) return null;
  const text = bytes.toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? text : null;
}

const base64Field = z.string().regex(/^[A-Za-z0-9+/]+={0,2}$/);
const digits = z.string().regex(/^\d+$/);
const md5Field = z.string().regex(/^[0-9a-f]{32}$/);

/** The interface languages of Telcell's pages (`am`, not `hy`). */
export const TELCELL_LANGUAGES = ['am', 'ru', 'en'] as const;
export type TelcellLanguage = (typeof TELCELL_LANGUAGES)[number];

/** The PostInvoice form, posted by the buyer's browser to the shop's base URL (`.../invoices`). */
export const postInvoiceSchema = z.strictObject({
  action: z.literal('PostInvoice'),
  issuer: z.string().min(1),
  currency: z.literal(TELCELL_CURRENCY_SIGN),
  /** Whole AMD, digits only. */
  price: digits,
  /** base64 of the description shown to the buyer. */
  product: base64Field,
  /** base64 of our order number. */
  issuer_id: base64Field,
  valid_days: digits,
  lang: z.enum(TELCELL_LANGUAGES),
  security_code: md5Field,
});
export type PostInvoiceForm = z.infer<typeof postInvoiceSchema>;

/** `md5(shop_key . issuer . currency . price . product . issuer_id . valid_days)`. */
export function postInvoiceSecurityCode(
  shopKey: string,
  form: Pick<PostInvoiceForm, 'issuer' | 'currency' | 'price' | 'product' | 'issuer_id' | 'valid_days'>,
): string {
  return md5Hex(shopKey + form.issuer + form.currency + form.price + form.product + form.issuer_id + form.valid_days);
}

/**
 * The RESULT_URL callback (GET or POST, form or JSON). `invoice` is Telcell's invoice id (one
 * client names it `invoice_id`); `issuer_id` is our order number, plain or base64; `currency` comes
 * as the numeric code (`51`); `buyer` is present only in the bill API's variant. Extra keys are
 * ignored; the fields the checksum covers must all be there.
 */
export const resultCallbackSchema = z
  .looseObject({
    invoice: z.string().min(1).optional(),
    invoice_id: z.string().min(1).optional(),
    issuer_id: z.string().min(1),
    payment_id: z.string(),
    buyer: z.string().optional(),
    currency: z.string(),
    sum: z.string(),
    time: z.string(),
    status: z.string().min(1),
    checksum: z.string().min(1),
  })
  .refine((fields) => fields.invoice !== undefined || fields.invoice_id !== undefined, {
    message: 'no invoice',
  });
export type ResultCallback = z.infer<typeof resultCallbackSchema>;

/** The invoice id a callback names, under either name. */
export function callbackInvoice(fields: ResultCallback): string {
  return fields.invoice ?? fields.invoice_id ?? '';
}

/**
 * The callback's checksum: `md5(shop_key . invoice . issuer_id . payment_id . currency . sum . time
 * . status)` for PostInvoice (WEB gateway) invoices, with `buyer` after `payment_id` when
 * `withBuyer` (the bill API's callbacks). Over the strings as received.
 */
export function resultChecksum(shopKey: string, fields: ResultCallback, withBuyer: boolean): string {
  return md5Hex(
    shopKey +
      callbackInvoice(fields) +
      fields.issuer_id +
      fields.payment_id +
      (withBuyer ? (fields.buyer ?? '') : '') +
      fields.currency +
      fields.sum +
      fields.time +
      fields.status,
  );
}

/** `check_bill`: one invoice's record, by Telcell's invoice id. Form POST to the base URL. */
export const checkBillSchema = z.strictObject({
  'check_bill:issuer': z.string().min(1),
  invoice: z.string().min(1),
  checksum: md5Field,
});
export type CheckBillForm = z.infer<typeof checkBillSchema>;

/** `md5(shop_key . issuer . invoice)`. */
export function checkBillChecksum(shopKey: string, issuer: string, invoice: string): string {
  return md5Hex(shopKey + issuer + invoice);
}

/**
 * `cancel_bill`: cancels a paid invoice, for its full amount (the money goes back to the buyer's
 * wallet). Either id may be left out; Telcell takes `invoice` when both are given.
 */
export const cancelBillSchema = z.strictObject({
  'cancel_bill:issuer': z.string().min(1),
  invoice: z.string().min(1).optional(),
  issuer_id: base64Field.optional(),
  checksum: md5Field,
});
export type CancelBillForm = z.infer<typeof cancelBillSchema>;

/** `md5(shop_key . issuer . invoice . issuer_id)`, a left-out id counting as empty. */
export function cancelBillChecksum(shopKey: string, issuer: string, invoice: string, issuerId: string): string {
  return md5Hex(shopKey + issuer + invoice + issuerId);
}

/**
 * A `key=value` answer (one pair a line, split on the first `=`; blank lines and lines without `=`
 * ignored), as `check_bill` and `cancel_bill` answer.
 */
export function parseKeyValueLines(body: string): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const line of body.split(/\r?\n/)) {
    const at = line.indexOf('=');
    if (at <= 0) continue;
    pairs[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return pairs;
}

/**
 * An invoice's record as `check_bill` and `cancel_bill` answer it (times `yyyy-MM-dd HH:mm:ss`).
 * Only `invoice` and `status` are relied on; `sum` and `issuer_id`, when present, are checked
 * against the payment. `checksum` (md5 of the shop key and the answer) and `checksum2` (Telcell's
 * system key) are not verified: the answer comes over TLS from Telcell itself.
 */
export const billRecordSchema = z.looseObject({
  invoice: z.string().min(1),
  status: z.string().min(1),
  sum: z.string().optional(),
  currency: z.string().optional(),
  issuer_id: z.string().optional(),
  paid_time: z.string().optional(),
});
export type BillRecord = z.infer<typeof billRecordSchema>;

/** The invoice record in a `check_bill` or `cancel_bill` answer; null for anything else (an error text). */
export function readBillRecord(body: string): BillRecord | null {
  const parsed = billRecordSchema.safeParse(parseKeyValueLines(body));
  return parsed.success ? parsed.data : null;
}
