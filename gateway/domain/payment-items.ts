/**
 * The arithmetic of order lines (docs/decisions.md, "Order lines (`items`)"), in integers only:
 * quantities in thousandths of a unit, prices in whole AMD, values in thousandths of AMD.
 */

/** At most 100 lines on one payment. */
export const MAX_PAYMENT_ITEMS = 100;
/** A quantity is at most 1,000,000 units... */
export const MAX_QUANTITY = 1_000_000;
/** ...that is 1,000,000,000 thousandths. */
export const MAX_QUANTITY_MILLI = MAX_QUANTITY * 1000;

/**
 * How far, in thousandths of a unit, a JSON quantity may lie from a three-decimal value and still be
 * taken as it: binary floating-point drift (`0.1 + 0.2` is sent as `0.30000000000000004`), a few
 * units in the last place even at 1,000,000, and far below the 0.0005 that would make a fourth
 * decimal (`1.0005` is refused).
 */
const DRIFT_MILLI = 1e-6;

/**
 * A quantity as whole thousandths (1.5 → 1500, 0.1 → 100, 0.30000000000000004 → 300), or null when
 * it has more than three decimals. `quantity` is finite and between 0 and `MAX_QUANTITY`.
 */
export function quantityMilliOf(quantity: number): number | null {
  const scaled = quantity * 1000;
  const milli = Math.round(scaled);
  return Math.abs(scaled - milli) <= DRIFT_MILLI ? milli : null;
}

/** A line's value, `unitPrice × quantityMilli`, in thousandths of AMD (exact: bigint). */
export function lineValueMilli(line: { readonly unitPrice: number; readonly quantityMilli: number }): bigint {
  return BigInt(line.unitPrice) * BigInt(line.quantityMilli);
}

/** Whether a value in thousandths of AMD is a whole number of hundredths (at most 2 decimals). */
export function isExactToHundredths(valueMilli: bigint): boolean {
  return valueMilli % 10n === 0n;
}

/** Thousandths of AMD as a decimal number, trailing zeros dropped: 4999500n → `4999.5`. */
export function formatMilli(valueMilli: bigint): string {
  const whole = valueMilli / 1000n;
  const fraction = (valueMilli % 1000n).toString().padStart(3, '0').replace(/0+$/, '');
  return fraction === '' ? whole.toString() : `${whole}.${fraction}`;
}
