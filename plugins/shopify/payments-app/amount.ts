/**
 * Shopify sends amounts as decimal strings ("1500.00", a point whatever the locale). The gateway
 * takes whole AMD. The conversion is on the digits, never through a float: "1500.00" and "1500" are
 * 1500; "1500.50" is refused (AMD has no fractional amount the gateway can charge); another currency
 * is refused.
 */

export type AmountCheck =
  | { ok: true; amd: number }
  | { ok: false; code: 'unsupported_currency' | 'fractional_amount' | 'invalid_amount'; message: string };

/** The largest amount kept as a JS integer safely (far above any gateway limit). */
const MAX_DIGITS = 15;

export function wholeAmd(amount: string, currency: string): AmountCheck {
  if (currency !== 'AMD') {
    return {
      ok: false,
      code: 'unsupported_currency',
      message: `This payment method takes AMD only; the checkout is in ${currency}.`,
    };
  }
  const match = /^(\d+)(?:\.(\d+))?$/.exec(amount);
  if (match === null) return { ok: false, code: 'invalid_amount', message: `"${amount}" is not a decimal amount.` };
  const [, whole = '', fraction = ''] = match;
  if (/[1-9]/.test(fraction)) {
    return {
      ok: false,
      code: 'fractional_amount',
      message: `${amount} AMD has a fraction of a dram; the gateway charges whole AMD.`,
    };
  }
  const digits = whole.replace(/^0+(?=\d)/, '');
  if (digits.length > MAX_DIGITS) return { ok: false, code: 'invalid_amount', message: `${amount} is too large.` };
  const amd = Number(digits);
  if (amd < 1) return { ok: false, code: 'invalid_amount', message: 'The amount must be at least 1 AMD.' };
  return { ok: true, amd };
}
