/**
 * Requests of the payments endpoints (spec "Create-payment request body" and the list query).
 * An unknown body key is refused by name (422). Bounds the spec leaves open are decided in docs/decisions.md.
 */
import { z } from 'zod';
import { BASE_CURRENCY } from '../../domain/fx.js';
import { CAPTURE_METHODS, PAYMENT_STATUSES, type PaymentItem } from '../../domain/payment.js';
import {
  formatMilli,
  isExactToHundredths,
  lineValueMilli,
  MAX_PAYMENT_ITEMS,
  MAX_QUANTITY,
  quantityMilliOf,
} from '../../domain/payment-items.js';
import { isKnownProcessor } from '../../processors/registry.js';
import { undeliverableTargetReason } from '../../webhooks/webhook-target.js';
import { emailAddress, hostName, httpUrl, optional, pageParams, text, wholeUnits } from './fields.js';

/** What a request may name as `currency`: AMD, and the currencies with an exchange rate in force. */
export interface CurrencyChoice {
  /** Accepted codes, upper case, `AMD` first. */
  readonly accepted: readonly string[];
  /** The currency `amount` is counted in, for its messages (`AMD`, or the accepted currency sent). */
  readonly unit: string;
}

/**
 * A quantity: a JSON number above 0, at most 1,000,000, with at most 3 decimals; answered in
 * thousandths (1.5 → 1500). Absent or null is 1.
 */
function quantity() {
  return optional(
    z
      .number({ error: 'must be a number' })
      .gt(0, { error: 'must be greater than 0' })
      .max(MAX_QUANTITY, { error: `must be at most ${MAX_QUANTITY}` })
      .transform((q, ctx) => {
        const milli = quantityMilliOf(q);
        if (milli === null) {
          ctx.addIssue({ code: 'custom', message: 'must have at most 3 decimals' });
          return z.NEVER;
        }
        if (milli < 1) {
          ctx.addIssue({ code: 'custom', message: 'must be at least 0.001' });
          return z.NEVER;
        }
        return milli;
      }),
  ).transform((milli) => milli ?? 1000);
}

/** One order line; its value, `unit_price × quantity`, is exact to 2 decimals. An unknown key is refused. */
function paymentItem() {
  return z
    .strictObject(
      {
        name: text(255).describe('What was bought, as the fiscal receipt prints it.'),
        quantity: quantity().describe('How many: above 0, at most 3 decimals; default 1.'),
        unit_price: wholeUnits(BASE_CURRENCY).describe('Price of one unit, whole AMD.'),
        classification_code: optional(text(20)).describe('The ADG classification code of the goods or service.'),
        code: optional(text(50)).describe("The merchant's own product code."),
        unit: optional(text(20)).describe('Unit of measure, as printed (`pcs`, `kg`...).'),
      },
      { error: 'must be an object' },
    )
    .transform(
      (line): PaymentItem => ({
        name: line.name,
        quantityMilli: line.quantity,
        unitPrice: line.unit_price,
        classificationCode: line.classification_code ?? null,
        code: line.code ?? null,
        unit: line.unit ?? null,
      }),
    )
    .superRefine((line, ctx) => {
      const value = lineValueMilli(line);
      if (!isExactToHundredths(value)) {
        ctx.addIssue({
          code: 'custom',
          message: `is worth unit_price × quantity = ${formatMilli(value)} AMD, which must be exact to 2 decimals`,
        });
      }
    });
}

/** The order lines of a payment: 1 to 100 of them. */
export function paymentItems() {
  return z
    .array(paymentItem(), { error: 'must be an array of order lines' })
    .min(1, { error: 'must have at least 1 line' })
    .max(MAX_PAYMENT_ITEMS, { error: `must have at most ${MAX_PAYMENT_ITEMS} lines` });
}

/** How the request is checked besides its currencies. */
export interface CreatePaymentChecks {
  /** `GATEWAY_ALLOW_PRIVATE_WEBHOOKS=1`: a `callback_url` may point to a private address. */
  readonly allowPrivateCallback: boolean;
}

function createPaymentSchemaFor(currencies: CurrencyChoice, checks: CreatePaymentChecks) {
  return z
    .strictObject(
      {
        amount: wholeUnits(currencies.unit).describe(
          'Whole units of `currency` (AMD unless `currency` names another): no minor units.',
        ),
        order_id: text(255).describe(
          "The merchant's order identifier. One payment of an order may be in progress or paid at a time; after a failed or expired attempt the order may be paid again.",
        ),
        return_url: httpUrl().describe(
          'Where the buyer is sent back after paying. With a live key it must lie on one of the verified domains (subdomains included).',
        ),
        domain: optional(hostName()).describe(
          'The verified domain the payment is for; inferred from `return_url` when left out.',
        ),
        processor: optional(
          z
            .string({ error: 'must be a processor slug' })
            .max(50, { error: 'must be at most 50 characters' })
            .refine(isKnownProcessor, { error: 'is not a known processor' }),
        ).describe('A processor slug that pre-selects the method; `sandbox` selects the test provider.'),
        redirect_mode: optional(z.enum(['direct', 'hosted'], { error: 'must be "direct" or "hosted"' })).describe(
          '`direct` (with `processor`) sends the buyer straight to the processor, skipping the hosted page.',
        ),
        currency: optional(
          z
            .string({ error: 'must be a currency code' })
            .transform((s) => s.toUpperCase())
            .refine((s) => currencies.accepted.includes(s), {
              error: `is not supported; supported: ${currencies.accepted.join(', ')}`,
            }),
        ).describe(
          '`AMD` (the default), or a currency the operator has an exchange rate for: the rate in force is locked into the payment and `charge` says what is charged in AMD.',
        ),
        callback_url: optional(
          httpUrl().superRefine((url, ctx) => {
            const reason = undeliverableTargetReason(url, checks.allowPrivateCallback);
            if (reason !== null) ctx.addIssue({ code: 'custom', message: reason });
          }),
        ).describe(
          "This payment's webhook target, instead of the domain's webhook URL; on a verified domain with a live key. Never a private address (`localhost`, loopback, private networks: `422 validation_failed`), where webhooks are never delivered, unless the gateway runs with `GATEWAY_ALLOW_PRIVATE_WEBHOOKS=1`; `bin/gateway listen` forwards test events to a local server.",
        ),
        cancel_url: optional(httpUrl()).describe(
          'Where the buyer goes on "cancel" at the checkout; on a verified domain with a live key.',
        ),
        customer_email: optional(emailAddress()).describe(
          "The buyer's email: shows who paid; once paid, payments with the same email share one customer id.",
        ),
        customer_name: optional(text(255)).describe("The buyer's name."),
        customer_id: optional(
          z.union([text(255), z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).transform(String)], {
            error: 'must be a string of at most 255 characters or a non-negative integer',
          }),
        ).describe('A customer id the merchant names (read back as a string); the velocity limit counts by it.'),
        description: optional(text(1000)).describe('Kept with the payment and shown to the buyer at the checkout.'),
        capture_method: optional(z.enum(CAPTURE_METHODS, { error: 'must be "automatic" or "manual"' })).describe(
          '`automatic` (the default): the money is taken when the buyer pays. `manual`: the amount is only held on the card (status `authorized`) until you capture it (`POST /api/v1/payments/{uuid}/capture`) or void it before `capture_before`. Card processors and the sandbox only: a wallet (idram, telcell, fastshift) named with `manual` is refused (`422`, `errors.capture_method`).',
        ),
        items: optional(paymentItems()).describe(
          'Order lines for the fiscal receipt (AMD payments only): 1 to 100, adding up to `amount` exactly.',
        ),
      },
      { error: 'must be a JSON object' },
    )
    .superRefine((body, ctx) => {
      if (body.redirect_mode === 'direct' && body.processor === undefined) {
        ctx.addIssue({ code: 'custom', path: ['redirect_mode'], message: 'direct requires a processor' });
      }
    })
    .superRefine(
      (body, ctx) => {
        if (body.items === undefined) return;
        if ((body.currency ?? BASE_CURRENCY) !== BASE_CURRENCY) {
          ctx.addIssue({ code: 'custom', path: ['items'], message: 'are accepted only for payments in AMD' });
          return;
        }
        // Every line is exact to 2 decimals here (see paymentItem), so the sum is whole hundredths.
        const sum = body.items.reduce((total, line) => total + lineValueMilli(line), 0n);
        if (sum !== BigInt(body.amount) * 1000n) {
          ctx.addIssue({
            code: 'custom',
            path: ['items'],
            message: `must add up to amount (${body.amount} AMD); the lines add up to ${formatMilli(sum)} AMD`,
          });
        }
      },
      // Only over a body that is valid so far: a refused line or amount is not what it says it is.
      { when: (payload) => payload.issues.length === 0 },
    );
}

const AMD = { accepted: [BASE_CURRENCY], unit: BASE_CURRENCY };
const AMD_ONLY = createPaymentSchemaFor(AMD, { allowPrivateCallback: false });
const AMD_ONLY_PRIVATE_CALLBACKS = createPaymentSchemaFor(AMD, { allowPrivateCallback: true });

/**
 * The create-payment schema for the currencies accepted now (and, by default, a `callback_url`
 * refused on a private address). `AMD` alone (no exchange rate asked for, the usual case) reuses
 * one schema; another set builds one for the request.
 */
export function createPaymentSchema(
  currencies?: CurrencyChoice,
  checks: CreatePaymentChecks = { allowPrivateCallback: false },
): typeof AMD_ONLY {
  if (currencies === undefined || (currencies.accepted.length === 1 && currencies.unit === BASE_CURRENCY)) {
    return checks.allowPrivateCallback ? AMD_ONLY_PRIVATE_CALLBACKS : AMD_ONLY;
  }
  return createPaymentSchemaFor(currencies, checks);
}

export type CreatePaymentBody = z.output<typeof AMD_ONLY>;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function calendarDate() {
  return z.string().refine(
    (s) => {
      if (!DATE.test(s)) return false;
      const parsed = new Date(`${s}T00:00:00.000Z`);
      return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(s);
    },
    { error: 'must be a date in the form YYYY-MM-DD' },
  );
}

export const listPaymentsSchema = z
  .object({
    status: z
      .enum(PAYMENT_STATUSES, { error: `must be one of ${PAYMENT_STATUSES.join(', ')}` })
      .optional()
      .describe('Only payments in this status.'),
    processor: text(50).optional().describe('Only payments of this processor slug.'),
    order_id: text(255).optional().describe('Only payments of this order.'),
    customer_id: text(255)
      .optional()
      .describe(
        'Only payments of this customer id: the `cus_…` the gateway gave a buyer, or one you named (an addition).',
      ),
    from: calendarDate().optional().describe('Created on or after this UTC day, `YYYY-MM-DD`.'),
    to: calendarDate().optional().describe('Created on or before this UTC day, `YYYY-MM-DD`.'),
    ...pageParams('Payments'),
  })
  .superRefine((q, ctx) => {
    if (q.from !== undefined && q.to !== undefined && q.from > q.to) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
    }
  });

export type ListPaymentsQuery = z.output<typeof listPaymentsSchema>;
