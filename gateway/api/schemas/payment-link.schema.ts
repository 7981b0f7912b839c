/**
 * Requests of the payment links endpoints (an addition, docs/api.md "Payment links"). A link has a
 * fixed `amount`, or a range `amount_min`..`amount_max` in which the buyer chooses; not both.
 */
import { z } from 'zod';
import { optional, optionalText } from './fields.js';

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

function wholeAmd() {
  return z
    .number({ error: 'must be a whole number of AMD' })
    .int({ error: 'must be a whole number of AMD' })
    .min(1, { error: 'must be at least 1' });
}

export function createPaymentLinkSchema(maxAmount: number) {
  const amount = wholeAmd().max(maxAmount, { error: `must be at most ${maxAmount}` });
  return z
    .object({
      amount: optional(amount),
      amount_min: optional(amount),
      amount_max: optional(amount),
      currency: optional(z.literal('AMD', { error: 'must be AMD' })),
      description: optionalText(500),
      reusable: optional(z.boolean({ error: 'must be true or false' })),
      expires_at: optional(
        z
          .string({ error: 'must be an ISO 8601 timestamp with an offset' })
          .refine((s) => ISO_INSTANT.test(s) && !Number.isNaN(Date.parse(s)), {
            error: 'must be an ISO 8601 timestamp with an offset',
          }),
      ),
    })
    .superRefine((body, ctx) => {
      const ranged = body.amount_min !== undefined || body.amount_max !== undefined;
      if (body.amount !== undefined && ranged) {
        ctx.addIssue({ code: 'custom', path: ['amount'], message: 'give either amount or amount_min and amount_max' });
      } else if (body.amount === undefined && !ranged) {
        ctx.addIssue({ code: 'custom', path: ['amount'], message: 'is required (or amount_min and amount_max)' });
      } else if (ranged) {
        if (body.amount_min === undefined)
          ctx.addIssue({ code: 'custom', path: ['amount_min'], message: 'is required with amount_max' });
        else if (body.amount_max === undefined)
          ctx.addIssue({ code: 'custom', path: ['amount_max'], message: 'is required with amount_min' });
        else if (body.amount_max <= body.amount_min) {
          ctx.addIssue({ code: 'custom', path: ['amount_max'], message: 'must be greater than amount_min' });
        }
      }
    });
}

export type CreatePaymentLinkBody = z.output<ReturnType<typeof createPaymentLinkSchema>>;

function positiveIntegerParam(max: number, name: string) {
  return z
    .string()
    .regex(/^\d+$/, { error: 'must be an integer' })
    .transform(Number)
    .refine((n) => n >= 1 && n <= max, { error: `${name} must be between 1 and ${max}` });
}

export const listPaymentLinksSchema = z.object({
  per_page: positiveIntegerParam(100, 'per_page').default(25),
  page: positiveIntegerParam(1_000_000, 'page').default(1),
});

export type ListPaymentLinksQuery = z.output<typeof listPaymentLinksSchema>;
