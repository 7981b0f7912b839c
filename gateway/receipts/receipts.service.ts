/**
 * Fiscal receipts (docs/receipts.md): which receipt a completed payment or a refund gets, written
 * in the transaction of that change, and what the rest of the gateway sees of a receipt (the
 * webhook's `receipt` object, the API's receipt object).
 *
 * - A payment completing on a domain with receipts enabled gets one sale receipt row; a refund of
 *   such a payment gets one return receipt row. `issue_key` makes them unique, so a repeated
 *   completion or a retried refund adds nothing.
 * - A sandbox payment's receipt is a sandbox receipt, issued at once in the same transaction: its
 *   event carries it. A live payment's receipt is issued by the due work (./issuer.ts); its event
 *   is held up to `RECEIPT_WAIT_MS` for the receipt to join it, and when issuing takes longer a
 *   later event carries it (`afterIssued`).
 */

import type { Executor } from '../../storage/database.js';
import { findMerchant } from '../../storage/merchant.repository.js';
import { findPaymentRow, rowToPayment } from '../../storage/payment.repository.js';
import type { PaymentRow } from '../../storage/payment.table.js';
import {
  findDomainReceipts,
  findSaleReceiptOfPayment,
  insertReceiptOnce,
  listReturnsOf,
  noteRegisterFiscalId,
} from '../../storage/receipt.repository.js';
import type { NewReceiptRow, ReceiptRow, ReceiptTable } from '../../storage/receipt.table.js';
import { findRefund } from '../../storage/refund.repository.js';
import { consumeForReceipt } from '../billing/consumption.js';
import { SECOND_MS, toApiInstant, toStoredInstant } from '../domain/clock.js';
import {
  ONE_UNIT_MILLI,
  returnLines,
  type StoredLine,
  type StoredReturnLine,
  saleLines,
} from '../domain/receipt-lines.js';
import type { Deps } from '../runtime/deps.js';
import { type EventBody, refundedEvent, statusUpdatedEvent } from '../webhooks/events.js';
import { emitEvent, releaseHeldEvent } from '../webhooks/outbox.js';
import type { FiscalReceipt } from './fiscal-system.js';
import { SANDBOX_SYSTEM, sandboxFiscalReceipt } from './sandbox.js';
import { TEST_ONLY } from './settings.js';

/** How long a payment's event waits for its receipt before it goes out without it. */
export const RECEIPT_WAIT_MS = 5 * SECOND_MS;

export type EventReceipt = NonNullable<EventBody['receipt']>;

/** The receipt an event is written with: one issued already, or one whose issuing the event waits for. */
export interface ReceiptAtEvent {
  readonly now: EventReceipt | null;
  readonly waitingId: string | null;
}

const NO_RECEIPT: ReceiptAtEvent = { now: null, waitingId: null };

/** The receipt's public page (its `qr_url`): the receipt and its QR code, on the gateway's address. */
export function receiptPageUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/receipts/${token}`;
}

export function eventReceipt(publicUrl: string, row: Pick<ReceiptRow, 'id' | 'public_token'>): EventReceipt {
  return { receipt_id: row.id, qr_url: receiptPageUrl(publicUrl, row.public_token) };
}

/** The columns an issued receipt gets from what the fiscal system (or the sandbox) answered. */
export function issuedColumns(receipt: FiscalReceipt, now: string): Partial<ReceiptTable> {
  // A receipt found by a search of the register lacks what only the print answer carries (serial,
  // fiscal number, taxpayer, address, QR text): those stay null rather than empty.
  const known = (value: string) => (value === '' ? null : value);
  return {
    status: 'issued',
    fiscal_id: receipt.fiscalId,
    fiscal_number: known(receipt.fiscalNumber),
    serial_number: known(receipt.serialNumber),
    tin: known(receipt.tin),
    taxpayer: known(receipt.taxpayer),
    address: known(receipt.address),
    fiscal_total: String(receipt.total),
    issued_at: toStoredInstant(receipt.issuedAtMs),
    qr_text: known(receipt.qrText),
    next_attempt_at: null,
    last_error: null,
    last_error_code: null,
    updated_at: now,
  };
}

/** A new receipt row, `pending` and due now, with a fresh public token. */
export function newReceiptRow(
  deps: Deps,
  fields: Pick<
    NewReceiptRow,
    | 'merchant_id'
    | 'environment'
    | 'domain_id'
    | 'type'
    | 'issue_key'
    | 'payment_id'
    | 'refund_id'
    | 'sale_receipt_id'
    | 'system'
    | 'sandbox'
    | 'card_amount'
    | 'cash_amount'
    | 'lines'
  > & { id?: string },
): NewReceiptRow {
  const nowMs = deps.clock.nowMs();
  const now = toStoredInstant(nowMs);
  return {
    id: fields.id ?? newReceiptId(deps),
    status: 'pending',
    register: null,
    seq: null,
    attempts: 0,
    searches: 0,
    next_attempt_at: now,
    first_attempt_at: null,
    attempt_started_at: null,
    search_after: null,
    last_error: null,
    last_error_code: null,
    fiscal_id: null,
    fiscal_number: null,
    serial_number: null,
    tin: null,
    taxpayer: null,
    address: null,
    fiscal_total: null,
    issued_at: null,
    qr_text: null,
    public_token: deps.ids.token(24),
    held_event_id: null,
    created_at: now,
    updated_at: now,
    ...fields,
  };
}

/** Receipt ids sort by creation: a time-ordered uuid without dashes. */
export function newReceiptId(deps: Deps): string {
  return `rct_${deps.ids.uuid(deps.clock.nowMs()).replaceAll('-', '')}`;
}

/** Issues a sandbox receipt row at once (in the caller's transaction). */
async function issueSandbox(deps: Deps, trx: Executor, row: NewReceiptRow): Promise<ReceiptRow> {
  const nowMs = deps.clock.nowMs();
  const merchant = await findMerchant(trx, row.merchant_id);
  const fiscal = sandboxFiscalReceipt({
    receiptId: row.id,
    merchantName: merchant?.name ?? 'Merchant',
    total: Number(row.card_amount) + Number(row.cash_amount),
    nowMs,
  });
  const { row: stored } = await insertReceiptOnce(trx, {
    ...row,
    ...issuedColumns(fiscal, toStoredInstant(nowMs)),
    system: SANDBOX_SYSTEM,
    sandbox: 1,
  } as NewReceiptRow);
  return stored;
}

/**
 * The sale receipt of a payment that just completed, in the transaction of its completion: none
 * (receipts not enabled, or a live payment on a domain that issues test receipts only), a sandbox
 * receipt issued now, or a live receipt queued for the issuer.
 */
export async function receiptForCompletedPayment(
  deps: Deps,
  trx: Executor,
  payment: PaymentRow,
): Promise<ReceiptAtEvent> {
  // Only which system the domain uses: its settings are opened (and checked) by the issuer.
  const settings = await findDomainReceipts(trx, payment.domain_id);
  if (settings === undefined) return NO_RECEIPT;
  const sandbox = payment.sandbox === 1;
  if (!sandbox && settings.system === TEST_ONLY) return NO_RECEIPT;
  const lines = saleLines({ ...rowToPayment(payment), amount: Number(payment.amount) });
  const row = newReceiptRow(deps, {
    merchant_id: payment.merchant_id,
    environment: payment.environment,
    domain_id: payment.domain_id,
    type: 'sale',
    issue_key: `sale:${payment.id}`,
    payment_id: payment.id,
    refund_id: null,
    sale_receipt_id: null,
    system: sandbox ? SANDBOX_SYSTEM : settings.system,
    sandbox: sandbox ? 1 : 0,
    card_amount: Number(payment.amount),
    cash_amount: 0,
    lines: JSON.stringify(lines),
  });
  if (sandbox) return { now: eventReceipt(deps.config.publicUrl, await issueSandbox(deps, trx, row)), waitingId: null };
  const { row: stored, created } = await insertReceiptOnce(trx, row);
  if (!created) return NO_RECEIPT;
  deps.dueSignal.notify();
  return { now: null, waitingId: stored.id };
}

/**
 * The return receipt of a refund that just succeeded, in its transaction: none when the payment
 * has no sale receipt, a sandbox return at once for a sandbox receipt, else a queued return (issued
 * once its sale is).
 */
export async function receiptForRefund(
  deps: Deps,
  trx: Executor,
  payment: PaymentRow,
  refund: { readonly id: string; readonly amount: number },
): Promise<ReceiptAtEvent> {
  const sale = await findSaleReceiptOfPayment(trx, payment.id);
  if (sale === undefined) return NO_RECEIPT;
  const saleLinesStored = JSON.parse(sale.lines) as StoredLine[];
  const earlier = (await listReturnsOf(trx, sale.id)).flatMap((r) => JSON.parse(r.lines) as StoredReturnLine[]);
  const all = Number(payment.refunded_amount) >= Number(payment.amount);
  const back = returnLines(saleLinesStored, earlier, refund.amount, all);
  if (back.lines.length === 0) return NO_RECEIPT;
  const row = newReceiptRow(deps, {
    merchant_id: sale.merchant_id,
    environment: sale.environment,
    domain_id: sale.domain_id,
    type: 'return',
    issue_key: `return:${refund.id}`,
    payment_id: payment.id,
    refund_id: refund.id,
    sale_receipt_id: sale.id,
    system: sale.system,
    sandbox: sale.sandbox,
    card_amount: back.amount,
    cash_amount: 0,
    lines: JSON.stringify(back.lines),
  });
  if (sale.sandbox === 1)
    return { now: eventReceipt(deps.config.publicUrl, await issueSandbox(deps, trx, row)), waitingId: null };
  const { row: stored, created } = await insertReceiptOnce(trx, row);
  if (!created) return NO_RECEIPT;
  deps.dueSignal.notify();
  return { now: null, waitingId: stored.id };
}

/** Writes the event with its receipt; an event that waits for one is held and linked to it. */
export async function emitWithReceipt(
  deps: Deps,
  trx: Executor,
  payment: PaymentRow,
  body: EventBody,
  receipt: ReceiptAtEvent,
): Promise<void> {
  const waiting = receipt.waitingId;
  const emitted = await emitEvent(
    deps,
    trx,
    payment,
    { ...body, receipt: receipt.now },
    waiting === null ? {} : { holdMs: RECEIPT_WAIT_MS },
  );
  if (waiting !== null) {
    await trx.updateTable('receipts').set({ held_event_id: emitted.eventId }).where('id', '=', waiting).execute();
  }
}

/**
 * Everything an issued receipt brings, in the transaction that marked it issued: its billing (a
 * zero-delta row for a receipt of a payment taken through the service, else one `receipts` unit),
 * the register's last fiscal id, its returns made due, and its event: the held event released with
 * the receipt, or, when that event already went without it, a new event carrying it.
 */
export async function afterIssued(deps: Deps, trx: Executor, row: ReceiptRow): Promise<void> {
  const now = toStoredInstant(deps.clock.nowMs());
  if (row.sandbox === 0) {
    await consumeForReceipt(deps, trx, {
      merchantId: row.merchant_id,
      receiptId: row.id,
      linkedPaymentId: row.payment_id,
    });
  }
  if (row.register !== null && row.fiscal_id !== null)
    await noteRegisterFiscalId(trx, row.register, row.fiscal_id, now);
  if (row.type === 'sale') {
    await trx
      .updateTable('receipts')
      .set({ next_attempt_at: now, updated_at: now })
      .where('sale_receipt_id', '=', row.id)
      .where('status', '=', 'pending')
      .execute();
  }
  if (row.payment_id === null) return;
  const receipt = eventReceipt(deps.config.publicUrl, row);
  if (row.held_event_id !== null && (await releaseHeldEvent(deps, trx, row.held_event_id, receipt))) return;
  const payment = await findPaymentRow(trx, row.payment_id);
  if (payment === undefined) return;
  if (row.type === 'sale') {
    await emitEvent(deps, trx, payment, { ...statusUpdatedEvent(rowToPayment(payment)), receipt });
    return;
  }
  const refund = row.refund_id === null ? undefined : await findRefund(trx, row.refund_id);
  if (refund === undefined) return;
  await emitEvent(deps, trx, payment, {
    ...refundedEvent(rowToPayment(payment), { uuid: refund.id, amount: Number(refund.amount), reason: refund.reason }),
    receipt,
  });
}

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
