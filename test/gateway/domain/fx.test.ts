/**
 * Locked-rate conversion (docs/decisions.md, "Currencies"): rates as the operator types them, and
 * the AMD amount computed exactly and rounded down.
 */
import { describe, expect, it } from 'vitest';
import { convertToAmd, lockedCharge, parseFxRate } from '../../../gateway/domain/fx.js';

describe('parseFxRate', () => {
  it.each([
    ['387.5', '387.5'],
    ['387.50', '387.5'],
    ['0387.500000', '387.5'],
    ['420', '420'],
    ['420.0', '420'],
    ['0.0094', '0.0094'],
    ['0.000001', '0.000001'],
    [' 5.25 ', '5.25'],
    ['999999999.999999', '999999999.999999'],
  ])('reads %j as %j', (input, canonical) => {
    expect(parseFxRate(input)).toBe(canonical);
  });

  it.each([
    '0',
    '0.0',
    '0.0000001',
    '1.1234567',
    '-1',
    '1e3',
    '1,5',
    '.5',
    '5.',
    '',
    'abc',
    '1000000000',
    'Infinity',
    '0x10',
  ])('refuses %j', (input) => {
    expect(parseFxRate(input)).toBeNull();
  });
});

describe('convertToAmd', () => {
  it('multiplies exactly, never through binary floating point', () => {
    // Whole products that floating point lands just below, so rounding down would lose 1 AMD:
    // 100 * 0.29 = 28.999999999999996, 100 * 1.15 = 114.99999999999999, 100 * 4.35 = 434.99999999999994.
    expect(convertToAmd(100, '0.29')).toBe(29n);
    expect(convertToAmd(100, '1.15')).toBe(115n);
    expect(convertToAmd(100, '4.35')).toBe(435n);
  });

  it('rounds down: the buyer never pays more than the exact conversion', () => {
    expect(convertToAmd(1, '387.99')).toBe(387n);
    expect(convertToAmd(3, '387.5')).toBe(1162n); // 1162.5
    expect(convertToAmd(10, '387.5')).toBe(3875n);
    expect(convertToAmd(1, '0.5')).toBe(0n);
    expect(convertToAmd(2, '0.5')).toBe(1n);
  });

  it('stays exact far beyond the largest safe integer', () => {
    expect(convertToAmd(Number.MAX_SAFE_INTEGER, '999999999.999999')).toBe(
      (BigInt(Number.MAX_SAFE_INTEGER) * 999999999999999n) / 1000000n,
    );
  });
});

describe('lockedCharge', () => {
  it('is the API charge: AMD amount, AMD, the rate as a number, the lock instant with offset', () => {
    expect(lockedCharge(3875, '387.5', '2026-11-21T10:00:30.123Z')).toEqual({
      amount: 3875,
      currency: 'AMD',
      fx_rate: 387.5,
      locked_at: '2026-11-21T10:00:30+00:00',
    });
  });
});
