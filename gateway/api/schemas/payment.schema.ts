/**
 * Requests of the payments endpoints (spec "Create-payment request body" and the list query).
 * Unknown body keys are ignored. Bounds the spec leaves open are decided in docs/decisions.md.
 */
import { z } from 'zod';
import { BASE_CURRENCY } from '../../domain/fx.js';
import { PAYMENT_STATUSES } from '../../domain/payment.js';
import { isKnownProcessor } from '../../processors/registry.js';
import { emailAddress, hostName, httpUrl, optional, text, wholeUnits } from './fields.js';

/** What a request may name as `currency`: AMD, and the currencies with an exchange rate in force. */
export interface CurrencyChoice {
  /** Accepted codes, upper case, `AMD` first. */
  readonly accepted: readonly string[];
  /** The currency `amount` is counted in, for its messages (`AMD`, or the accepted currency sent). */
  readonly unit: string;
}

function createPaymentSchemaFor(currencies: CurrencyChoice) {
  return z
    .object(
      {
        amount: wholeUnits(currencies.unit),
        order_id: text(255),
        return_url: httpUrl(),
        domain: optional(hostName()),
        processor: optional(
          z
            .string({ error: 'must be a processor slug' })
            .max(50, { error: 'must be at most 50 characters' })
            .refine(isKnownProcessor, { error: 'is not a known processor' }),
        ),
        redirect_mode: optional(z.enum(['direct', 'hosted'], { error: 'must be "direct" or "hosted"' })),
        currency: optional(
          z
            .string({ error: 'must be a currency code' })
            .transform((s) => s.toUpperCase())
            .refine((s) => currencies.accepted.includes(s), {
              error: `is not supported; supported: ${currencies.accepted.join(', ')}`,
            }),
        ),
        callback_url: optional(httpUrl()),
        cancel_url: optional(httpUrl()),
        customer_email: optional(emailAddress()),
        customer_name: optional(text(255)),
        customer_id: optional(
          z.union([text(255), z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).transform(String)], {
            error: 'must be a string of at most 255 characters or a non-negative integer',
          }),
        ),
        description: optional(text(1000)),
      },
      { error: 'must be a JSON object' },
    )
    .superRefine((body, ctx) => {
      if (body.redirect_mode === 'direct' && body.processor === undefined) {
        ctx.addIssue({ code: 'custom', path: ['redirect_mode'], message: 'direct requires a processor' });
      }
    });
}

const AMD_ONLY = createPaymentSchemaFor({ accepted: [BASE_CURRENCY], unit: BASE_CURRENCY });

/**
 * The create-payment schema for the currencies accepted now. `AMD` alone (no exchange rate asked
 * for, the usual case) reuses one schema; another set builds one for the request.
 */
export function createPaymentSchema(currencies?: CurrencyChoice): typeof AMD_ONLY {
  if (currencies === undefined || (currencies.accepted.length === 1 && currencies.unit === BASE_CURRENCY)) {
    return AMD_ONLY;
  }
  return createPaymentSchemaFor(currencies);
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

function positiveIntegerParam(max: number, name: string) {
  return z
    .string()
    .regex(/^\d+$/, { error: `must be an integer` })
    .transform(Number)
    .refine((n) => n >= 1 && n <= max, { error: `${name} must be between 1 and ${max}` });
}

export const listPaymentsSchema = z
  .object({
    status: z.enum(PAYMENT_STATUSES, { error: `must be one of ${PAYMENT_STATUSES.join(', ')}` }).optional(),
    processor: text(50).optional(),
    order_id: text(255).optional(),
    from: calendarDate().optional(),
    to: calendarDate().optional(),
    per_page: positiveIntegerParam(100, 'per_page').default(25),
    page: positiveIntegerParam(1_000_000, 'page').default(1),
  })
  .superRefine((q, ctx) => {
    if (q.from !== undefined && q.to !== undefined && q.from > q.to) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
    }
  });

export type ListPaymentsQuery = z.output<typeof listPaymentsSchema>;
