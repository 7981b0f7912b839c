/**
 * The response bodies of the API as zod schemas, registered under the names they take in the
 * OpenAPI document (`#/components/schemas/<id>`). They describe what the services answer (the
 * `...Response` interfaces of the domain and services); the contract test checks every answer the
 * API tests receive against them.
 */
import { z } from 'zod';
import { COUNTERS } from '../../domain/billing.js';
import { CONNECT_PLATFORMS } from '../../domain/connect-tokens.js';
import { ERROR_CODES, type ErrorCode } from '../../domain/errors.js';
import { PAYMENT_STATUSES } from '../../domain/payment.js';
import { holdErrorFields, holdOperationSchema, holdPaymentFields, holdTransactionFields } from './holds.js';

export interface ComponentMeta {
  readonly id: string;
  readonly description?: string;
}

/** Every named schema of the document. */
export const components = z.registry<ComponentMeta>();

/** An instant as the API writes it: ISO 8601, whole seconds, with an offset (`2026-11-21T10:32:04+00:00`). */
const instant = () => z.iso.datetime({ offset: true, precision: 0 });
const nullableInstant = () => instant().nullable();
const uuid = () => z.guid();

export const errorCodeSchema = z
  .enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]])
  .register(components, { id: 'ErrorCode', description: 'A stable error code; each has its section at /docs/errors.' });

export const refundStatusSchema = z.enum(['pending', 'succeeded', 'failed', 'unknown']);

export const refundSchema = z
  .object({
    uuid: uuid(),
    payment_uuid: uuid(),
    amount: z.int().min(1).describe('Whole AMD.'),
    reason: z.string().nullable(),
    status: refundStatusSchema,
    failure_code: z.string().nullable().describe('`refund_declined` or `processor_unavailable` for a failed refund.'),
    created_at: instant(),
    completed_at: nullableInstant().describe('When it succeeded or failed; null while in flight.'),
  })
  .register(components, { id: 'Refund', description: 'A refund of a payment.' });

export const errorSchema = z
  .object({
    error: errorCodeSchema,
    message: z.string(),
    request_id: z.string().describe('Also sent as `X-Request-Id`; quote it to support.'),
    docs_url: z.url().describe('The section of /docs/errors that explains the code.'),
    errors: z
      .record(z.string(), z.array(z.string()))
      .optional()
      .describe('`validation_failed` and `invalid_amount`: the messages of each invalid field.'),
    verification_url: z.url().optional().describe('`VERIFICATION_REQUIRED`.'),
    required: z.string().optional().describe('`insufficient_scope`: the operation the key may not do.'),
    available: z.int().optional().describe('`BALANCE_EXHAUSTED`.'),
    grace_floor: z.int().optional().describe('`BALANCE_EXHAUSTED`.'),
    top_up_url: z.url().optional().describe('`BALANCE_EXHAUSTED`.'),
    max_bytes: z.int().optional().describe('`payload_too_large`.'),
    min_quantity: z.int().optional().describe('`below_minimum`.'),
    max_amount: z.int().optional().describe('`amount_limit_exceeded`.'),
    velocity_limit: z.int().optional().describe('`velocity_exceeded`.'),
    velocity_window_minutes: z.int().optional().describe('`velocity_exceeded`.'),
    retry_after: z.int().optional().describe('`velocity_exceeded`: seconds until one more payment fits.'),
    domain: z.string().optional().describe('The domain errors and `no_payment_method_configured`.'),
    field: z.string().optional().describe('`domain_mismatch`: the field outside the verified domains.'),
    enabled_processors: z.array(z.string()).optional().describe('`no_payment_method_configured`.'),
    payment_status: z
      .enum(PAYMENT_STATUSES)
      .optional()
      .describe('`not_refundable`, `payment_not_cancellable`, `payment_not_authorized`.'),
    refundable_amount: z.int().optional(),
    remaining_amount: z.int().optional().describe('`amount_exceeds_remaining`, `refund_in_progress`.'),
    in_progress_amount: z.int().optional().describe('`refund_in_progress`.'),
    refund: refundSchema.optional().describe('The refund errors: the refund in its current state.'),
    reason: z
      .enum(['database_unreachable', 'migrations_pending'])
      .optional()
      .describe('`service_unavailable` from `/ready`: why the instance is not ready.'),
    pending_migrations: z
      .array(z.string())
      .optional()
      .describe('`service_unavailable` with `migrations_pending`: the migrations this version needs.'),
    ...holdErrorFields,
  })
  .register(components, {
    id: 'Error',
    description: 'Every error answer. Some codes add keys of their own (see each code at /docs/errors).',
  });

export const chargeSchema = z
  .object({
    amount: z.int().describe('Whole AMD charged.'),
    currency: z.literal('AMD'),
    fx_rate: z.number().describe("AMD per one unit of the payment's currency."),
    locked_at: instant(),
  })
  .register(components, { id: 'Charge', description: 'What a payment priced in another currency charges in AMD.' });

export const paymentItemSchema = z
  .object({
    name: z.string(),
    quantity: z.number(),
    unit_price: z.int().describe('Whole AMD per unit.'),
    classification_code: z.string().nullable(),
    code: z.string().nullable(),
    unit: z.string().nullable(),
  })
  .register(components, { id: 'PaymentItem', description: 'An order line.' });

export const paymentSchema = z
  .object({
    uuid: uuid(),
    order_id: z.string(),
    amount: z.int(),
    refunded_amount: z.int().describe('Whole AMD.'),
    currency: z.string(),
    charge: chargeSchema.nullable(),
    customer_id: z.string().nullable(),
    status: z.enum(PAYMENT_STATUSES),
    checkout_url: z.url(),
    processor: z.string().nullable(),
    created_at: instant(),
    completed_at: nullableInstant(),
    refunded_at: nullableInstant(),
    payment_flow: z.enum(['redirect', 'qr']),
    qr_code: z.string().nullable(),
    rrn: z.string().nullable(),
    redirect_url: z.url(),
    description: z.string().nullable(),
    livemode: z.boolean(),
    failure_code: z.string().nullable(),
    items: z.array(paymentItemSchema).nullable(),
    awaiting_processor_reference: z
      .boolean()
      .describe(
        "True while the payment waits for the processor's id of the order that only the processor's callback names (Telcell's invoice id): no callback named it, so the gateway cannot ask the processor, and the payment is not paid (processing, or expired or failed meanwhile). The buyer may have paid: it completes when the callback comes, or when you give that id with `POST /api/v1/payments/{uuid}/processor_reference`. False otherwise.",
      ),
    ...holdPaymentFields,
  })
  .register(components, { id: 'Payment', description: 'A payment (spec "Payment", with the additions).' });

const pageLinkSchema = z.object({ url: z.string().nullable(), label: z.string(), active: z.boolean() });

export const paymentListSchema = z
  .object({
    data: z.array(paymentSchema),
    links: z.object({
      first: z.string().nullable(),
      last: z.string().nullable(),
      prev: z.string().nullable(),
      next: z.string().nullable(),
    }),
    meta: z.object({
      current_page: z.int(),
      from: z.int().nullable(),
      last_page: z.int(),
      links: z.array(pageLinkSchema),
      path: z.string().nullable(),
      per_page: z.int(),
      to: z.int().nullable(),
      total: z.int(),
    }),
  })
  .register(components, { id: 'PaymentList', description: 'A page of payments, newest first.' });

export const customerSchema = z
  .object({
    id: z.string().describe('The customer id: `cus_...` given once paid, or the `customer_id` the merchant named.'),
    livemode: z.boolean().describe('Whether it is a customer of live payments (else of test payments).'),
    email: z.string().nullable().describe('Lower-cased `customer_email` of its latest payment that had one.'),
    name: z.string().nullable().describe('`customer_name` of its latest payment that had one.'),
    payments_count: z.int().describe('Payments carrying this customer id, whatever their status.'),
    paid_count: z.int().describe('Of those, payments that were paid (completed, refunded since included).'),
    total_paid: z.int().describe("Sum of the paid payments' amounts, whole AMD."),
    refunded_amount: z.int().describe('Sum refunded of those payments, whole AMD.'),
    currency: z.literal('AMD'),
    first_payment_at: instant(),
    last_payment_at: instant(),
    last_paid_at: nullableInstant(),
  })
  .register(components, { id: 'Customer', description: 'A customer record (an addition).' });

export const customerListSchema = z
  .object({
    data: z.array(customerSchema),
    links: paymentListSchema.shape.links,
    meta: paymentListSchema.shape.meta,
  })
  .register(components, { id: 'CustomerList', description: 'A page of customers, latest payment first.' });

holdOperationSchema.register(components, {
  id: 'HoldOperation',
  description: 'A capture or release of a held payment (docs/decisions.md "Holds").',
});

export const refundResultSchema = refundSchema
  .extend({
    refunded_amount: z.int().describe("The payment's total refunded amount, this refund included."),
    payment_status: z.enum(PAYMENT_STATUSES),
  })
  .register(components, { id: 'RefundResult', description: 'A refund and the payment after it.' });

export const refundListSchema = z
  .object({ data: z.array(refundSchema) })
  .register(components, { id: 'RefundList', description: "A payment's refunds." });

export const transactionSnapshotSchema = z
  .object({
    uuid: uuid(),
    order_id: z.string(),
    status: z.enum(PAYMENT_STATUSES),
    amount: z.int(),
    refunded_amount: z.int(),
    currency: z.string(),
    processor: z.string().nullable(),
    completed_at: nullableInstant(),
    created_at: instant(),
    failure_code: z.string().nullable(),
    ...holdTransactionFields,
  })
  .register(components, { id: 'TransactionSnapshot', description: 'The payment as an event saw it.' });

export const eventNameSchema = z.enum(['transaction.status.updated', 'payment.refunded', 'payment.authorized']);

/** The body an event keeps; each delivery adds `delivery_id` and `timestamp`. */
export const eventBodySchema = z
  .object({
    event: eventNameSchema,
    livemode: z.boolean(),
    transaction: transactionSnapshotSchema,
    refund: z.object({ uuid: uuid(), amount: z.int(), reason: z.string().nullable() }).nullable(),
    receipt: z.object({ receipt_id: z.string(), qr_url: z.url() }).nullable(),
  })
  .register(components, { id: 'EventBody', description: 'An event as the outbox keeps it.' });

export const webhookDeliveryBodySchema = eventBodySchema
  .extend({
    delivery_id: uuid().describe('Also the `webhook-id` header.'),
    timestamp: z.int().describe('Unix seconds of this attempt.'),
  })
  .register(components, { id: 'WebhookDelivery', description: 'The body the gateway POSTs to a webhook URL.' });

export const deliverySchema = z
  .object({
    delivery_id: uuid(),
    url: z
      .string()
      .describe(
        "The webhook target (the payment's `callback_url`, else its domain's webhook URL), as set for a full-access key; for a payments-only key or a connect token, its user name, password and query values are `***` and its fragment is dropped.",
      ),
    status: z.enum(['pending', 'delivered', 'failed']),
    attempts: z.int(),
    next_attempt_at: nullableInstant(),
    last_attempt_at: nullableInstant(),
    last_status_code: z.int().nullable(),
    last_error: z.string().nullable(),
    delivered_at: nullableInstant(),
    attempt_log: z
      .array(
        z.object({
          attempt: z.int().describe('1 for the first attempt.'),
          at: instant().describe('When the attempt started.'),
          url: z
            .string()
            .describe(
              "The target of this attempt, masked as the delivery's `url` is for callers other than full-access keys.",
            ),
          http_status: z.int().nullable().describe('Null when no answer came.'),
          duration_ms: z.int().min(0),
          error: z.string().nullable().describe('Short, credentials in URLs hidden; null when delivered.'),
          outcome: z.enum(['delivered', 'retry', 'failed']),
        }),
      )
      .describe('Every recorded attempt, oldest first (an addition).'),
  })
  .register(components, { id: 'Delivery', description: 'One webhook delivery of an event.' });

export const eventLogSchema = z
  .object({
    data: z.array(
      z.object({
        id: uuid(),
        event: eventNameSchema,
        livemode: z.boolean(),
        created_at: instant(),
        body: eventBodySchema,
        deliveries: z.array(deliverySchema),
      }),
    ),
  })
  .register(components, { id: 'EventLog', description: "A payment's events with their deliveries, oldest first." });

export const resentDeliverySchema = z
  .object({
    event_id: uuid(),
    delivery_id: uuid(),
    url: z.string(),
    status: z.literal('pending'),
    attempts: z.literal(0),
    next_attempt_at: instant(),
    created_at: instant(),
  })
  .register(components, { id: 'ResentDelivery', description: 'The new delivery of a resent event.' });

const counterSchema = z.enum(COUNTERS);

export const priceListSchema = z
  .array(z.object({ counter: counterSchema, unit_price_amd: z.int(), free_when: z.string() }))
  .register(components, {
    id: 'PriceList',
    description: 'The price of each counter: `transactions`, then `receipts`.',
  });

export const balancesSchema = z
  .array(
    z.object({
      counter: counterSchema,
      available: z.int(),
      grace_floor: z.int(),
      blocked: z.enum(['no', 'grace', 'yes']),
      unlimited: z.boolean(),
    }),
  )
  .register(components, { id: 'Balances', description: 'Both balances, `transactions` first.' });

export const ledgerPageSchema = z
  .object({
    data: z.array(
      z.object({
        id: z.int(),
        counter: counterSchema,
        delta: z.int(),
        event_type: z.string(),
        ref_type: z.string().nullable(),
        ref_id: z.string().nullable(),
        balance_after: z.int(),
        note: z.string().nullable(),
        created_at: nullableInstant(),
      }),
    ),
    next_cursor: z.string().nullable(),
  })
  .register(components, { id: 'LedgerPage', description: 'A page of the ledger, newest first.' });

export const purchaseSchema = z
  .object({
    id: z.string(),
    counter: counterSchema,
    quantity: z.int(),
    amount_amd: z.int(),
    currency: z.literal('AMD'),
    method: z.enum(['card', 'bank_transfer']),
    status: z.enum(['pending', 'paid']),
    source: z.string(),
    checkout_url: z.url().nullable(),
    reference: z.string().nullable(),
    created_at: instant(),
    paid_at: nullableInstant(),
  })
  .register(components, { id: 'Purchase', description: 'A purchase of units.' });

export const autoTopupSchema = z
  .object({
    counter: counterSchema,
    enabled: z.boolean(),
    threshold_qty: z.int(),
    refill_qty: z.int(),
    payment_method_id: z.string().nullable(),
    armed: z.boolean().describe('True while the balance is above the threshold.'),
    updated_at: instant(),
  })
  .register(components, { id: 'AutoTopup', description: 'The auto top-up setting of a counter.' });

export const receiptSchema = z
  .object({
    id: z.string(),
    type: z.enum(['sale', 'return']),
    status: z.enum(['pending', 'unknown', 'issued', 'failed']),
    livemode: z.boolean(),
    system: z.string(),
    payment_uuid: uuid().nullable(),
    refund_uuid: uuid().nullable(),
    sale_receipt_id: z.string().nullable(),
    amount: z.int(),
    card_amount: z.int(),
    cash_amount: z.int(),
    lines: z.array(paymentItemSchema),
    fiscal: z
      .object({
        receipt_id: z.string(),
        fiscal_number: z.string().nullable(),
        register_number: z.string().nullable(),
        serial_number: z.string().nullable(),
        tin: z.string().nullable(),
        taxpayer: z.string().nullable(),
        address: z.string().nullable(),
        total: z.string().nullable(),
      })
      .nullable(),
    qr_url: z.url().nullable(),
    last_error: z.object({ code: z.string().nullable(), message: z.string() }).nullable(),
    created_at: instant(),
    issued_at: nullableInstant(),
  })
  .register(components, { id: 'Receipt', description: 'A fiscal receipt (docs/receipts.md).' });

export const receiptListSchema = z
  .object({ data: z.array(receiptSchema), next_cursor: z.string().nullable() })
  .register(components, { id: 'ReceiptList', description: 'A page of receipts, newest first.' });

export const connectTokenInfoSchema = z
  .object({
    id: z.string(),
    merchant_id: z.string(),
    domain: z.string(),
    platform: z.enum(CONNECT_PLATFORMS),
    environment: z.enum(['live', 'test']),
    livemode: z.boolean(),
    created_at: instant(),
    expires_at: instant(),
    webhook_secrets: z
      .array(z.string())
      .describe("The domain's webhook signing secret, and during a rotation the next one."),
  })
  .register(components, { id: 'ConnectTokenInfo', description: 'What a connect token is bound to.' });

export const clockSchema = z
  .object({ now: instant() })
  .register(components, { id: 'ClockNow', description: "The test server's clock after the advance." });

export const healthSchema = z
  .object({ status: z.literal('ok'), database: z.enum(['sqlite', 'postgres']).optional() })
  .register(components, { id: 'Health', description: 'The process is up (and, for `/health/ready`, its database).' });

export const paymentLinkPaymentSchema = z
  .object({
    uuid: uuid(),
    order_id: z.string(),
    amount: z.int(),
    currency: z.string(),
    status: z.enum(PAYMENT_STATUSES),
    created_at: instant(),
    completed_at: nullableInstant(),
  })
  .register(components, { id: 'PaymentLinkPayment', description: 'A payment made through a payment link.' });

export const paymentLinkSchema = z
  .object({
    id: z.string().describe('`plink_` and 16 characters.'),
    object: z.literal('payment_link'),
    url: z.url().describe("The link's page for the buyer."),
    status: z.enum(['active', 'inactive', 'expired', 'completed']),
    active: z.boolean(),
    amount: z.int().nullable().describe('Whole AMD; null when the buyer chooses within amount_min..amount_max.'),
    amount_min: z.int().nullable(),
    amount_max: z.int().nullable(),
    currency: z.string(),
    description: z.string().nullable(),
    reusable: z.boolean(),
    expires_at: nullableInstant(),
    livemode: z.boolean(),
    payments_count: z.int(),
    completed_payments_count: z.int(),
    created_at: instant(),
    deactivated_at: nullableInstant(),
    payments: z
      .array(paymentLinkPaymentSchema)
      .optional()
      .describe('Only when one link is read or deactivated: its latest 50 payments.'),
  })
  .register(components, { id: 'PaymentLink', description: 'A payment link (an addition).' });

export const paymentLinkListSchema = z
  .object({
    data: z.array(paymentLinkSchema),
    links: paymentListSchema.shape.links,
    meta: paymentListSchema.shape.meta,
  })
  .register(components, { id: 'PaymentLinkList', description: 'A page of payment links, newest first.' });
