/**
 * The store order's routes (docs/connector.md, "Plugin-facing HTTP API"): paying it, reading its payment back,
 * cancelling the payment, capturing its card hold, and refunding it from the store.
 */
import { z } from 'zod';
import { requireStoreAccess } from '../../connections/connection-access.js';
import { validationFailed } from '../../errors.js';
import { cancelOrderPayment } from '../../orders/cancel-payment.js';
import { captureOrderHold } from '../../orders/capture-hold.js';
import { payForOrder, readBackOrder } from '../../orders/order.service.js';
import { deferStoreWork, type StoreWork } from '../../orders/store-work.js';
import { refundFromStore } from '../../refunds/refund.service.js';
import type { ConnectorDeps } from '../../runtime/deps.js';
import type { PluginCallers } from '../plugin-callers.js';
import { type ConnectorRouter, type Context, httpUrl, instant, parse, readJson } from '../request.js';

/** The plugin's view of the order (it runs inside the store): no store call is needed to pay it. */
const orderSnapshot = z.object({
  number: z.string().trim().min(1).max(64),
  total: z.string().regex(/^\d{1,15}(\.\d{1,8})?$/, { error: 'must be a decimal amount such as "1500.00"' }),
  currency: z.string().regex(/^[A-Za-z]{3}$/, { error: 'must be an ISO 4217 code' }),
  status: z.string().min(1).max(64),
  created_at: instant,
  customer_email: z.string().max(254).nullable().optional(),
  customer_name: z.string().max(255).nullable().optional(),
  payment_method: z.string().min(1).max(100),
});

const paymentSchema = z.object({
  return_url: httpUrl,
  cancel_url: httpUrl,
  order: orderSnapshot.optional(),
  /** `manual`: the buyer's card is only held, captured later (`POST /v1/orders/{id}/capture`). */
  capture_method: z.enum(['automatic', 'manual']).optional(),
});

const captureSchema = z.object({
  amount: z.number().int({ error: 'must be whole AMD' }).positive({ error: 'must be at least 1' }).optional(),
});

const refundSchema = z.object({
  amount: z.number().int({ error: 'must be whole AMD' }).positive({ error: 'must be at least 1' }),
  reason: z.string().max(500).optional(),
  store_refund_id: z
    .union([z.string().min(1).max(64), z.number().int().positive()])
    .transform(String)
    .optional(),
});

export function orderRoutes(router: ConnectorRouter, deps: ConnectorDeps, callers: PluginCallers): void {
  const { connection } = callers;

  router.post('/v1/orders/:order_id/payment', async (ctx) => {
    const conn = await connection(ctx);
    const body = parse(paymentSchema, await readJson(ctx));
    const result = await afterAnswer(ctx, (storeWork) => payForOrder(deps, conn, orderIdParam(ctx), body, storeWork));
    ctx.status = result.status;
    ctx.body = result.body;
  });

  router.get('/v1/orders/:order_id/payment', async (ctx) => {
    const conn = await connection(ctx);
    ctx.body = await afterAnswer(ctx, (storeWork) => readBackOrder(deps, conn, orderIdParam(ctx), storeWork));
  });

  router.post('/v1/orders/:order_id/cancel', async (ctx) => {
    const conn = await connection(ctx);
    requireStoreAccess(conn);
    ctx.body = await afterAnswer(ctx, (storeWork) => cancelOrderPayment(deps, conn, orderIdParam(ctx), storeWork));
  });

  router.post('/v1/orders/:order_id/capture', async (ctx) => {
    const conn = await connection(ctx);
    const body = parse(captureSchema, await readJson(ctx));
    const captured = await afterAnswer(ctx, (storeWork) =>
      captureOrderHold(deps, conn, orderIdParam(ctx), body, storeWork),
    );
    ctx.status = captured.status;
    ctx.body = captured.body;
  });

  router.post('/v1/orders/:order_id/refunds', async (ctx) => {
    const conn = await connection(ctx);
    const body = parse(refundSchema, await readJson(ctx));
    const refunded = await refundFromStore(deps, conn, orderIdParam(ctx), body);
    ctx.status = refunded.status;
    ctx.body = refunded.body;
  });

  /**
   * Runs a plugin-facing handler whose store calls must wait for the answer: they start once the
   * response is closed (sent or abandoned). Whatever they leave undone is on the durable retry queue.
   */
  async function afterAnswer<T>(ctx: Context, handle: (storeWork: StoreWork) => Promise<T>): Promise<T> {
    const deferred = deferStoreWork();
    const answered = new Promise<void>((resolve) => ctx.res.once('close', () => resolve()));
    const startQueued = () => {
      for (const { what, run } of deferred.queued) deps.background.start(what, () => answered.then(run));
    };
    try {
      const result = await handle(deferred.work);
      startQueued();
      return result;
    } catch (error) {
      // A refusal after store work was queued (paying an order the gateway already paid) still runs it.
      startQueued();
      throw error;
    }
  }
}

function orderIdParam(ctx: { params: Record<string, string | undefined> }): string {
  const id = ctx.params.order_id ?? '';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw validationFailed({ order_id: ['must be the store order id'] });
  return id;
}
