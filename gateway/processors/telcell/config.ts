/**
 * The Telcell settings of a domain (`processor enable telcell --config JSON`): what the merchant's account at the
 * processor is, checked when it is entered. Read by the adapter and by the callback handler.
 */
import { z } from 'zod';
import { isProcessorAddress } from '../settings.js';

/** The live gateway. Telcell's test contour is documented at `/proto_test2/invoices`, but Telcell's support has since told merchants to use this one address with test credentials. */
export const TELCELL_DEFAULT_BASE_URL = 'https://telcellmoney.am/invoices';

function isPlainHttpUrl(value: string): boolean {
  return isProcessorAddress(value, { query: true });
}

/** `processor enable telcell --config JSON`. */
export const telcellConfigSchema = z.strictObject({
  /** The shop id Telcell gives (often an e-mail address); PostInvoice's `issuer`. */
  issuer: z.string().trim().min(1),
  /** The shop key that signs every request and callback. */
  shop_key: z.string().min(1),
  /** The gateway's address, `.../invoices`. */
  base_url: z
    .string()
    .refine(isPlainHttpUrl, { message: 'must be an http(s) URL without user, password or fragment' })
    .default(TELCELL_DEFAULT_BASE_URL),
  /** How many days the invoice stays payable at Telcell. */
  valid_days: z.number().int().min(1).default(1),
});
export type TelcellConfig = z.output<typeof telcellConfigSchema>;
