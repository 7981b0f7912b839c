/**
 * Fiscal receipts (docs/receipts.md): which receipt a completed payment or a refund gets, written
 * in the transaction of that change, and what the rest of the gateway sees of a receipt (the
 * webhook's `receipt` object; the API's receipt object is receipt-response.ts).
 *
 * - A payment completing on a domain with receipts enabled gets one sale receipt row; a refund of
 *   such a payment gets one return receipt row. `issue_key` makes them unique, so a repeated
 *   completion or a retried refund adds nothing.
 * - A sandbox payment's receipt is a sandbox receipt, issued at once in the same transaction: its
 *   event carries it. A live payment's receipt is issued by the due work (./issuer.ts); its event
 *   is held up to `RECEIPT_WAIT_MS` for the receipt to join it, and when issuing takes longer a
 *   later event carries it (receipt-issued.ts).
 */
import type { Executor } from '../../storage/database.js';
import { findMerchant } from '../../storage/merchant.repository.js';
import { rowToPayment } from '../../storage/payment.repository.js';
import type { PaymentRow } from '../../storage/payment.table.js';
import {
  findDomainReceipts,
  findSaleReceiptOfPayment,
  insertReceiptOnce,
  listReturnsOf,
} from '../../storage/receipt.repository.js';
import type { NewReceiptRow, ReceiptRow, ReceiptTable } from '../../storage/receipt.table.js';
import { SECOND_MS, toStoredInstant } from '../domain/clock.js';
import { returnLines, type StoredLine, type StoredReturnLine, saleLines } from '../domain/receipt-lines.js';
import type { Deps } from '../runtime/deps.js';
import type { EventBody } from '../webhooks/events.js';
import { emitEvent } from '../webhooks/outbox.js';
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
