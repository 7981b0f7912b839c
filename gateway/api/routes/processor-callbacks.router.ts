/**
 * Where processors reach the gateway (docs/processors.md):
 *
 * - `GET|POST /processors/:slug/callback`: the processor's server (Idram's RESULT_URL, Telcell's
 *   result, FastShift's webhook). The body is read raw (signatures are computed over it), at most
 *   64 KiB, and handed to the processor's callback handler, which decides what it proves; the
 *   answer is exactly what that processor expects.
 * - `GET|POST /processors/:slug/return`: the buyer's browser, for processors whose return address
 *   is fixed per merchant rather than per payment (Idram's SUCCESS_URL and FAIL_URL): sent on to
 *   the payment's own return page, which reads the status back.
 *
 * Neither needs an API key: what they carry is verified by the processor's adapter or read back.
 */
import { Router } from '@koa/router';
import { ApiError } from '../../domain/errors.js';
import { handleProcessorCallback, paymentOfReturn } from '../../payments/processor-callbacks.js';
import type { CallbackRequest } from '../../processors/processor.js';
import type { Deps } from '../../runtime/deps.js';
import type { GatewayContext, GatewayState } from '../context.js';
import { isJsonType, readLimited } from '../middleware/json-body.js';

/** Processors' callbacks are a few form fields or a small JSON object. */
export const CALLBACK_BODY_LIMIT_BYTES = 64 * 1024;

async function callbackRequest(ctx: GatewayContext): Promise<CallbackRequest> {
  const raw = await readLimited(ctx, CALLBACK_BODY_LIMIT_BYTES);
  const type = ctx.get('Content-Type').split(';')[0]?.trim().toLowerCase() ?? '';
  const text = raw.toString('utf8');
  let json: unknown;
  if (isJsonType(type) && text.trim() !== '') {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(ctx.headers)) {
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return {
    method: ctx.method,
    query: new URLSearchParams(ctx.querystring),
    form: type === 'application/x-www-form-urlencoded' ? new URLSearchParams(text) : new URLSearchParams(),
    json,
    rawBody: raw,
    headers,
  };
}

export function processorCallbacksRouter(deps: Deps): Router<GatewayState> {
  const router = new Router<GatewayState>();
  const publicUrl = deps.config.publicUrl;

  const callback = async (ctx: GatewayContext) => {
    const slug = ctx.params.slug ?? '';
    const answer = await handleProcessorCallback(deps, slug, await callbackRequest(ctx));
    if (answer === undefined) throw new ApiError('not_found', 'No processor calls back at this address.');
    ctx.status = answer.status;
    ctx.type = answer.contentType;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = answer.body;
  };
  router.get('/processors/:slug/callback', callback);
  router.post('/processors/:slug/callback', callback);

  const back = async (ctx: GatewayContext) => {
    const payment = await paymentOfReturn(deps, ctx.params.slug ?? '', await callbackRequest(ctx));
    if (payment === undefined) throw new ApiError('not_found', 'This return address names no payment.');
    ctx.status = 303;
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(`${publicUrl}/checkout/${encodeURIComponent(payment.checkoutToken)}/return`);
  };
  router.get('/processors/:slug/return', back);
  router.post('/processors/:slug/return', back);

  return router;
}
