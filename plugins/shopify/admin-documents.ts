/**
 * The Admin GraphQL documents the Shopify driver (admin-platform.ts) sends, by operation name, and
 * which of them a shop's API version takes; the shapes of their answers are admin-wire.ts.
 */

/** Where the gateway payment uuid is kept on the order. */
export const PAYMENT_UUID_NAMESPACE = 'gateway';
export const PAYMENT_UUID_KEY = 'payment_uuid';

/** Refunds and transactions read per order when recording a refund (an order has a handful). */
const ORDER_LIST_LIMIT = 100;

const ORDER_FIELDS = `
  id
  legacyResourceId
  name
  createdAt
  displayFinancialStatus
  paymentGatewayNames
  totalPriceSet { shopMoney { amount currencyCode } }
  totalRefundedSet { shopMoney { amount currencyCode } }
  email
  customer { firstName lastName }
  note
  tags
  paymentUuid: metafield(namespace: "${PAYMENT_UUID_NAMESPACE}", key: "${PAYMENT_UUID_KEY}") { value }
`;

const REFUND_SELECTION = '{ refund { id legacyResourceId note } userErrors { field message } }';
/**
 * Every GraphQL document the driver sends, by operation name. Exported so that the tests validate each
 * one against Shopify's published Admin schema of every supported API version
 * (test/plugins/shopify/graphql-documents.test.ts); `RecordGatewayRefundIdempotent` is sent instead of
 * `RecordGatewayRefund` from API 2026-01 (see {@link refundNeedsIdempotencyKey}).
 */
export const ADMIN_DOCUMENTS = {
  ShopAccess: 'query ShopAccess { shop { name } }',
  OrderForConnector: `query OrderForConnector($id: ID!) { order(id: $id) { ${ORDER_FIELDS} } }`,
  OrdersForConnector: `query OrdersForConnector($first: Int!, $after: String, $query: String!) {
  orders(first: $first, after: $after, query: $query, sortKey: CREATED_AT) {
    nodes { ${ORDER_FIELDS} }
    pageInfo { hasNextPage endCursor }
  }
}`,
  SetGatewayPaymentUuid: `mutation SetGatewayPaymentUuid($metafields: [MetafieldsSetInput!]!) {
  metafieldsSet(metafields: $metafields) { metafields { key namespace value } userErrors { field message code } }
}`,
  MarkOrderPaid: `mutation MarkOrderPaid($input: OrderMarkAsPaidInput!) {
  orderMarkAsPaid(input: $input) { order { id displayFinancialStatus } userErrors { field message } }
}`,
  UpdateOrderNote: `mutation UpdateOrderNote($input: OrderInput!) {
  orderUpdate(input: $input) { order { id note } userErrors { field message } }
}`,
  OrderRefundsForConnector: `query OrderRefundsForConnector($id: ID!) {
  order(id: $id) {
    ${ORDER_FIELDS}
    transactions(first: ${ORDER_LIST_LIMIT}) {
      id kind status gateway manualPaymentGateway amountSet { shopMoney { amount currencyCode } }
    }
    refunds(first: ${ORDER_LIST_LIMIT}) { id legacyResourceId note }
  }
}`,
  RecordGatewayRefund: `mutation RecordGatewayRefund($input: RefundInput!) {
  refundCreate(input: $input) ${REFUND_SELECTION}
}`,
  RecordGatewayRefundIdempotent: `mutation RecordGatewayRefund($input: RefundInput!, $idempotencyKey: String!) {
  refundCreate(input: $input) @idempotent(key: $idempotencyKey) ${REFUND_SELECTION}
}`,
  TagOrder: `mutation TagOrder($id: ID!, $tags: [String!]!) {
  tagsAdd(id: $id, tags: $tags) { userErrors { field message } }
}`,
} as const;

/**
 * `@idempotent(key:)` exists on refundCreate from 2026-01 and is required from 2026-04
 * (shopify.dev changelog "Making idempotency mandatory for inventory adjustments and refund
 * mutations"); an older version refuses the unknown directive, so it is sent from 2026-01 on.
 * `apiVersion` is the version Shopify executes the call with: the one it answered the order read
 * with (`X-Shopify-API-Version`), which is not the one asked for when that one is out of support.
 */
export function refundNeedsIdempotencyKey(apiVersion: string): boolean {
  return apiVersion === 'unstable' || apiVersion >= '2026-01';
}

/** The documents the driver sends to a shop whose Admin API answers with `servedVersion`. */
export function adminDocumentsServedAt(servedVersion: string): Record<string, string> {
  const { RecordGatewayRefund, RecordGatewayRefundIdempotent, ...always } = ADMIN_DOCUMENTS;
  return refundNeedsIdempotencyKey(servedVersion)
    ? { ...always, RecordGatewayRefundIdempotent }
    : { ...always, RecordGatewayRefund };
}
