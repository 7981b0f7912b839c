/**
 * The payments app's sessions the merchant should look at (docs/shopify.md "Embedded app API"):
 * those flagged `refund_needed` (a second paid session of one checkout, money to give back at the
 * gateway), or `unconfirmed` (decisions Shopify has not taken after a few calls, or never took).
 */
import { z } from 'zod';
import type { ConnectorDeps } from '../../../connector/runtime/deps.js';
import {
  flaggedPaymentSessions,
  unconfirmedPaymentSessions,
} from '../../../connector/storage/shopify-payment-session.repository.js';
import type { Resolution } from '../payments-app/payment-sessions.js';
import { ALERT_AFTER_ATTEMPTS } from '../payments-app/queue.js';
import { installedShop } from './installed-shop.js';

/**
 * `GET /shopify/api/payment-sessions?flag=refund_needed&limit=20`: `refund_needed` (the only flag a
 * session gets), or `unconfirmed`: decisions Shopify has not taken after a few calls, or never took.
 */
export const paymentSessionsQuerySchema = z.object({
  flag: z.enum(['refund_needed', 'unconfirmed']),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
export type PaymentSessionsQuery = z.output<typeof paymentSessionsQuerySchema>;

export interface FlaggedSessionResponse {
  id: string;
  payment_group: string;
  amount: string;
  currency: string;
  test: boolean;
  gateway_payment_uuid: string | null;
  state: string;
  flag: string | null;
  /** The reject message sent to Shopify (names the session paid first), or null. */
  message: string | null;
  /** The decision: `resolve` (paid), `reject`, or null before one. */
  decision: 'resolve' | 'reject' | null;
  /** Calls to Shopify for the decision so far, and the last one's error. */
  attempts: number;
  last_error: string | null;
  decided_at: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * `GET /shopify/api/payment-sessions`: the payments app's sessions of this shop carrying the flag
 * (`refund_needed`: a second paid session of one checkout, money to give back at the gateway).
 */
export async function flaggedSessions(
  deps: ConnectorDeps,
  shop: string,
  query: PaymentSessionsQuery,
): Promise<FlaggedSessionResponse[]> {
  await installedShop(deps, shop);
  const rows =
    query.flag === 'unconfirmed'
      ? await unconfirmedPaymentSessions(deps.db, { shop }, ALERT_AFTER_ATTEMPTS, query.limit)
      : await flaggedPaymentSessions(deps.db, shop, query.flag, query.limit);
  return rows.map((row) => {
    const resolution = row.resolution === null ? null : (JSON.parse(row.resolution) as Resolution);
    return {
      id: row.id,
      payment_group: row.payment_group,
      amount: row.amount,
      currency: row.currency,
      test: row.test === 1,
      gateway_payment_uuid: row.gateway_payment_uuid,
      state: row.state,
      flag: row.flag,
      message: resolution?.action === 'reject' ? resolution.message : null,
      decision: resolution?.action ?? null,
      attempts: row.attempts,
      last_error: row.last_error,
      decided_at: row.decided_at,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  });
}
