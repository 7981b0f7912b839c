/**
 * Examples of the billing operations: the price list, an account's balances and ledger, a
 * purchase of 500 transaction units paid by card, and an auto top-up.
 */
import type { z } from 'zod';
import type { autoTopupBodySchema, purchaseBodySchema } from '../../schemas/purchase.schema.js';
import type {
  autoTopupSchema,
  balancesSchema,
  ledgerPageSchema,
  priceListSchema,
  purchaseSchema,
} from '../components.js';
import { EXAMPLE_ORIGIN, PAYMENT_UUID } from './payments.js';

export const priceList = [
  {
    counter: 'transactions',
    unit_price_amd: 20,
    free_when: 'the payment amount is under 500 AMD, or it is a test (sandbox) payment',
  },
  { counter: 'receipts', unit_price_amd: 10, free_when: 'the receipt is linked to a payment made through the service' },
] satisfies z.output<typeof priceListSchema>;

export const balances = [
  { counter: 'transactions', available: 49, grace_floor: -20, blocked: 'no', unlimited: false },
  { counter: 'receipts', available: 50, grace_floor: -20, blocked: 'no', unlimited: false },
] satisfies z.output<typeof balancesSchema>;

export const ledgerPage = {
  data: [
    {
      id: 4182,
      counter: 'transactions',
      delta: -1,
      event_type: 'payment',
      ref_type: 'payment',
      ref_id: PAYMENT_UUID,
      balance_after: 49,
      note: null,
      created_at: '2026-11-21T10:38:02+00:00',
    },
    {
      id: 4101,
      counter: 'transactions',
      delta: 50,
      event_type: 'signup_grant',
      ref_type: null,
      ref_id: null,
      balance_after: 50,
      note: null,
      created_at: '2026-11-20T09:12:40+00:00',
    },
  ],
  next_cursor: null,
} satisfies z.output<typeof ledgerPageSchema>;

/** 500 is a preset quantity: paid by card at `checkout_url`. */
export const purchaseRequest = { counter: 'transactions', quantity: 500 } satisfies z.input<typeof purchaseBodySchema>;

const PURCHASE_ID = '01a1fe31-8d20-7b44-a0c5-9e8f7d6c5b4a';

export const purchase = {
  id: PURCHASE_ID,
  counter: 'transactions',
  quantity: 500,
  amount_amd: 10000,
  currency: 'AMD',
  method: 'card',
  status: 'pending',
  source: 'api',
  checkout_url: `${EXAMPLE_ORIGIN}/billing/purchases/${PURCHASE_ID}/pay?t=Sx3qGvfNJE_ZuxvwnopIpJU-JcHw4BuRRoT0K_usdWM`,
  reference: null,
  created_at: '2026-11-21T11:30:00+00:00',
  paid_at: null,
} satisfies z.output<typeof purchaseSchema>;

/** When 50 units are left, prepare a purchase of 500 and email its payment link. */
export const autoTopupRequest = {
  enabled: true,
  threshold_qty: 50,
  refill_qty: 500,
} satisfies z.input<typeof autoTopupBodySchema>;

export const autoTopup = {
  counter: 'transactions',
  enabled: true,
  threshold_qty: 50,
  refill_qty: 500,
  payment_method_id: null,
  armed: false,
  updated_at: '2026-11-21T11:31:12+00:00',
} satisfies z.output<typeof autoTopupSchema>;
