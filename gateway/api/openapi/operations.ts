/**
 * The registry of the API's operations: what each route takes (the same zod schemas the route
 * validates with), who may call it, and what it answers (status → response schema, and the error
 * codes of `gateway/domain/errors.ts` it may answer with), with an example of each request body and
 * success answer (`examples/`). `document.ts` turns it into OpenAPI 3.1.
 */
import { z } from 'zod';
import type { Operation as AccessOperation } from '../../domain/access.js';
import type { ErrorCode } from '../../domain/errors.js';
import { ledgerQuerySchema } from '../schemas/billing.schema.js';
import { listCustomersSchema } from '../schemas/customer.schema.js';
import { captureBodySchema, voidBodySchema } from '../schemas/hold.schema.js';
import { createPaymentSchema, listPaymentsSchema } from '../schemas/payment.schema.js';
import { createPaymentLinkSchema, listPaymentLinksSchema } from '../schemas/payment-link.schema.js';
import { documentedAutoTopupBodySchema, documentedPurchaseBodySchema } from '../schemas/purchase.schema.js';
import { createReceiptSchema, listReceiptsSchema } from '../schemas/receipt.schema.js';
import { refundBodySchema } from '../schemas/refund.schema.js';
import { settleReferenceBodySchema } from '../schemas/settle-reference.schema.js';
import { advanceClockSchema, testCardSchema } from '../schemas/test-helpers.schema.js';
import {
  autoTopupSchema,
  balancesSchema,
  clockSchema,
  connectTokenInfoSchema,
  customerListSchema,
  customerSchema,
  eventLogSchema,
  healthSchema,
  ledgerPageSchema,
  paymentLinkListSchema,
  paymentLinkSchema,
  paymentListSchema,
  paymentSchema,
  priceListSchema,
  purchaseSchema,
  receiptListSchema,
  receiptSchema,
  refundListSchema,
  refundResultSchema,
  resentDeliverySchema,
} from './components.js';
import {
  autoTopup,
  autoTopupRequest,
  balances,
  ledgerPage,
  priceList,
  purchase,
  purchaseRequest,
} from './examples/billing.js';
import { customer, customerList } from './examples/customers.js';
import { capturedPayment, captureRequest, voidedPayment, voidRequest } from './examples/holds.js';
import {
  createPaymentLinkRequest,
  deactivatedPaymentLink,
  paymentLink,
  paymentLinkList,
  paymentLinkWithPayments,
} from './examples/payment-links.js';
import {
  cancelledPayment,
  createdPayment,
  createPaymentRequest,
  lateConfirmedPayment,
  paidPayment,
  paymentList,
  processorReferenceRequest,
  testCardRequest,
} from './examples/payments.js';
import { createReceiptRequest, receipt, receiptList } from './examples/receipts.js';
import { refundList, refundRequest, refundResult } from './examples/refunds.js';
import {
  advanceClockRequest,
  clockNow,
  connectTokenInfo,
  documentHead,
  health,
  readiness,
} from './examples/service.js';
import { eventLog, resentDelivery } from './examples/webhooks.js';
import type { Tag } from './tags.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'delete';

/** Who may call: an operation of `domain/access.ts` (API keys, and connect tokens where allowed), a connect token only, or anyone. */
export type Caller = AccessOperation | 'connect_token' | 'public';

/** What the document says that depends on the server's settings (`gateway/config.ts`). */
export interface DocumentedSettings {
  /** `GATEWAY_MIN_PURCHASE`: the least quantity of a purchase and of an auto top-up's refill. */
  readonly minPurchase: number;
  /** `GATEWAY_MAX_PAYMENT_AMOUNT`: the largest amount of a payment link. */
  readonly maxPaymentAmount: number;
}

export interface RequestBody {
  /** The route's schema; a function when its bounds are the server's settings. */
  readonly schema: z.ZodType | ((settings: DocumentedSettings) => z.ZodType);
  readonly required: boolean;
  /** A body the server accepts (test/api/openapi-examples.test.ts sends it). */
  readonly example: unknown;
}

export interface SuccessResponse {
  readonly description: string;
  readonly schema: z.ZodType;
  /** An answer of this status, with every key the server writes. */
  readonly example: unknown;
}

export interface ApiOperation {
  readonly method: HttpMethod;
  /** OpenAPI form: `/api/v1/payments/{uuid}`. */
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tag: Tag;
  readonly caller: Caller;
  /** The route takes an `Idempotency-Key` header. */
  readonly idempotent?: boolean;
  readonly params?: z.ZodObject;
  readonly query?: z.ZodObject;
  readonly body?: RequestBody;
  readonly responses: Readonly<Record<number, SuccessResponse>>;
  /** The codes the operation itself may answer; those of authentication, bodies and idempotency are added from the flags above. */
  readonly errors: readonly ErrorCode[];
}

const uuidParam = (what: string) => z.string().describe(`The uuid of the ${what}.`);
const paymentParams = z.object({ uuid: uuidParam('payment') });

const created = (what: string, schema: z.ZodType, example: unknown): Readonly<Record<number, SuccessResponse>> => ({
  201: { description: `The ${what} was created.`, schema, example },
  200: {
    description: `A retry with the same \`Idempotency-Key\` and body: the ${what} as it is now (\`Idempotent-Replayed: true\`).`,
    schema,
    example,
  },
});

const ok = (description: string, schema: z.ZodType, example: unknown) => ({ 200: { description, schema, example } });

export const OPERATIONS: readonly ApiOperation[] = [
  {
    method: 'post',
    path: '/api/v1/payments',
    operationId: 'createPayment',
    summary: 'Create a payment',
    tag: 'Payments',
    caller: 'payments.create',
    idempotent: true,
    body: { schema: createPaymentSchema(), required: true, example: createPaymentRequest },
    responses: created('payment', paymentSchema, createdPayment),
    errors: [
      'BALANCE_EXHAUSTED',
      'domain_required',
      'domain_not_registered',
      'domain_mismatch',
      'validation_failed',
      'no_payment_method_configured',
      'amount_limit_exceeded',
      'velocity_exceeded',
    ],
  },
  {
    method: 'get',
    path: '/api/v1/payments',
    operationId: 'listPayments',
    summary: 'List payments',
    tag: 'Payments',
    caller: 'payments.read',
    query: listPaymentsSchema,
    responses: ok('A page of payments, newest first.', paymentListSchema, paymentList),
    errors: ['validation_failed'],
  },
  {
    method: 'get',
    path: '/api/v1/payments/{uuid}',
    operationId: 'getPayment',
    summary: 'Read a payment',
    tag: 'Payments',
    caller: 'payments.read',
    params: paymentParams,
    responses: ok('The payment.', paymentSchema, paidPayment),
    errors: ['not_found'],
  },
  {
    method: 'post',
    path: '/api/v1/payments/{uuid}/cancel',
    operationId: 'cancelPayment',
    summary: 'Cancel an open payment (an addition)',
    description:
      'Gives up a `pending` or `processing` payment whose order was cancelled: it becomes `expired` with `failure_code` `cancelled` at once, its checkout can no longer be paid, and its order id is free again. Cancelling one already expired or failed answers it as it is. A processor may still confirm a payment the buyer was paying at that moment (a late confirmation).',
    tag: 'Payments',
    caller: 'payments.create',
    params: paymentParams,
    responses: ok('The payment, cancelled (or final already).', paymentSchema, cancelledPayment),
    errors: ['not_found', 'payment_not_cancellable'],
  },
  {
    method: 'get',
    path: '/api/v1/orders/{order_id}/payment',
    operationId: 'getOrderPayment',
    summary: 'Read the latest payment of an order',
    tag: 'Payments',
    caller: 'payments.read',
    params: z.object({ order_id: z.string().describe('The `order_id` the payment was created with, URL-encoded.') }),
    responses: ok('The payment.', paymentSchema, paidPayment),
    errors: ['order_not_found'],
  },
  {
    method: 'get',
    path: '/api/v1/payments/{uuid}/events',
    operationId: 'listPaymentEvents',
    summary: "List a payment's events and their webhook deliveries",
    tag: 'Webhooks',
    caller: 'payments.read',
    params: paymentParams,
    responses: ok('The events, oldest first.', eventLogSchema, eventLog),
    errors: ['not_found'],
  },
  {
    method: 'post',
    path: '/api/v1/payments/{uuid}/events/{event_id}/resend',
    operationId: 'resendPaymentEvent',
    summary: "Send an event's webhook again",
    description: 'At most 10 resends a minute per account.',
    tag: 'Webhooks',
    caller: 'webhooks.resend',
    params: z.object({ uuid: uuidParam('payment'), event_id: uuidParam('event') }),
    responses: {
      202: { description: 'A new delivery was queued.', schema: resentDeliverySchema, example: resentDelivery },
    },
    errors: ['not_found', 'no_webhook_target', 'rate_limited'],
  },
  {
    method: 'post',
    path: '/api/v1/payments/{uuid}/processor_reference',
    operationId: 'settlePaymentWithProcessorReference',
    summary: "Settle a payment with the processor's reference when its callback was lost",
    description:
      "For processors that name their id of the order only in their callback (Telcell's invoice id). When that callback was lost, the gateway cannot ask the processor about the payment, and it would expire unpaid. Give the processor's id (the buyer's Telcell invoice number, or the one in Telcell's back office): the gateway asks the processor about it, and applies the answer only if it names this payment's order (and, when paid, its amount). A paid invoice completes the payment, late if it had expired meanwhile (both events are sent). Full-access keys only.",
    tag: 'Payments',
    caller: 'payments.settle',
    params: paymentParams,
    body: { schema: settleReferenceBodySchema, required: true, example: processorReferenceRequest },
    responses: ok('The payment, as it is after the answer was applied.', paymentSchema, paidPayment),
    errors: ['not_found', 'conflict', 'processor_unavailable', 'validation_failed'],
  },
  {
    method: 'post',
    path: '/api/v1/payments/{uuid}/refund',
    operationId: 'refundPayment',
    summary: 'Refund a payment, in whole or in part',
    description: 'The body may be left out: a refund of the whole remaining amount.',
    tag: 'Refunds',
    caller: 'refunds.create',
    idempotent: true,
    params: paymentParams,
    body: { schema: refundBodySchema, required: false, example: refundRequest },
    responses: created('refund', refundResultSchema, refundResult),
    errors: [
      'not_found',
      'not_refundable',
      'already_refunded',
      'refund_in_progress',
      'refund_outcome_unknown',
      'refund_declined',
      'processor_unavailable',
      'validation_failed',
      'invalid_amount',
      'amount_exceeds_remaining',
      'refund_not_supported',
    ],
  },
  {
    method: 'get',
    path: '/api/v1/payments/{uuid}/refunds',
    operationId: 'listRefunds',
    summary: "List a payment's refunds",
    tag: 'Refunds',
    caller: 'payments.read',
    params: paymentParams,
    responses: ok('The refunds, oldest first.', refundListSchema, refundList),
    errors: ['not_found'],
  },
  // Holds (docs/decisions.md "Holds"): capture or void a payment created with `capture_method: manual`.
  {
    method: 'post',
    path: '/api/v1/payments/{uuid}/capture',
    operationId: 'capturePayment',
    summary: 'Capture a held payment, in whole or in part',
    description:
      'Takes the money of an `authorized` payment (created with `capture_method: manual`): all of the hold, or `amount` of it (the rest is let go). The payment becomes `completed` for the captured amount (`amount`), `transaction.status.updated` is sent, and only what was captured may be refunded. A payment is captured once; the capture is sent to the processor once, and an unanswered one is settled by status checks, never sent again. The body may be left out.',
    tag: 'Payments',
    caller: 'payments.capture',
    idempotent: true,
    params: paymentParams,
    body: { schema: captureBodySchema, required: false, example: captureRequest },
    responses: ok(
      'The payment, captured (`completed`); a retry with the same `Idempotency-Key` answers it as it is now (`Idempotent-Replayed: true`).',
      paymentSchema,
      capturedPayment,
    ),
    errors: [
      'not_found',
      'payment_not_authorized',
      'hold_operation_in_progress',
      'capture_outcome_unknown',
      'void_outcome_unknown',
      'capture_declined',
      'authorization_expired',
      'processor_unavailable',
      'validation_failed',
      'invalid_amount',
      'amount_exceeds_authorized',
    ],
  },
  {
    method: 'post',
    path: '/api/v1/payments/{uuid}/void',
    operationId: 'voidPayment',
    summary: 'Void a held payment: release the hold',
    description:
      'Releases the hold of an `authorized` payment: nothing is taken, the payment becomes `expired` with `failure_code` `voided`, `transaction.status.updated` is sent and the order may be paid again. The body may be left out.',
    tag: 'Payments',
    caller: 'payments.capture',
    idempotent: true,
    params: paymentParams,
    body: { schema: voidBodySchema, required: false, example: voidRequest },
    responses: ok(
      'The payment, released (`expired`); a retry with the same `Idempotency-Key` answers it as it is now (`Idempotent-Replayed: true`).',
      paymentSchema,
      voidedPayment,
    ),
    errors: [
      'not_found',
      'payment_not_authorized',
      'hold_operation_in_progress',
      'capture_outcome_unknown',
      'void_outcome_unknown',
      'void_declined',
      'authorization_expired',
      'processor_unavailable',
      'validation_failed',
    ],
  },
  {
    method: 'post',
    path: '/api/v1/payment_links',
    operationId: 'createPaymentLink',
    summary: 'Create a payment link',
    description:
      'A fixed `amount`, or `amount_min` and `amount_max` for the buyer to choose in. Payments-only keys may call it.',
    tag: 'Payment links',
    caller: 'payment_links.manage',
    idempotent: true,
    body: {
      schema: (settings) => createPaymentLinkSchema(settings.maxPaymentAmount),
      required: true,
      example: createPaymentLinkRequest,
    },
    responses: created('payment link', paymentLinkSchema, paymentLink),
    errors: ['validation_failed'],
  },
  {
    method: 'get',
    path: '/api/v1/payment_links',
    operationId: 'listPaymentLinks',
    summary: 'List payment links',
    tag: 'Payment links',
    caller: 'payment_links.manage',
    query: listPaymentLinksSchema,
    responses: ok('A page of payment links, newest first.', paymentLinkListSchema, paymentLinkList),
    errors: ['validation_failed'],
  },
  {
    method: 'get',
    path: '/api/v1/payment_links/{id}',
    operationId: 'getPaymentLink',
    summary: 'Read a payment link and its latest payments',
    tag: 'Payment links',
    caller: 'payment_links.manage',
    params: z.object({ id: z.string().describe('The id of the payment link.') }),
    responses: ok('The payment link with its latest payments.', paymentLinkSchema, paymentLinkWithPayments),
    errors: ['not_found'],
  },
  {
    method: 'post',
    path: '/api/v1/payment_links/{id}/deactivate',
    operationId: 'deactivatePaymentLink',
    summary: 'Deactivate a payment link',
    description: 'Buyers can no longer pay through it; deactivating again changes nothing.',
    tag: 'Payment links',
    caller: 'payment_links.manage',
    params: z.object({ id: z.string().describe('The id of the payment link.') }),
    responses: ok('The payment link, inactive.', paymentLinkSchema, deactivatedPaymentLink),
    errors: ['not_found'],
  },
  {
    method: 'get',
    path: '/api/v1/billing/pricing',
    operationId: 'getPricing',
    summary: 'Read the price list',
    tag: 'Billing',
    caller: 'public',
    responses: ok('The price of each counter.', priceListSchema, priceList),
    errors: [],
  },
  {
    method: 'get',
    path: '/api/v1/billing/balances',
    operationId: 'getBalances',
    summary: "Read the account's balances",
    tag: 'Billing',
    caller: 'billing.read',
    responses: ok('Both balances.', balancesSchema, balances),
    errors: [],
  },
  {
    method: 'get',
    path: '/api/v1/billing/ledger',
    operationId: 'listLedger',
    summary: "Read the account's ledger",
    tag: 'Billing',
    caller: 'billing.read',
    query: ledgerQuerySchema,
    responses: ok('A page of ledger entries, newest first.', ledgerPageSchema, ledgerPage),
    errors: ['validation_failed'],
  },
  {
    method: 'post',
    path: '/api/v1/billing/purchases',
    operationId: 'createPurchase',
    summary: 'Buy units',
    description:
      'Preset quantities answer a `checkout_url` to pay by card; any other quantity a bank-transfer `reference`.',
    tag: 'Billing',
    caller: 'billing.purchase',
    idempotent: true,
    body: {
      schema: (settings) => documentedPurchaseBodySchema(settings.minPurchase),
      required: true,
      example: purchaseRequest,
    },
    responses: created('purchase', purchaseSchema, purchase),
    errors: ['VERIFICATION_REQUIRED', 'validation_failed', 'below_minimum'],
  },
  {
    method: 'get',
    path: '/api/v1/billing/purchases/{id}',
    operationId: 'getPurchase',
    summary: 'Read a purchase',
    tag: 'Billing',
    caller: 'billing.read',
    params: z.object({ id: z.string().describe('The id of the purchase.') }),
    responses: ok('The purchase.', purchaseSchema, purchase),
    errors: ['not_found'],
  },
  {
    method: 'put',
    path: '/api/v1/billing/auto-topup/{counter}',
    operationId: 'configureAutoTopup',
    summary: 'Set the auto top-up of a counter',
    tag: 'Billing',
    caller: 'billing.configure',
    params: z.object({
      counter: z.enum(['transactions', 'receipts']).describe('The counter whose auto top-up is set.'),
    }),
    body: {
      schema: (settings) => documentedAutoTopupBodySchema(settings.minPurchase),
      required: true,
      example: autoTopupRequest,
    },
    responses: ok('The setting as saved.', autoTopupSchema, autoTopup),
    errors: ['not_found', 'validation_failed'],
  },
  {
    method: 'post',
    path: '/api/v1/receipts',
    operationId: 'createReceipt',
    summary: 'Issue a fiscal receipt for a sale not paid through the service',
    tag: 'Receipts',
    caller: 'receipts.create',
    idempotent: true,
    body: { schema: createReceiptSchema, required: true, example: createReceiptRequest },
    responses: created('receipt', receiptSchema, receipt),
    errors: [
      'BALANCE_EXHAUSTED',
      'domain_required',
      'domain_not_registered',
      'domain_mismatch',
      'validation_failed',
      'receipts_not_enabled',
    ],
  },
  {
    method: 'get',
    path: '/api/v1/receipts',
    operationId: 'listReceipts',
    summary: 'List receipts',
    tag: 'Receipts',
    caller: 'receipts.read',
    query: listReceiptsSchema,
    responses: ok('A page of receipts, newest first.', receiptListSchema, receiptList),
    errors: ['validation_failed'],
  },
  {
    method: 'get',
    path: '/api/v1/receipts/{id}',
    operationId: 'getReceipt',
    summary: 'Read a receipt',
    tag: 'Receipts',
    caller: 'receipts.read',
    params: z.object({ id: z.string().describe('The id of the receipt (`rct_...`).') }),
    responses: ok('The receipt.', receiptSchema, receipt),
    errors: ['not_found'],
  },
  {
    method: 'get',
    path: '/api/v1/connect_token',
    operationId: 'getConnectToken',
    summary: 'Read what a connect token is bound to',
    description: "Also answers the signing secrets of its domain's webhooks. Only a connect token may call it.",
    tag: 'Connect tokens',
    caller: 'connect_token',
    responses: ok('The token.', connectTokenInfoSchema, connectTokenInfo),
    errors: [],
  },
  {
    method: 'post',
    path: '/api/v1/test_helpers/payments/{uuid}/pay',
    operationId: 'payTestPayment',
    summary: 'Pay a sandbox payment with a test card',
    description: 'Test keys only: a live key gets 404.',
    tag: 'Test helpers',
    caller: 'test_helpers.use',
    params: paymentParams,
    body: { schema: testCardSchema, required: true, example: testCardRequest },
    responses: ok('The payment after the card was tried.', paymentSchema, paidPayment),
    errors: ['not_found', 'validation_failed'],
  },
  {
    method: 'post',
    path: '/api/v1/test_helpers/payments/{uuid}/confirm',
    operationId: 'confirmTestPayment',
    summary: 'Confirm a sandbox payment as a late processor confirmation would',
    description: 'Test keys only: a live key gets 404.',
    tag: 'Test helpers',
    caller: 'test_helpers.use',
    params: paymentParams,
    responses: ok('The payment after the confirmation.', paymentSchema, lateConfirmedPayment),
    errors: ['not_found'],
  },
  {
    method: 'post',
    path: '/api/v1/test_helpers/clock/advance',
    operationId: 'advanceTestClock',
    summary: "Move the test server's clock forward",
    description:
      'Only on a server started with `GATEWAY_CLOCK=manual`, with a test key; runs the work that became due. ' +
      'The clock is kept in the database: every instance on it reads the moved time from its next request.',
    tag: 'Test helpers',
    caller: 'test_helpers.use',
    body: { schema: advanceClockSchema, required: true, example: advanceClockRequest },
    responses: ok('The clock after the advance.', clockSchema, clockNow),
    errors: ['not_found', 'validation_failed'],
  },
  {
    method: 'get',
    path: '/api/v1/openapi.json',
    operationId: 'getOpenApiDocument',
    summary: 'This OpenAPI document',
    tag: 'Service',
    caller: 'public',
    responses: ok('The OpenAPI 3.1 document of the API.', z.looseObject({ openapi: z.string() }), documentHead),
    errors: [],
  },
  {
    method: 'get',
    path: '/api/v1/customers',
    operationId: 'listCustomers',
    summary: 'List customers',
    description: "An addition: the customer records of the key's environment, latest payment first.",
    tag: 'Customers',
    caller: 'customers.read',
    query: listCustomersSchema,
    responses: ok('A page of customers.', customerListSchema, customerList),
    errors: ['validation_failed'],
  },
  {
    method: 'get',
    path: '/api/v1/customers/{id}',
    operationId: 'getCustomer',
    summary: 'Read a customer',
    description: "An addition. Another account's or environment's customer is `404 not_found`.",
    tag: 'Customers',
    caller: 'customers.read',
    params: z.object({ id: z.string().describe('The customer id, URL-encoded.') }),
    responses: ok('The customer.', customerSchema, customer),
    errors: ['not_found'],
  },
  {
    method: 'get',
    path: '/health',
    operationId: 'getHealth',
    summary: 'The process is up',
    tag: 'Service',
    caller: 'public',
    responses: ok('Up.', healthSchema, health),
    errors: [],
  },
  {
    method: 'get',
    path: '/ready',
    operationId: 'getReadiness',
    summary: 'The process can reach its database, and the database has every migration this version needs',
    tag: 'Service',
    caller: 'public',
    responses: ok('Ready.', healthSchema, readiness),
    errors: ['service_unavailable'],
  },
  {
    method: 'get',
    path: '/health/ready',
    operationId: 'getHealthReady',
    summary: 'The same as `/ready` (kept for load balancers configured with it)',
    tag: 'Service',
    caller: 'public',
    responses: ok('Ready.', healthSchema, readiness),
    errors: ['service_unavailable'],
  },
];
