/**
 * The store connection's routes (docs/connector.md, "Plugin-facing HTTP API"): registering it with the connect
 * token, its health, reconnecting, manual store credentials, removal; and the platform's key
 * exchange callback (`POST /:platform/auth/callback`).
 */
import { z } from 'zod';
import { registerConnection, removeConnection } from '../../connections/connection.service.js';
import { describeConnection } from '../../connections/describe.js';
import {
  acceptManualCredentials,
  completeKeyExchange,
  reconnect,
  requireKeyExchangePlatform,
} from '../../connections/key-exchange.js';
import { ASK_GATEWAY_NOW, introspectToken, requireToken } from '../../connections/plugin-auth.js';
import type { ConnectorDeps } from '../../runtime/deps.js';
import type { PluginCallers } from '../plugin-callers.js';
import { type ConnectorRouter, httpUrl, parse, readJson } from '../request.js';

const connectionSchema = z.object({ store_url: httpUrl, return_url: httpUrl.optional() });

const credentialsSchema = z.object({
  consumer_key: z.string().regex(/^ck_[A-Za-z0-9]{1,100}$/, { error: 'must be a WooCommerce consumer key (ck_...)' }),
  consumer_secret: z
    .string()
    .regex(/^cs_[A-Za-z0-9]{1,100}$/, { error: 'must be a WooCommerce consumer secret (cs_...)' }),
});

export function connectionRoutes(router: ConnectorRouter, deps: ConnectorDeps, callers: PluginCallers): void {
  const { caller, connection } = callers;

  router.post('/v1/connections', async (ctx) => {
    // The token first: one the gateway refuses is 401 whatever the body says.
    const token = requireToken(ctx.get('X-Service-Connect') || undefined);
    const info = await introspectToken(deps, token);
    const body = parse(connectionSchema, await readJson(ctx));
    const result = await registerConnection(deps, token, body, undefined, info);
    ctx.status = result.created ? 201 : 200;
    ctx.body = result.connection;
  });

  router.get('/v1/connection', async (ctx) => {
    ctx.body = await describeConnection(deps, await caller(ctx, ASK_GATEWAY_NOW));
  });

  router.post('/v1/connection/reconnect', async (ctx) => {
    ctx.body = await reconnect(deps, await connection(ctx, ASK_GATEWAY_NOW));
  });

  router.post('/v1/connection/credentials', async (ctx) => {
    const conn = await connection(ctx, ASK_GATEWAY_NOW);
    // Before the body: a Shopify connection is told how it connects, whatever it sent.
    requireKeyExchangePlatform(conn, 'POST /v1/connection/credentials');
    const body = parse(credentialsSchema, await readJson(ctx));
    ctx.body = await acceptManualCredentials(deps, conn, body);
  });

  router.delete('/v1/connection', async (ctx) => {
    ctx.body = await removeConnection(deps, await connection(ctx, ASK_GATEWAY_NOW));
  });
}

/** The platform's key exchange callback: the store posts the keys the merchant granted. */
export function keyExchangeRoutes(router: ConnectorRouter, deps: ConnectorDeps): void {
  router.post('/:platform/auth/callback', async (ctx) => {
    await completeKeyExchange(deps, ctx.params.platform ?? '', await readJson(ctx));
    ctx.body = { received: true };
  });
}
