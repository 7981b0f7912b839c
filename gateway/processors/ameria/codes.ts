/**
 * The codes of the vPOS manual's Table 1 and what each means to the core: why a payment was not
 * paid (`FailureCode`), and what a refund answer says was done. Every code is listed in an
 * exhaustive switch; a code the table does not list maps to an explicit unknown.
 */
import type { FailureCode } from '../../domain/payment-lifecycle.js';

/**
 * The codes of the manual's Table 1 that say why an operation did not go through. Card-level
 * codes are the processing centre's action codes with a leading "0" ("0116", "0-2007").
 */
export const AMERIA_CODES = [
  '0-1',
  '0-100',
  '0-2000',
  '0-2001',
  '0-20010',
  '0-2002',
  '0-2004',
  '0-2005',
  '0-2006',
  '0-2007',
  '0-2011',
  '0-2012',
  '0-2013',
  '0-2015',
  '0-2016',
  '0-2018',
  '0-2019',
  '0-9000',
  '01',
  '0100',
  '01001',
  '0101',
  '0103',
  '0104',
  '0107',
  '0109',
  '0110',
  '0111',
  '0116',
  '0120',
  '0121',
  '0123',
  '0125',
  '0151017',
  '0151018',
  '0151019',
  '02001',
  '02003',
  '02005',
  '0208',
  '0209',
  '0341014',
  '0341041',
  '05',
  '071015',
  '08204',
  '09001',
  '0902',
  '0903',
  '0904',
  '0907',
  '0909',
  '0910',
  '0913',
  '0914',
  '0999',
  '02',
  '03',
  '04',
  '06',
  '07',
  '20',
  '30',
  '550',
  '514',
  '513',
  '560',
  '520',
  '50',
  '510',
  '500',
] as const;
export type AmeriaCode = (typeof AMERIA_CODES)[number];

function isAmeriaCode(value: string): value is AmeriaCode {
  return (AMERIA_CODES as readonly string[]).includes(value);
}

/** Why a payment was not paid, for each code of Table 1 (the meanings are the manual's). */
export function failureCodeOf(code: AmeriaCode): FailureCode {
  switch (code) {
    case '0-1': // processing centre timeout
    case '0151018': // processing timeout, not sent
    case '0151019': // processing timeout, no answer
      return 'processor_timeout';
    case '0-2005': // 3-D Secure signature error
    case '0-2006': // 3-D Secure decline by the issuer
    case '0-2011': // PaRes status unknown
    case '0-2015': // iReq in VERes
    case '0-2016': // VERes status unknown
    case '0-2018': // directory server connection timeout
    case '0-2019': // iReq in PARes
    case '0151017': // 3-D Secure communication error
    case '02005': // 3-D Secure rule failed
      return '3ds_failed';
    case '0116': // not enough money
      return 'insufficient_funds';
    case '0-20010': // blocked by the issuer's limit
    case '0-2002': // over the merchant's limit
    case '0121': // exceeds the withdrawal limit
    case '0123': // exceeds the number of transactions
    case '0209': // card limits exceeded
      return 'amount_limit_exceeded';
    case '0-2007': // payment time limit (card data not entered in time)
    case '01001': // data input timeout
    case '520': // overtime
      return 'transaction_expired';
    case '01': // order already exists
    case '08204': // duplicate order
      return 'duplicate_transaction';
    case '0907': // host not available
    case '0910': // issuer unavailable
    case '20': // incorrect username or password
      return 'processor_unavailable';
    case '0-100': // no payment attempts
    case '0-2000': // card number blacklisted
    case '0-2001': // IP address blacklisted
    case '0-2004': // SSL without CVC forbidden
    case '0-2013': // payment attempts exhausted
    case '0100': // card declined (online forbidden)
    case '0101': // expired card
    case '0103': // call the issuer
    case '0104': // blocked account
    case '0107': // call the issuer
    case '0111': // wrong card number
    case '0120': // not allowed
    case '0125': // card declined
    case '02001': // fraud
    case '02003': // SSL restricted
    case '0208': // card lost
    case '0341014': // general decline
    case '071015': // card input error
    case '0902': // invalid transaction
    case '0903': // re-enter the transaction
    case '0909': // call the issuer
    case '0913': // invalid transaction
    case '0999': // declined by fraud checks (authorisation not started)
    case '02': // declined: errors in the payment details
      return 'declined';
    case '0-2012': // operation not supported
    case '0-9000': // started
    case '0109': // invalid merchant
    case '0110': // invalid amount
    case '0341041': // refund failed
    case '05': // incorrect parameters
    case '09001': // internal error
    case '0904': // format error
    case '0914': // original transaction not found
    case '03': // incorrect currency
    case '04': // required parameter missing
    case '06': // unregistered OrderID
    case '07': // system error (also: refund over the deposited amount)
    case '30': // incorrect Opaque
    case '550': // system error
    case '514': // no reversal permission
    case '513': // no refund permission
    case '560': // operation failed (on the test host: the amount must be 10 AMD)
    case '50': // payment sum error
    case '510': // incorrect parameters
    case '500': // unknown error
      return 'general_failure';
  }
}

/**
 * The code of Table 1 a raw code stands for: as given, or with the leading "0" the bank puts
 * before processing-centre action codes ("116" is "0116", "-2007" is "0-2007"). Undefined: a code
 * the table does not list (the bank adds codes without notice).
 */
export function ameriaCode(raw: string): AmeriaCode | undefined {
  const code = raw.trim();
  if (code === '') return undefined;
  if (isAmeriaCode(code)) return code;
  const prefixed = `0${code}`;
  return isAmeriaCode(prefixed) ? prefixed : undefined;
}

/**
 * Why a declined payment was declined: from `ResponseCode` when it is not the query's "00", else
 * from `ActionCode`. A decline whose code is missing or unknown is still a decline: `declined`.
 */
export function declineFailureCode(responseCode: string, actionCode: string): FailureCode {
  const raw = responseCode.trim() !== '' && responseCode.trim() !== '00' ? responseCode : actionCode;
  const code = ameriaCode(raw);
  return code === undefined ? 'declined' : failureCodeOf(code);
}

/**
 * Why InitPayment refused (its codes are integers there: 20, 560 ...). Only for the log and the
 * payment's note: the buyer may choose another method.
 */
export function initRefusalFailureCode(responseCode: number | string): FailureCode {
  const code = ameriaCode(String(responseCode));
  return code === undefined ? 'general_failure' : failureCodeOf(code);
}

/**
 * What a RefundPayment answer says was done:
 *
 * - `refunded`: "00";
 * - `declined`: a refusal after which nothing was refunded (over the deposited amount, no
 *   permission, bad credentials or parameters);
 * - `unknown`: any other code (a system error, a processing timeout, a code we do not know). A
 *   refund that may have been made is left to the status check, which reads `RefundedAmount`.
 */
export type RefundOutcome = 'refunded' | 'declined' | 'unknown';

export function refundOutcome(responseCode: string): RefundOutcome {
  if (responseCode === '00') return 'refunded';
  const code = ameriaCode(responseCode);
  if (code === undefined) return 'unknown';
  switch (code) {
    case '07': // "Refund amount exceeds deposited amount"
    case '0125': // refund over the hold, or a zero refund
    case '513': // no refund permission
    case '20': // incorrect username or password
    case '03':
    case '04':
    case '05':
    case '06':
    case '30':
    case '50':
    case '510':
    case '560':
    case '0109':
    case '0110':
    case '0-2012':
      return 'declined';
    case '0-1':
    case '0-100':
    case '0-2000':
    case '0-2001':
    case '0-20010':
    case '0-2002':
    case '0-2004':
    case '0-2005':
    case '0-2006':
    case '0-2007':
    case '0-2011':
    case '0-2013':
    case '0-2015':
    case '0-2016':
    case '0-2018':
    case '0-2019':
    case '0-9000':
    case '01':
    case '0100':
    case '01001':
    case '0101':
    case '0103':
    case '0104':
    case '0107':
    case '0111':
    case '0116':
    case '0120':
    case '0121':
    case '0123':
    case '0151017':
    case '0151018':
    case '0151019':
    case '02001':
    case '02003':
    case '02005':
    case '0208':
    case '0209':
    case '0341014':
    case '0341041':
    case '071015':
    case '08204':
    case '09001':
    case '0902':
    case '0903':
    case '0904':
    case '0907':
    case '0909':
    case '0910':
    case '0913':
    case '0914':
    case '0999':
    case '02':
    case '550':
    case '514':
    case '520':
    case '500':
      return 'unknown';
  }
}
