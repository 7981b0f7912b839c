/**
 * Sandbox receipts (docs/receipts.md "Sandbox receipts"): what a sandbox payment (or a receipt
 * asked for with a test key) gets so that integrators can see the `receipt` object of webhooks and
 * the receipt page. Written by the gateway itself, at once: never sent to a fiscal system, never a
 * fiscal document, never consuming a unit. Every printed field says TEST.
 */
import type { FiscalReceipt } from './fiscal-system.js';

export const SANDBOX_SYSTEM = 'sandbox';

/** The fiscal fields of a sandbox receipt; `serial` is unique per receipt (its row id). */
export function sandboxFiscalReceipt(input: {
  readonly receiptId: string;
  readonly merchantName: string;
  readonly total: number;
  readonly nowMs: number;
}): FiscalReceipt {
  const fiscalId = `TEST-${input.receiptId}`;
  return {
    fiscalId,
    registerNumber: 'TEST',
    serialNumber: 'TEST',
    tin: '00000000',
    taxpayer: `${input.merchantName} (TEST)`,
    address: 'TEST',
    fiscalNumber: 'TEST',
    issuedAtMs: input.nowMs,
    total: input.total,
    qrText: `TEST RECEIPT, NOT A FISCAL DOCUMENT. Receipt_ID: ${fiscalId}, TOTAL: ${input.total}`,
  };
}
