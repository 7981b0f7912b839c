/**
 * The payments CSV (docs/dashboard.md "Payments"): one header line, then one line per payment,
 * newest first, with the API's values (`toPaymentResponse`) plus the customer's email. Written as
 * it is read, one keyset page of 500 payments at a time: the file is never held whole.
 */

import type { Executor } from '../../../storage/database.js';
import type { PaymentScope } from '../../../storage/payment.repository.js';
import { eachPayment, type PaymentListFilter } from '../../../storage/payment-list.repository.js';
import { type Payment, toPaymentResponse } from '../../domain/payment.js';

export const CSV_COLUMNS = [
  'uuid',
  'order_id',
  'status',
  'amount',
  'currency',
  'refunded_amount',
  'charge_amount',
  'charge_currency',
  'processor',
  'rrn',
  'customer_id',
  'customer_email',
  'description',
  'failure_code',
  'livemode',
  'created_at',
  'completed_at',
  'refunded_at',
  // The hold (docs/dashboard.md "CSV export"): last, so files read by position before keep their columns.
  'capture_method',
  'authorized_amount',
  'capture_before',
] as const;

/**
 * One CSV cell: quoted when it holds a quote, comma or line break (quotes doubled); a cell that a
 * spreadsheet would read as a formula (starting with = + - @, a tab or a carriage return) gets a
 * leading single quote, so opening the file never runs what a buyer typed into an order field.
 */
export function csvCell(value: string | number | boolean | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRow(cells: ReadonlyArray<string | number | boolean | null>): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

export function paymentCsvRow(payment: Payment, publicUrl: string): string {
  // The CSV has no column for `awaiting_processor_reference`.
  const api = toPaymentResponse(payment, publicUrl, false);
  const values: Record<(typeof CSV_COLUMNS)[number], string | number | boolean | null> = {
    uuid: api.uuid,
    order_id: api.order_id,
    status: api.status,
    amount: api.amount,
    currency: api.currency,
    refunded_amount: api.refunded_amount,
    charge_amount: api.charge?.amount ?? null,
    charge_currency: api.charge?.currency ?? null,
    processor: api.processor,
    rrn: api.rrn,
    customer_id: api.customer_id,
    customer_email: payment.customerEmail,
    description: api.description,
    failure_code: api.failure_code,
    livemode: api.livemode,
    created_at: api.created_at,
    completed_at: api.completed_at,
    refunded_at: api.refunded_at,
    capture_method: api.capture_method,
    authorized_amount: api.authorized_amount,
    capture_before: api.capture_before,
  };
  return csvRow(CSV_COLUMNS.map((column) => values[column]));
}

/**
 * The file's text, piece by piece: a UTF-8 byte order mark (so spreadsheets read Armenian and
 * Russian right), the header, then a chunk of lines per page of payments.
 */
export async function* paymentsCsv(
  db: Executor,
  scope: PaymentScope,
  filter: PaymentListFilter,
  publicUrl: string,
): AsyncGenerator<string> {
  yield `\uFEFF${csvRow([...CSV_COLUMNS])}`;
  let chunk = '';
  let lines = 0;
  for await (const payment of eachPayment(db, scope, filter, 500)) {
    chunk += paymentCsvRow(payment, publicUrl);
    lines += 1;
    if (lines === 100) {
      yield chunk;
      chunk = '';
      lines = 0;
    }
  }
  if (chunk !== '') yield chunk;
}
