/**
 * Money as the platforms' APIs write it: decimal strings ("1500.00", a refund's "-10.00") read as
 * whole AMD, exactly (no floating point). Shared by every platform driver.
 */

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * A platform's money string as whole AMD: "1500.00" -> 1500, "1500" -> 1500; null when it has a
 * fractional part ("1500.50"), is negative, or is not a decimal number.
 */
export function wholeAmd(value: string): number | null {
  const match = DECIMAL.exec(value.trim());
  if (match === null) return null;
  const [, units = '', fraction = ''] = match;
  if (/[^0]/.test(fraction)) return null;
  const amount = Number(units);
  return Number.isSafeInteger(amount) ? amount : null;
}

/** A signed decimal string as an exact scaled integer; null when it is not one. */
function parseDecimal(value: string): { units: bigint; scale: number } | null {
  const match = /^([+-]?)(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (match === null) return null;
  const [, sign = '', whole = '', fraction = ''] = match;
  const units = BigInt(`${whole}${fraction}`);
  return { units: sign === '-' ? -units : units, scale: fraction.length };
}

/**
 * The sum of the refunds an order lists, in whole AMD rounded up. WooCommerce lists each refund's
 * total as a negative string ("-10.00"); the sign is dropped, so a positive total counts the same.
 * Totals that are not decimal numbers are skipped.
 */
export function refundedAmd(refunds: readonly { readonly total: string }[]): number {
  let scale = 0;
  const parsed: { units: bigint; scale: number }[] = [];
  for (const refund of refunds) {
    const value = parseDecimal(refund.total);
    if (value === null) continue;
    parsed.push({ units: value.units < 0n ? -value.units : value.units, scale: value.scale });
    scale = Math.max(scale, value.scale);
  }
  let sum = 0n;
  for (const value of parsed) sum += value.units * 10n ** BigInt(scale - value.scale);
  const divisor = 10n ** BigInt(scale);
  const whole = sum / divisor + (sum % divisor === 0n ? 0n : 1n);
  return Number(whole);
}
