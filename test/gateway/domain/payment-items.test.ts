/**
 * The integer arithmetic of order lines: quantities read into thousandths (with binary drift taken
 * as the decimal meant), line values in thousandths of AMD, and how they are written in messages.
 */
import { describe, expect, it } from 'vitest';
import {
  formatMilli,
  isExactToHundredths,
  lineValueMilli,
  MAX_QUANTITY,
  quantityMilliOf,
} from '../../../gateway/domain/payment-items.js';

describe('quantityMilliOf', () => {
  it.each([
    [1, 1000],
    [1.5, 1500],
    [0.1, 100],
    [0.001, 1],
    [1.005, 1005], // 1.005 × 1000 is 1004.9999999999999 in binary
    [2.675, 2675],
    [0.1 + 0.2, 300], // 0.30000000000000004
    [0.7 + 0.1, 800], // 0.7999999999999999
    [3 * 1.1, 3300], // 3.3000000000000003
    [999_999.999, 999_999_999],
    [MAX_QUANTITY, 1_000_000_000],
  ])('reads %d as %d thousandths', (quantity, milli) => {
    expect(quantityMilliOf(quantity)).toBe(milli);
  });

  it.each([1.0005, 0.0005, 0.0001, 1.2345, 999_999.9995, 1 / 3])('refuses %d: more than 3 decimals', (quantity) => {
    expect(quantityMilliOf(quantity)).toBeNull();
  });
});

describe('line values', () => {
  it('multiplies in integers, beyond the safe range of doubles', () => {
    expect(lineValueMilli({ unitPrice: 1500, quantityMilli: 2000 })).toBe(3_000_000n);
    expect(lineValueMilli({ unitPrice: Number.MAX_SAFE_INTEGER, quantityMilli: 1_000_000_000 })).toBe(
      9_007_199_254_740_991_000_000_000n,
    );
  });

  it('is exact to 2 decimals when its thousandths are whole tens', () => {
    expect(isExactToHundredths(lineValueMilli({ unitPrice: 5, quantityMilli: 500 }))).toBe(true); // 2.5
    expect(isExactToHundredths(lineValueMilli({ unitPrice: 10, quantityMilli: 1 }))).toBe(true); // 0.01
    expect(isExactToHundredths(lineValueMilli({ unitPrice: 1, quantityMilli: 1 }))).toBe(false); // 0.001
    expect(isExactToHundredths(lineValueMilli({ unitPrice: 3, quantityMilli: 333 }))).toBe(false); // 0.999
  });

  it.each([
    [0n, '0'],
    [1n, '0.001'],
    [10n, '0.01'],
    [4_999_500n, '4999.5'],
    [5_000_000n, '5000'],
    [123_456_789n, '123456.789'],
  ])('writes %d thousandths as %s', (milli, text) => {
    expect(formatMilli(milli)).toBe(text);
  });
});
