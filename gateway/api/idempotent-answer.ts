/**
 * The answer of a create endpoint that runs under an `Idempotency-Key` (payments, purchases,
 * receipts): the stored status, or 200 with `Idempotent-Replayed: true` when a retry answered the
 * original; never cached.
 */
import type { StoredResponse } from '../payments/idempotency.js';
import type { GatewayContext } from './context.js';

export function sendIdempotent(ctx: GatewayContext, result: StoredResponse & { readonly replayed: boolean }): void {
  ctx.status = result.replayed ? 200 : result.status;
  if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
  ctx.set('Cache-Control', 'no-store');
  ctx.body = result.body;
}
