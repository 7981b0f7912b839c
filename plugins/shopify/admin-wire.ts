/**
 * The parts of Shopify Admin GraphQL answers the manual-payment bridge reads, as zod schemas, and the
 * conversions between Shopify's ids and money and the connector's.
 *
 * Shapes follow shopify.dev's Admin GraphQL reference (Order, OrderTransaction, Refund, MoneyBag,
 * UserError, PageInfo). Objects keep unknown keys: Shopify adds fields between versions, and only
 * what the driver asks for is required.
 */
import { z } from 'zod';

/** `gid://shopify/Order/450789469` for order 450789469. */
export function orderGid(orderId: string): string {
  return `gid://shopify/Order/${orderId}`;
}

/** The numeric tail of a global id (`gid://shopify/Refund/929361465` -> "929361465"), or null. */
export function legacyId(gid: string): string | null {
  const match = /^gid:\/\/shopify\/[A-Za-z]+\/(\d+)(?:\?.*)?$/.exec(gid);
  return match?.[1] ?? null;
}

/** Shopify order ids are positive integers (64-bit); anything else cannot name an order. */
export function isOrderId(orderId: string): boolean {
  return /^[1-9]\d{0,18}$/.test(orderId);
}

export const moneyV2Schema = z.looseObject({ amount: z.string(), currencyCode: z.string() });
/** A MoneyBag: Shopify answers amounts in the shop's currency and in the buyer's (presentment). */
export const moneyBagSchema = z.looseObject({ shopMoney: moneyV2Schema });

export const userErrorSchema = z.looseObject({
  field: z.array(z.string()).nullish(),
  message: z.string(),
  code: z.string().nullish(),
});
export type UserError = z.infer<typeof userErrorSchema>;
export const userErrorsSchema = z.array(userErrorSchema);

/** The fields every order read asks for (see ORDER_FIELDS in ./admin-platform.ts). */
export const orderSchema = z.looseObject({
  id: z.string(),
  legacyResourceId: z.string(),
  name: z.string(),
  createdAt: z.string(),
  /** Null on orders Shopify has no summary for (documented as nullable). */
  displayFinancialStatus: z.string().nullish(),
  paymentGatewayNames: z.array(z.string()),
  totalPriceSet: moneyBagSchema,
  totalRefundedSet: moneyBagSchema,
  email: z.string().nullish(),
  customer: z.looseObject({ firstName: z.string().nullish(), lastName: z.string().nullish() }).nullish(),
  note: z.string().nullish(),
  tags: z.array(z.string()),
  paymentUuid: z.looseObject({ value: z.string() }).nullish(),
});
export type ShopifyOrder = z.infer<typeof orderSchema>;

export const orderAnswerSchema = z.looseObject({ order: orderSchema.nullable() });

export const orderPageSchema = z.looseObject({
  orders: z.looseObject({
    nodes: z.array(orderSchema),
    pageInfo: z.looseObject({ hasNextPage: z.boolean(), endCursor: z.string().nullish() }),
  }),
});

export const transactionSchema = z.looseObject({
  id: z.string(),
  kind: z.string(),
  status: z.string(),
  gateway: z.string().nullish(),
  manualPaymentGateway: z.boolean(),
  amountSet: moneyBagSchema,
});
export type ShopifyTransaction = z.infer<typeof transactionSchema>;

export const refundSchema = z.looseObject({
  id: z.string(),
  legacyResourceId: z.string(),
  note: z.string().nullish(),
});
export type ShopifyRefund = z.infer<typeof refundSchema>;

/** An order with what recording a refund needs: its transactions and the refunds already made. */
export const orderWithRefundsAnswerSchema = z.looseObject({
  order: orderSchema.extend({ transactions: z.array(transactionSchema), refunds: z.array(refundSchema) }).nullable(),
});

export const shopAnswerSchema = z.looseObject({ shop: z.looseObject({ name: z.string() }) });

export const markPaidAnswerSchema = z.looseObject({
  orderMarkAsPaid: z
    .looseObject({
      order: z.looseObject({ id: z.string(), displayFinancialStatus: z.string().nullish() }).nullish(),
      userErrors: userErrorsSchema,
    })
    .nullable(),
});

export const metafieldsSetAnswerSchema = z.looseObject({
  metafieldsSet: z
    .looseObject({
      metafields: z.array(z.looseObject({ key: z.string(), namespace: z.string(), value: z.string() })).nullish(),
      userErrors: userErrorsSchema,
    })
    .nullable(),
});

export const orderUpdateAnswerSchema = z.looseObject({
  orderUpdate: z
    .looseObject({
      order: z.looseObject({ id: z.string(), note: z.string().nullish() }).nullish(),
      userErrors: userErrorsSchema,
    })
    .nullable(),
});

export const tagsAddAnswerSchema = z.looseObject({
  tagsAdd: z.looseObject({ userErrors: userErrorsSchema }).nullable(),
});

export const refundCreateAnswerSchema = z.looseObject({
  refundCreate: z
    .looseObject({
      refund: refundSchema.nullish(),
      userErrors: userErrorsSchema,
    })
    .nullable(),
});

/**
 * One entry of a GraphQL `errors` list. Shopify puts a code in `extensions.code` (`THROTTLED`,
 * `ACCESS_DENIED`, `INTERNAL_SERVER_ERROR`, `MAX_COST_EXCEEDED`, ...).
 */
export const graphqlErrorSchema = z.looseObject({
  message: z.string(),
  extensions: z.looseObject({ code: z.string().optional() }).nullish(),
});

/** `extensions.cost` of every Admin GraphQL answer. */
export const costSchema = z.looseObject({
  requestedQueryCost: z.number().nullish(),
  actualQueryCost: z.number().nullish(),
  throttleStatus: z
    .looseObject({ maximumAvailable: z.number(), currentlyAvailable: z.number(), restoreRate: z.number() })
    .nullish(),
});
export type QueryCost = z.infer<typeof costSchema>;

/**
 * The body of an Admin GraphQL answer. `errors` is a list for GraphQL errors, but a string (or an
 * object) on the HTTP errors Shopify answers before GraphQL runs: 401 answers
 * `{"errors":"[API] Invalid API key or access token (unrecognized login or wrong password)"}`.
 */
export const graphqlAnswerSchema = z.looseObject({
  data: z.unknown().optional(),
  errors: z.union([z.array(graphqlErrorSchema), z.string(), z.record(z.string(), z.unknown())]).optional(),
  extensions: z.looseObject({ cost: costSchema.optional() }).nullish(),
});

/** The financial statuses of an order that has been paid (money received, possibly refunded since). */
const PAID_STATUSES = new Set(['PAID', 'PARTIALLY_REFUNDED', 'REFUNDED']);

/**
 * Whether Shopify considers the order paid, from `displayFinancialStatus`:
 * PAID, PARTIALLY_REFUNDED and REFUNDED are paid (the order was paid in full, refunds came after, as
 * WooCommerce keeps `date_paid` after a refund); PENDING, AUTHORIZED, PARTIALLY_PAID, EXPIRED, VOIDED,
 * null and any value a later version adds are not.
 */
export function isPaidStatus(status: string | null | undefined): boolean {
  return status !== null && status !== undefined && PAID_STATUSES.has(status);
}
