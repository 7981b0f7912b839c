/**
 * Examples of the receipts operations: a book sold in the shop and paid by card, its fiscal
 * receipt issued by the tax service's e-HDM register.
 */
import type { z } from 'zod';
import type { createReceiptSchema } from '../../schemas/receipt.schema.js';
import type { receiptListSchema, receiptSchema } from '../components.js';
import { EXAMPLE_ORIGIN } from './payments.js';

export const createReceiptRequest = {
  items: [{ name: 'Armenian cookbook', quantity: 1, unit_price: 6000, unit: 'pcs' }],
  card_amount: 6000,
} satisfies z.input<typeof createReceiptSchema>;

export const receipt = {
  id: 'rct_01a1fe3a6c1f7d2e9b8a7f6e5d4c3b2a',
  type: 'sale',
  status: 'issued',
  livemode: true,
  system: 'ehdm',
  payment_uuid: null,
  refund_uuid: null,
  sale_receipt_id: null,
  amount: 6000,
  card_amount: 6000,
  cash_amount: 0,
  lines: [
    { name: 'Armenian cookbook', quantity: 1, unit_price: 6000, classification_code: null, code: null, unit: 'pcs' },
  ],
  fiscal: {
    receipt_id: '1207',
    fiscal_number: '70015691',
    register_number: '51000001',
    serial_number: '7C3AE91F',
    tin: '02512345',
    taxpayer: 'Ararat Books LLC',
    address: 'Yerevan, 12 Abovyan St.',
    total: '6000',
  },
  qr_url: `${EXAMPLE_ORIGIN}/receipts/XCNYGtClWfWkJBhys7FpsSk0NQvIrRNU`,
  last_error: null,
  created_at: '2026-11-21T12:04:31+00:00',
  issued_at: '2026-11-21T12:04:32+00:00',
} satisfies z.output<typeof receiptSchema>;

export const receiptList = { data: [receipt], next_cursor: null } satisfies z.output<typeof receiptListSchema>;
