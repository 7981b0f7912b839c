/**
 * Requests of the payment links endpoints (an addition, docs/api.md "Payment links"). A link has a
 * fixed `amount`, or a range `amount_min`..`amount_max` in which the buyer chooses; not both.
 */
import { z } from 'zod';
import { optional, optionalText, pageParams } from './fields.js';

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
    .strictObject({
      amount: optional(amount).describe('The amount to pay, whole AMD; or leave it out and give a range.'),
      amount_min: optional(amount).describe('With `amount_max`: the least the buyer may enter, whole AMD.'),
      amount_max: optional(amount).describe('With `amount_min`: the most the buyer may enter (above `amount_min`).'),
      currency: optional(z.literal('AMD', { error: 'must be AMD' })).describe('`AMD`, the only currency of links.'),
      description: optionalText(500).describe("Shown on the link's page and kept with each of its payments."),
      reusable: optional(z.boolean({ error: 'must be true or false' })).describe(
        'true: every buyer may pay it; false (the default): it is paid once.',
      ),
      expires_at: optional(
        z
          .string({ error: 'must be an ISO 8601 timestamp with an offset' })
          .refine((s) => ISO_INSTANT.test(s) && !Number.isNaN(Date.parse(s)), {
            error: 'must be an ISO 8601 timestamp with an offset',
          }),
      ).describe('When the link stops taking payments: ISO 8601 with an offset, in the future.'),
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

export const listPaymentLinksSchema = z.object(pageParams('Links'));

export type ListPaymentLinksQuery = z.output<typeof listPaymentLinksSchema>;
