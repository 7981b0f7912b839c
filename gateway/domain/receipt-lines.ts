/**
 * The lines of a fiscal receipt (docs/receipts.md "Lines"), pure:
 *
 * - a sale receipt prints the payment's order lines (`items`) when it carries them, else one line:
 *   the description (or "Order <order id>"), quantity 1, the amount charged;
 * - a return receipt gives back quantities of the sale's lines. A refund of everything left gives
 *   back every quantity left. A partial refund gives back, line after line, the quantities whose
 *   value is whole AMD and at most what is left of the refund; a remainder that no such quantity
 *   expresses (less than one step of a line's price, e.g. 3 AMD of a 10,000 AMD line when
 *   quantities have three decimals) is not on the receipt, and the receipt's amount says what it
 *   returned.
 */

/** A sale line as stored on the receipt row (JSON), whole AMD and thousandths of a unit. */
export interface StoredLine {
  readonly name: string;
  readonly classification: string | null;
  readonly code: string | null;
  readonly unit: string | null;
  readonly quantityMilli: number;
  readonly unitPrice: number;
}

/** A returned quantity of the sale's line `index`. */
export interface StoredReturnLine {
  readonly index: number;
  readonly quantityMilli: number;
}

/** One unit, in thousandths. */
export const ONE_UNIT_MILLI = 1000;

export interface SaleSource {
  /** The AMD charged. */
  readonly amount: number;
  readonly orderId: string;
  readonly description: string | null;
  readonly items:
    | readonly {
        readonly name: string;
        readonly quantityMilli: number;
        readonly unitPrice: number;
        readonly classificationCode: string | null;
        readonly code: string | null;
        readonly unit: string | null;
      }[]
    | null;
}

/** The sale lines of a payment: its order lines when their value is what was charged, else one line. */
export function saleLines(payment: SaleSource): StoredLine[] {
  const items = payment.items;
  if (items !== null && items.length > 0 && linesValueMilli(items) === payment.amount * ONE_UNIT_MILLI) {
    return items.map((item) => ({
      name: item.name,
      classification: item.classificationCode,
      code: item.code,
      unit: item.unit,
      quantityMilli: item.quantityMilli,
      unitPrice: item.unitPrice,
    }));
  }
  const description = payment.description?.trim() ?? '';
  return [
    {
      name: description === '' ? `Order ${payment.orderId}` : description,
      classification: null,
      code: null,
      unit: null,
      quantityMilli: ONE_UNIT_MILLI,
      unitPrice: payment.amount,
    },
  ];
}

/** The value of lines in thousandths of an AMD (exact: integers). */
export function linesValueMilli(lines: readonly { quantityMilli: number; unitPrice: number }[]): number {
  return lines.reduce((sum, line) => sum + line.quantityMilli * line.unitPrice, 0);
}

/** The value of returned quantities of `sale`, in thousandths of an AMD. */
export function returnedValueMilli(sale: readonly StoredLine[], returned: readonly StoredReturnLine[]): number {
  return returned.reduce((sum, line) => sum + line.quantityMilli * (sale[line.index]?.unitPrice ?? 0), 0);
}

function gcd(a: number, b: number): number {
  let x = a;
  let y = b;
  while (y !== 0) [x, y] = [y, x % y];
  return x;
}

/**
 * What a refund of `amount` gives back of `sale`, given what earlier returns gave back. `all`:
 * the refund leaves nothing refundable, so everything not yet returned goes back.
 */
export function returnLines(
  sale: readonly StoredLine[],
  earlier: readonly StoredReturnLine[],
  amount: number,
  all: boolean,
): { lines: StoredReturnLine[]; amount: number } {
  const left = sale.map((line, index) => {
    const gone = earlier.filter((r) => r.index === index).reduce((sum, r) => sum + r.quantityMilli, 0);
    return Math.max(0, line.quantityMilli - gone);
  });
  const lines: StoredReturnLine[] = [];
  if (all) {
    left.forEach((quantityMilli, index) => {
      if (quantityMilli > 0) lines.push({ index, quantityMilli });
    });
    return { lines, amount: Math.round(returnedValueMilli(sale, lines) / ONE_UNIT_MILLI) };
  }
  let wantMilli = amount * ONE_UNIT_MILLI;
  sale.forEach((line, index) => {
    const available = left[index] ?? 0;
    if (wantMilli <= 0 || available === 0) return;
    // The smallest quantity of this line whose value is whole AMD.
    const step = ONE_UNIT_MILLI / gcd(line.unitPrice, ONE_UNIT_MILLI);
    const steps = Math.min(Math.floor(available / step), Math.floor(wantMilli / (step * line.unitPrice)));
    if (steps <= 0) return;
    const quantityMilli = steps * step;
    lines.push({ index, quantityMilli });
    wantMilli -= quantityMilli * line.unitPrice;
  });
  return { lines, amount: Math.round(returnedValueMilli(sale, lines) / ONE_UNIT_MILLI) };
}
