/**
 * The groups of the API reference: each operation of `operations.ts` names one, and the document
 * lists them, in this order, with these descriptions.
 */
export const TAGS = {
  Payments: 'Create a payment, send the buyer to its `checkout_url`, then read, cancel or settle it.',
  Webhooks: "A payment's events with every delivery of their webhooks, and resending one.",
  Refunds: 'Refund a paid payment in whole or in parts, and list its refunds.',
  'Payment links': 'Links to a payment page of the hosted domain, to share where there is no shop.',
  Billing:
    'What the service charges: units of two counters (transactions, receipts), their balances and ledger, and buying more.',
  Receipts: 'Fiscal receipts: those of payments, and receipts of sales not paid through the service.',
  'Connect tokens': 'What the token of a platform plugin (WooCommerce, Shopify) is bound to.',
  'Test helpers': 'Drive sandbox payments and the test clock from automated tests (test keys only).',
  Service: 'The health of the service, and this document.',
  Customers: 'The buyers of the account, gathered from their payments.',
} as const;

export type Tag = keyof typeof TAGS;
