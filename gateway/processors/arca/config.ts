/**
 * The ArCa (BPC) settings of a domain (`processor enable arca --config JSON`): what the merchant's account at the
 * processor is, checked when it is entered. Read by the adapter and by the callback handler.
 */
import { z } from 'zod';
import { isProcessorAddress } from '../settings.js';

/**
 * Known hosts (the bank tells the merchant which one it uses):
 * - `https://ipay.arca.am/payment/rest/`: ArCa iPay (ACBA, Converse, Evoca, IDBank, Armeconombank ...);
 * - `https://ipaytest.arca.am:8445/payment/rest/`: ArCa's test host;
 * - `https://pg.inecoecom.am/payment/rest/`: Inecobank (test logins on the same host);
 * - `https://epg.arca.am/payment/rest/`, test `https://testepg.arca.am/payment/rest/`: ArCa EPG.
 */
const baseUrl = z
  .url({ protocol: /^https?$/, message: 'must be an http(s) URL' })
  .max(200)
  .refine((value) => isProcessorAddress(value, { pathEnd: '/payment/rest/' }), {
    message: "must be the bank's address ending in /payment/rest/ (e.g. https://ipay.arca.am/payment/rest/)",
  });

export const arcaConfigSchema = z.strictObject({
  base_url: baseUrl,
  /** The merchant's API login (on ArCa it usually ends in `_api`). */
  username: z.string().min(1).max(100),
  password: z.string().min(1).max(100),
  /** Which bank's host this is, for the operator's eyes (`processor` CLI output) only. */
  bank: z.string().trim().min(1).max(60).optional(),
  /** The key of BPC's symmetric callback checksum, when the bank sends signed callbacks. */
  callback_secret: z.string().min(1).max(256).optional(),
});
export type ArcaConfig = z.infer<typeof arcaConfigSchema>;
