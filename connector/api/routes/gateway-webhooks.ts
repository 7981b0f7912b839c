/**
 * The gateway's webhook target of one connection (`POST /v1/webhooks/gateway/:connection_id`): the
 * raw bytes go to the consumer, which verifies, de-duplicates and reads the payment back.
 */
import type { ConnectorDeps } from '../../runtime/deps.js';
import { handleGatewayWebhook } from '../../webhooks/webhook.consumer.js';
import { type ConnectorRouter, readRaw } from '../request.js';

export function gatewayWebhookRoutes(router: ConnectorRouter, deps: ConnectorDeps): void {
  router.post('/v1/webhooks/gateway/:connection_id', async (ctx) => {
    const raw = await readRaw(ctx);
    const answer = await handleGatewayWebhook(deps, ctx.params.connection_id ?? '', raw, ctx.req.headers);
    ctx.status = answer.status;
    ctx.body = answer.body;
  });
}
