/** The lines of sale and return receipts (gateway/domain/receipt-lines.ts), pure. */
import { describe, expect, it } from 'vitest';
import {
  linesValueMilli,
  returnedValueMilli,
  returnLines,
  type StoredLine,
  saleLines,
} from '../../../gateway/domain/receipt-lines.js';

const line = (unitPrice: number, quantityMilli = 1000, name = 'Item'): StoredLine => ({
  name,
  classification: null,
  code: null,
  unit: null,
  quantityMilli,
  unitPrice,
});

describe('saleLines', () => {
  it('prints the order lines when their value is what was charged', () => {
    const lines = saleLines({
      amount: 3300,
      orderId: 'o-1',
      description: 'ignored',
      items: [
        { name: 'Honey', quantityMilli: 2000, unitPrice: 1200, classificationCode: '0409', code: 'H1', unit: 'jar' },
        { name: 'Candle', quantityMilli: 1500, unitPrice: 600, classificationCode: null, code: null, unit: null },
      ],
    });
    expect(lines).toEqual([
      { name: 'Honey', classification: '0409', code: 'H1', unit: 'jar', quantityMilli: 2000, unitPrice: 1200 },
      { name: 'Candle', classification: null, code: null, unit: null, quantityMilli: 1500, unitPrice: 600 },
    ]);
    expect(linesValueMilli(lines)).toBe(3_300_000);
  });

  it('falls back to one line from the description, or the order id, at the amount charged', () => {
    expect(saleLines({ amount: 2500, orderId: 'o-2', description: '  Two bowls ', items: null })).toEqual([
      line(2500, 1000, 'Two bowls'),
    ]);
    expect(saleLines({ amount: 2500, orderId: 'o-2', description: null, items: null })[0]?.name).toBe('Order o-2');
    // Lines that do not add up to the AMD charged (a converted payment) are not printed.
    const mismatched = saleLines({
      amount: 4000,
      orderId: 'o-3',
      description: null,
      items: [{ name: 'x', quantityMilli: 1000, unitPrice: 10, classificationCode: null, code: null, unit: null }],
    });
    expect(mismatched).toEqual([line(4000, 1000, 'Order o-3')]);
  });
});

describe('returnLines', () => {
  it('gives back a proportional quantity of one line when it is whole AMD', () => {
    expect(returnLines([line(2500)], [], 1000, false)).toEqual({
      lines: [{ index: 0, quantityMilli: 400 }],
      amount: 1000,
    });
  });

  it('gives back everything left when the refund leaves nothing refundable', () => {
    const sale = [line(2500)];
    const first = returnLines(sale, [], 1000, false);
    const rest = returnLines(sale, first.lines, 1500, true);
    expect(rest).toEqual({ lines: [{ index: 0, quantityMilli: 600 }], amount: 1500 });
    expect(returnedValueMilli(sale, [...first.lines, ...rest.lines])).toBe(2_500_000);
  });

  it('leaves out a remainder no three-decimal quantity expresses, and the last return makes it up', () => {
    const sale = [line(10_000)];
    const partial = returnLines(sale, [], 3333, false);
    expect(partial).toEqual({ lines: [{ index: 0, quantityMilli: 333 }], amount: 3330 });
    const rest = returnLines(sale, partial.lines, 6667, true);
    expect(rest.amount).toBe(6670);
    expect(partial.amount + rest.amount).toBe(10_000);
  });

  it('walks the lines in order, in whole units where a fraction would not be whole AMD', () => {
    const sale = [line(333, 3000, 'a'), line(1000, 2000, 'b')];
    // 333 AMD × 0.001 is not whole AMD: line a goes back in whole units only.
    expect(returnLines(sale, [], 1700, false)).toEqual({
      lines: [
        { index: 0, quantityMilli: 3000 },
        { index: 1, quantityMilli: 701 },
      ],
      amount: 1700,
    });
  });

  it('never gives back more than is left of a line', () => {
    const sale = [line(1000, 1000)];
    const earlier = [{ index: 0, quantityMilli: 900 }];
    expect(returnLines(sale, earlier, 500, false)).toEqual({ lines: [{ index: 0, quantityMilli: 100 }], amount: 100 });
  });
});
