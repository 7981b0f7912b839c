/**
 * Requests of the receipts endpoints (additions, docs/receipts.md "API"). The lines take the same
 * shape and rules as a payment's `items`; the amounts paid in cash and by card must add up to the
 * lines' value, which must be whole AMD.
 */
import { z } from 'zod';
import { formatMilli, lineValueMilli } from '../../domain/payment-items.js';
import { hostName, optional } from './fields.js';
import { paymentItems } from './payment.schema.js';

const amount = z
  .number({ error: 'must be a whole number of AMD' })
  .int({ error: 'must be a whole number of AMD' })
  .min(0, { error: 'must be at least 0' })
  .max(Number.MAX_SAFE_INTEGER, { error: 'is too large' });

export const createReceiptSchema = z
  .strictObject(
    {
      domain: optional(hostName()).describe(
        "The domain whose fiscal register issues it; by default the account's only domain with fiscal receipts.",
      ),
      items: paymentItems().describe("The lines, as a payment's `items`; their value must be whole AMD."),
      cash_amount: optional(amount).describe(
        'Whole AMD paid in cash. With `card_amount` it adds up to the lines; with neither, all was cash.',
      ),
      card_amount: optional(amount).describe(
        'Whole AMD paid by card; with only one of the two, the other is the rest.',
      ),
    },
    { error: 'must be a JSON object' },
  )
  .transform((body, ctx) => {
    const valueMilli = body.items.reduce((sum, line) => sum + lineValueMilli(line), 0n);
    if (valueMilli % 1000n !== 0n || valueMilli / 1000n > BigInt(Number.MAX_SAFE_INTEGER)) {
      ctx.addIssue({
        code: 'custom',
        path: ['items'],
        message: `must add up to whole AMD; the lines add up to ${formatMilli(valueMilli)} AMD`,
      });
      return z.NEVER;
    }
    const total = Number(valueMilli / 1000n);
    const cash = body.cash_amount ?? (body.card_amount === undefined ? total : total - body.card_amount);
    const card = body.card_amount ?? total - cash;
    if (cash < 0 || card < 0 || cash + card !== total) {
      ctx.addIssue({
        code: 'custom',
        path: [body.card_amount === undefined ? 'cash_amount' : 'card_amount'],
        message: `cash_amount and card_amount must add up to the lines' value, ${total} AMD`,
      });
      return z.NEVER;
    }
    return { domain: body.domain, items: body.items, cash_amount: cash, card_amount: card, total };
  });

export type CreateReceiptBody = z.output<typeof createReceiptSchema>;

export const listReceiptsSchema = z.object({
  payment_uuid: z.guid({ error: 'must be a payment uuid' }).optional().describe('Only the receipts of this payment.'),
  type: z
    .enum(['sale', 'return'], { error: 'must be "sale" or "return"' })
    .optional()
    .describe('Only sale or only return receipts.'),
  status: z
    .enum(['pending', 'unknown', 'issued', 'failed'], { error: 'must be one of pending, unknown, issued, failed' })
    .optional()
    .describe('Only receipts in this status.'),
  cursor: z
    .string()
    .regex(/^rct_[0-9a-f]{32}$/, { error: 'must be the next_cursor of the previous page' })
    .optional()
    .describe('The `next_cursor` of the previous page.'),
  per_page: z
    .string()
    .regex(/^\d+$/, { error: 'must be an integer' })
    .transform(Number)
    .refine((n) => n >= 1 && n <= 100, { error: 'per_page must be between 1 and 100' })
    .default(25)
    .describe('Receipts per page, 1 to 100.'),
});

export type ListReceiptsQuery = z.output<typeof listReceiptsSchema>;
