/**
 * The embedded page's list of recent orders (docs/shopify.md "Embedded app API"): the latest orders
 * in the map, each read back from the gateway with its refunds.
 */
import { z } from 'zod';
import { gatewayOf } from '../../../connector/connections/connection-access.js';
import { gatewayCall } from '../../../connector/orders/calls.js';
import type { ConnectorDeps } from '../../../connector/runtime/deps.js';
import { recentLinksOfConnection } from '../../../connector/storage/order-link.repository.js';
import { shopConnection } from './installed-shop.js';

export const ordersQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(50).default(20) });

export interface OrderStateResponse {
  order_id: string;
  gateway_order_id: string;
  created_at: string;
  amount: number;
  currency: string;
  paid: boolean;
  store_sync: string;
  flag: string | null;
  payment: {
    uuid: string;
    status: string;
    rrn: string | null;
    amount: number;
    refunded_amount: number;
    refunds: { uuid: string; amount: number; status: string; reason: string | null; created_at: string }[];
  } | null;
}

/** `GET /shopify/api/orders`: the latest orders in the map, each read back from the gateway. */
export async function recentOrders(deps: ConnectorDeps, shop: string, limit: number): Promise<OrderStateResponse[]> {
  const connection = await shopConnection(deps, shop);
  const gateway = gatewayOf(deps, connection);
  const links = await recentLinksOfConnection(deps.db, connection.id, limit);
  const answers: OrderStateResponse[] = [];
  for (const link of links) {
    const payment = await gatewayCall(() => gateway.getOrderPayment(link.gateway_order_id));
    const refunds = payment === null ? [] : await gatewayCall(() => gateway.listRefunds(payment.uuid));
    answers.push({
      order_id: link.store_order_id,
      gateway_order_id: link.gateway_order_id,
      created_at: link.created_at,
      amount: link.amount,
      currency: link.currency,
      paid: link.paid_payment_uuid !== null,
      store_sync: link.store_sync,
      flag: link.flag,
      payment:
        payment === null
          ? null
          : {
              uuid: payment.uuid,
              status: payment.status,
              rrn: payment.rrn,
              amount: payment.amount,
              refunded_amount: payment.refunded_amount,
              refunds: refunds.map((r) => ({
                uuid: r.uuid,
                amount: r.amount,
                status: r.status,
                reason: r.reason,
                created_at: r.created_at,
              })),
            },
    });
  }
  return answers;
}
