/**
 * Pure mapping between the core and Idram's wire: the page language, amounts (whole AMD out, dot
 * decimals back), and the plain-text answers the gateway gives Idram's RESULT_URL requests.
 *
 * Idram has no statuses or decline codes to map: its only signed message is a confirmation of a
 * payment made (mapped to `paid`), and a buyer who declines or whose precheck is refused comes back
 * unsigned to FAIL_URL, which changes nothing (the payment expires unless a confirmation arrives).
 */
import type { ProcessorLanguage } from '../processor.js';
import type { IdramLanguage } from './wire.js';

export function idramLanguage(language: ProcessorLanguage): IdramLanguage {
  switch (language) {
    case 'hy':
      return 'AM';
    case 'ru':
      return 'RU';
    case 'en':
      return 'EN';
  }
}

/** The form's `EDP_AMOUNT` for whole AMD: the integer itself, as in the manual's example ("1900"). */
export function idramAmount(amount: number): string | null {
  return Number.isSafeInteger(amount) && amount > 0 ? String(amount) : null;
}

/**
 * Whether an amount Idram sent ("1500", "1500.00", "1500.5") is exactly `amount` whole AMD. Compared
 * as decimal digits, not floats: the precheck's format is not documented, the confirmation's is "0.00".
 */
export function sameAmount(received: string, amount: number): boolean {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(received);
  if (match === null || !Number.isSafeInteger(amount)) return false;
  const [, whole = '', fraction = ''] = match;
  return /^0*$/.test(fraction) && BigInt(whole) === BigInt(amount);
}

/** Why the gateway did not answer `OK` to a request on the RESULT_URL. */
export type IdramRefusal =
  /** The bill number names no payment of ours. */
  | 'unknown_order'
  /** Fields missing or malformed, or a precheck/checksum field that does not parse. */
  | 'malformed'
  /** Neither a precheck nor a signed confirmation (a buyer's return, or a confirmation without checksum). */
  | 'unsigned'
  | 'bad_checksum'
  | 'wrong_account'
  | 'wrong_amount'
  /** The payment is not one Idram may take now (not processing with Idram, or past its expiry). */
  | 'not_payable'
  /** A correct confirmation the gateway did not record as this payment's (paid otherwise, or not started). */
  | 'not_recorded';

/**
 * The answer body for a refusal. Idram accepts only a body that is exactly `OK`; these never
 * contain the letters "ok" in any case, so that even a lax comparison on Idram's side refuses.
 */
export function refusalText(reason: IdramRefusal): string {
  switch (reason) {
    case 'unknown_order':
      return 'REFUSED: unknown bill';
    case 'malformed':
      return 'REFUSED: malformed request';
    case 'unsigned':
      return 'REFUSED: no signed confirmation';
    case 'bad_checksum':
      return 'REFUSED: EDP_CHECKSUM does not match';
    case 'wrong_account':
      return 'REFUSED: EDP_REC_ACCOUNT does not match';
    case 'wrong_amount':
      return 'REFUSED: EDP_AMOUNT does not match';
    case 'not_payable':
      return 'REFUSED: bill not payable';
    case 'not_recorded':
      return 'REFUSED: payment not recorded for this bill';
  }
}
