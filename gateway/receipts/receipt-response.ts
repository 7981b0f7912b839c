/**
 * The receipt as the API shows it (docs/receipts.md "The receipt object"), and what a receipt
 * prints (also on its public page): a sale's lines, or a return's lines of its sale with the
 * quantities given back.
 */
import type { ReceiptRow } from '../../storage/receipt.table.js';
import { toApiInstant } from '../domain/clock.js';
import { ONE_UNIT_MILLI, type StoredLine, type StoredReturnLine } from '../domain/receipt-lines.js';
import { receiptPageUrl } from './receipts.service.js';

/** A receipt's line as the API shows it. */
export interface ReceiptLineResponse {
  name: string;
  quantity: number;
  unit_price: number;
  classification_code: string | null;
  code: string | null;
  unit: string | null;
}

/** The receipt object of the API (docs/receipts.md "The receipt object"). */
export interface ReceiptResponse {
  id: string;
  type: 'sale' | 'return';
  status: 'pending' | 'unknown' | 'issued' | 'failed';
  livemode: boolean;
  system: string;
  payment_uuid: string | null;
  refund_uuid: string | null;
  sale_receipt_id: string | null;
  amount: number;
  card_amount: number;
  cash_amount: number;
  lines: ReceiptLineResponse[];
  fiscal: {
    receipt_id: string;
    fiscal_number: string | null;
    register_number: string | null;
    serial_number: string | null;
    tin: string | null;
    taxpayer: string | null;
    address: string | null;
    total: string | null;
  } | null;
  qr_url: string | null;
  last_error: { code: string | null; message: string } | null;
  created_at: string;
  issued_at: string | null;
}

function lineResponse(line: StoredLine, quantityMilli: number): ReceiptLineResponse {
  return {
    name: line.name,
    quantity: quantityMilli / ONE_UNIT_MILLI,
    unit_price: line.unitPrice,
    classification_code: line.classification,
    code: line.code,
    unit: line.unit,
  };
}

/**
 * What a receipt prints: a sale's own lines, or for a return the lines of its sale (`sale`) with
 * the quantities given back.
 */
export function printedLines(
  row: Pick<ReceiptRow, 'type' | 'lines'>,
  sale: Pick<ReceiptRow, 'lines'> | undefined,
): { line: StoredLine; quantityMilli: number }[] {
  if (row.type === 'sale') {
    return (JSON.parse(row.lines) as StoredLine[]).map((line) => ({ line, quantityMilli: line.quantityMilli }));
  }
  const saleLinesStored = sale === undefined ? [] : (JSON.parse(sale.lines) as StoredLine[]);
  return (JSON.parse(row.lines) as StoredReturnLine[]).flatMap((r) => {
    const line = saleLinesStored[r.index];
    return line === undefined ? [] : [{ line, quantityMilli: r.quantityMilli }];
  });
}

/** The register's own number, from the core's `<system>:<number>`. */
export function registerNumber(register: string | null): string | null {
  return register === null ? null : register.slice(register.indexOf(':') + 1);
}

/**
 * The API's view of a receipt. A return's lines are the sale's lines with the quantities given
 * back (`sale` is the sale receipt row). `issuing` shows as `pending`.
 */
export function toReceiptResponse(publicUrl: string, row: ReceiptRow, sale?: ReceiptRow): ReceiptResponse {
  const issued = row.status === 'issued';
  return {
    id: row.id,
    type: row.type,
    status: row.status === 'issuing' ? 'pending' : row.status,
    livemode: row.sandbox === 0,
    system: row.system,
    payment_uuid: row.payment_id,
    refund_uuid: row.refund_id,
    sale_receipt_id: row.sale_receipt_id,
    amount: Number(row.card_amount) + Number(row.cash_amount),
    card_amount: Number(row.card_amount),
    cash_amount: Number(row.cash_amount),
    lines: printedLines(row, sale).map(({ line, quantityMilli }) => lineResponse(line, quantityMilli)),
    fiscal:
      issued && row.fiscal_id !== null
        ? {
            receipt_id: row.fiscal_id,
            fiscal_number: row.fiscal_number,
            register_number: registerNumber(row.register),
            serial_number: row.serial_number,
            tin: row.tin,
            taxpayer: row.taxpayer,
            address: row.address,
            total: row.fiscal_total,
          }
        : null,
    qr_url: issued ? receiptPageUrl(publicUrl, row.public_token) : null,
    last_error: issued || row.last_error === null ? null : { code: row.last_error_code, message: row.last_error },
    created_at: toApiInstant(row.created_at) as string,
    issued_at: toApiInstant(row.issued_at),
  };
}
