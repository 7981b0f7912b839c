/**
 * The core's receipts to e-HDM's fields and e-HDM's answers back, as pure functions: whole AMD
 * and thousandths of a unit to the wire's decimal numbers (built from integers, never by float
 * arithmetic), line names shortened on a character boundary, the settings' defaults for lines
 * that name none, the `print` result to a `FiscalReceipt`, and e-HDM's error codes to a refusal.
 */
import type { FiscalReceipt, ReceiptLine, ReturnReceipt, SaleReceipt } from '../fiscal-system.js';
import {
  MAX_TEXT_LENGTH,
  PRINT_MODE_PRODUCTS,
  type PrintItem,
  type PrintRequest,
  type PrintResult,
  type PrintReturnReceiptRequest,
  RECEIPT_TYPE_RETURN,
  RECEIPT_TYPE_SALE,
  type ReceiptInfoResult,
} from './wire.js';

/** What the mapping needs from the domain's settings. */
export interface LineDefaults {
  readonly crn: string;
  readonly cashier_id: number;
  readonly department: number;
  readonly classification_code: string;
  readonly good_code: string;
  readonly unit: string;
}

/** A body to send, or why the receipt cannot be sent at all (nothing is sent then). */
export type Mapped<T> = { readonly ok: true; readonly body: T } | { readonly ok: false; readonly detail: string };

function isWholeAmount(value: number, min: number): boolean {
  return Number.isSafeInteger(value) && value >= min;
}

/** Whole AMD to the wire's money: the same number (1234 AMD is 1234, read as 1234.00). */
export function wireMoney(amd: number): number {
  if (!isWholeAmount(amd, 0)) throw new RangeError('an AMD amount is a whole number of at least 0');
  return amd;
}

/**
 * Thousandths of a unit to the wire's quantity, through its decimal text (1500 is "1.5", 1 is
 * "0.001"): the number sent prints back as exactly that text.
 */
export function wireQuantity(quantityMilli: number): number {
  if (!isWholeAmount(quantityMilli, 1)) throw new RangeError('a quantity is a whole number of thousandths, at least 1');
  const whole = Math.floor(quantityMilli / 1000);
  const thousandths = String(quantityMilli % 1000)
    .padStart(3, '0')
    .replace(/0+$/, '');
  return Number(thousandths === '' ? String(whole) : `${whole}.${thousandths}`);
}

const graphemes = new Intl.Segmenter('hy', { granularity: 'grapheme' });

/**
 * A text cut to at most `max` UTF-16 units (what a Java service counts) without splitting a
 * character: whole grapheme clusters only. Whitespace runs become one space; ends are trimmed.
 */
export function shortenText(text: string, max: number = MAX_TEXT_LENGTH): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  let cut = '';
  for (const { segment } of graphemes.segment(clean)) {
    if (cut.length + segment.length > max) break;
    cut += segment;
  }
  return cut.trimEnd();
}

function printItemOf(line: ReceiptLine, index: number, defaults: LineDefaults): Mapped<PrintItem> {
  const goodName = shortenText(line.name);
  if (goodName === '') return { ok: false, detail: `line ${index} has no name` };
  if (!isWholeAmount(line.quantityMilli, 1)) {
    return { ok: false, detail: `line ${index}: the quantity is not a whole number of thousandths above 0` };
  }
  if (!isWholeAmount(line.unitPrice, 1))
    return { ok: false, detail: `line ${index}: the price is not whole AMD above 0` };
  const own = (value: string | null, fallback: string) => {
    const text = value === null ? '' : shortenText(value);
    return text === '' ? fallback : text;
  };
  return {
    ok: true,
    body: {
      adgCode: own(line.classification, defaults.classification_code),
      dep: defaults.department,
      goodCode: own(line.code, defaults.good_code),
      goodName,
      quantity: wireQuantity(line.quantityMilli),
      unit: own(line.unit, defaults.unit),
      price: wireMoney(line.unitPrice),
    },
  };
}

/**
 * A sale as `print` mode 2 (products). Paid amounts are sent as given: e-HDM itself refuses a
 * receipt paid below its total (152), so the gateway does not guess at its rounding.
 */
export function printBody(defaults: LineDefaults, receipt: SaleReceipt): Mapped<PrintRequest> {
  if (receipt.lines.length === 0) return { ok: false, detail: 'the receipt has no lines' };
  if (!isWholeAmount(receipt.cardAmount, 0) || !isWholeAmount(receipt.cashAmount, 0)) {
    return { ok: false, detail: 'the paid amounts are not whole AMD' };
  }
  const items: PrintItem[] = [];
  for (const [index, line] of receipt.lines.entries()) {
    const item = printItemOf(line, index, defaults);
    if (!item.ok) return item;
    items.push(item.body);
  }
  return {
    ok: true,
    body: {
      crn: defaults.crn,
      seq: receipt.seq,
      cashierId: defaults.cashier_id,
      mode: PRINT_MODE_PRODUCTS,
      cardAmount: wireMoney(receipt.cardAmount),
      cashAmount: wireMoney(receipt.cashAmount),
      partialAmount: 0,
      prePaymentAmount: 0,
      partnerTin: null,
      items,
    },
  };
}

/** A return of (part of) a sale's lines, by their 0-based index in the sale. */
export function printReturnBody(crn: string, receipt: ReturnReceipt): Mapped<PrintReturnReceiptRequest> {
  if (!/^\d+$/.test(receipt.saleFiscalId)) return { ok: false, detail: 'the sale has no e-HDM receipt id' };
  if (receipt.lines.length === 0) return { ok: false, detail: 'the return has no lines' };
  if (!isWholeAmount(receipt.cardAmount, 0) || !isWholeAmount(receipt.cashAmount, 0)) {
    return { ok: false, detail: 'the amounts given back are not whole AMD' };
  }
  const returnItemList: PrintReturnReceiptRequest['returnItemList'] = [];
  for (const line of receipt.lines) {
    if (!isWholeAmount(line.index, 0)) return { ok: false, detail: 'a returned line has no index in the sale' };
    if (!isWholeAmount(line.quantityMilli, 1)) {
      return {
        ok: false,
        detail: `returned line ${line.index}: the quantity is not a whole number of thousandths above 0`,
      };
    }
    returnItemList.push({ receiptProductId: line.index, quantity: wireQuantity(line.quantityMilli) });
  }
  return {
    ok: true,
    body: {
      crn,
      seq: receipt.seq,
      receiptId: receipt.saleFiscalId,
      cardAmountForReturn: wireMoney(receipt.cardAmount),
      cashAmountForReturn: wireMoney(receipt.cashAmount),
      prePaymentAmountForReturn: 0,
      returnItemList,
    },
  };
}

/** One field of the QR text (`TIN: …, CRN: …, FISCAL: 52517829, …`), or undefined. */
export function qrField(qr: string, name: string): string | undefined {
  for (const part of qr.split(',')) {
    const colon = part.indexOf(':');
    if (colon > 0 && part.slice(0, colon).trim() === name) return part.slice(colon + 1).trim();
  }
  return undefined;
}

/** What `print` or `printReturnReceipt` answered, kept as the gateway's receipt. */
export function fiscalReceiptOf(result: PrintResult): FiscalReceipt {
  return {
    fiscalId: result.receiptId,
    registerNumber: result.crn,
    serialNumber: result.sn,
    tin: result.tin,
    taxpayer: result.taxpayer,
    address: result.address,
    // Some recorded answers lack `fiscal`; the QR text carries the same number.
    fiscalNumber: result.fiscal ?? qrField(result.qr, 'FISCAL') ?? '',
    issuedAtMs: result.time,
    total: result.total,
    qrText: result.qr,
  };
}

/** An answered amount (AMD, maybe with luma) is exactly `amd` whole AMD. */
export function isAmount(answered: number, amd: number): boolean {
  return Math.round(answered * 100) === amd * 100;
}

/** `receiptType` of a sale or a return; undefined for any other (a prepayment, an unknown type). */
export function receiptKind(info: ReceiptInfoResult): 'sale' | 'return' | undefined {
  if (info.receiptType === RECEIPT_TYPE_SALE) return 'sale';
  if (info.receiptType === RECEIPT_TYPE_RETURN) return 'return';
  return undefined;
}

/**
 * A receipt found by reading `getReturnedReceiptInfo`, which carries the amounts, the total and
 * the time but not the register's serial number, the taxpayer's name and address, the fiscal
 * number or the QR text: those stay empty (a copy can be had from the SRC's own tools), and the
 * register and TIN are the settings' own.
 */
export function fiscalReceiptOfInfo(
  receiptId: string,
  info: ReceiptInfoResult,
  register: { readonly crn: string; readonly tin: string },
): FiscalReceipt {
  return {
    fiscalId: receiptId,
    registerNumber: register.crn,
    serialNumber: '',
    tin: register.tin,
    taxpayer: '',
    address: '',
    fiscalNumber: '',
    issuedAtMs: info.time,
    total: info.totalAmount,
    qrText: '',
  };
}

/**
 * The error codes public sources name (no full table is public). Any other code is refused
 * without retry: it may be a validation error or a rule we do not know, and sending the same
 * receipt again unchanged would meet it again.
 */
export const EHDM_ERROR_CODES = [104, 152, 187, 195, 403] as const;
export type EhdmErrorCode = (typeof EHDM_ERROR_CODES)[number];

function isEhdmErrorCode(code: number): code is EhdmErrorCode {
  return (EHDM_ERROR_CODES as readonly number[]).includes(code);
}

export interface Refusal {
  /** The same request may succeed later unchanged (with a new sequence number). */
  readonly retry: boolean;
  /** e-HDM's name for the code, when public sources give one. */
  readonly name: string | null;
}

export function refusalOf(code: number): Refusal {
  if (!isEhdmErrorCode(code)) return { retry: false, name: null };
  switch (code) {
    case 104: // the sequence number was not above the register's last one: a new one may pass
      return { retry: true, name: 'INVALID_SEQ' };
    case 152: // the paid amounts are below the receipt's total
      return { retry: false, name: 'PAID_AMOUNT_LESS_THAN_TOTAL' };
    case 187: // items given with mode 3 (prepayment)
      return { retry: false, name: 'INVALID_ITEMS' };
    case 195: // the register's activation failed (already active, or not allowed)
      return { retry: false, name: 'CRM_ACTIVATION_FAILED' };
    case 403: // the call came from an address, or for a register, the certificate is not bound to
      return { retry: false, name: 'UNAUTHORIZED_CONNECTION' };
  }
}
