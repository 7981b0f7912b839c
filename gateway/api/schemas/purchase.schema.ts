/**
 * Billing request bodies (spec "Billing"): `POST /api/v1/billing/purchases` and
 * `PUT /api/v1/billing/auto-topup/{counter}`. An unknown key is refused by name (422).
 */
import { z } from 'zod';
import { optionalText } from './fields.js';

export const MAX_QUANTITY = 1_000_000;
export const MAX_PAYMENT_METHOD_ID_LENGTH = 120;

function typeMessage(expected: string) {
  return (issue: { input: unknown }) => (issue.input === undefined ? 'is required' : `must be ${expected}`);
}

function quantity(min: number, field: string) {
  return z
    .number({ error: typeMessage(`an integer from ${min} to ${MAX_QUANTITY}`) })
    .int({ error: `must be a whole number of units (${field})` })
    .min(min, { error: `must be at least ${min}` })
    .max(MAX_QUANTITY, { error: `must be at most ${MAX_QUANTITY}` });
}

const counterSchema = z.enum(['transactions', 'receipts'], { error: typeMessage('"transactions" or "receipts"') });

/** Reserved: kept with the purchase, not used yet. Absent, null and empty all mean none. */
const paymentMethodIdSchema = optionalText(MAX_PAYMENT_METHOD_ID_LENGTH);

export const purchaseBodySchema = z.strictObject(
  {
    counter: counterSchema.describe('The counter to add units to.'),
    quantity: quantity(1, 'quantity').describe(
      'Units to buy, 1 to 1,000,000: a preset quantity is paid by card at `checkout_url`, any other by bank transfer with `reference`.',
    ),
    payment_method_id: paymentMethodIdSchema.describe('Reserved: leave it out.'),
  },
  { error: 'must be a JSON object' },
);
export type PurchaseBody = z.output<typeof purchaseBodySchema>;

/**
 * The purchase body as the API reference states it: `quantity` starts at the server's minimum
 * purchase (`GATEWAY_MIN_PURCHASE`), which the service checks after this schema (a smaller
 * quantity answers 422 `below_minimum` with `min_quantity`).
 */
export function documentedPurchaseBodySchema(minPurchase: number) {
  return purchaseBodySchema.extend({
    quantity: quantity(minPurchase, 'quantity').describe(
      `Units to buy, ${minPurchase} (this server's minimum purchase) to 1,000,000; fewer answers 422 \`below_minimum\`. A preset quantity is paid by card at \`checkout_url\`, any other by bank transfer with \`reference\`.`,
    ),
  });
}

export const autoTopupBodySchema = z.strictObject(
  {
    enabled: z.boolean({ error: typeMessage('true or false') }).describe('Whether auto top-up is on.'),
    threshold_qty: quantity(0, 'threshold_qty').describe(
      'When the balance falls to this, a purchase of `refill_qty` is prepared and its payment link emailed.',
    ),
    refill_qty: quantity(0, 'refill_qty').describe('Units of that purchase: at least the minimum purchase.'),
    payment_method_id: paymentMethodIdSchema.describe('Reserved: leave it out.'),
  },
  { error: 'must be a JSON object' },
);
export type AutoTopupBody = z.output<typeof autoTopupBodySchema>;

/** The auto top-up body as the API reference states it: `refill_qty` starts at the server's minimum purchase. */
export function documentedAutoTopupBodySchema(minPurchase: number) {
  return autoTopupBodySchema.extend({
    refill_qty: quantity(minPurchase, 'refill_qty').describe(
      `Units of that purchase: ${minPurchase} (this server's minimum purchase) to 1,000,000.`,
    ),
  });
}
