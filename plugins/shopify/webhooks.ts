/**
 * `POST /shopify/webhooks`: every Shopify webhook arrives here. The raw body is read before any JSON
 * parsing and checked by the library (`webhooks.validate`: base64 HMAC-SHA256 of the raw body with
 * the app's secret, constant-time compare, and the required headers). A bad or missing HMAC answers
 * 401 (what Shopify requires for the compliance topics). Then the delivery is handled once per
 * `X-Shopify-Webhook-Id` and dispatched on `X-Shopify-Topic`; a topic without a handler is
 * acknowledged. Handlers are safe to run twice (the id is recorded after the handler succeeds).
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { removeConnection } from '../../connector/connections/connection.service.js';
import type { ConnectorDeps } from '../../connector/runtime/deps.js';
import { findConnection } from '../../connector/storage/connection.repository.js';
import { connectionEnded } from '../../connector/storage/connection.table.js';
import { deleteShopifySessionsOfShop } from '../../connector/storage/shopify-session.repository.js';
import {
  findShopifyShop,
  isShopifyDeliveryHandled,
  recordShopifyDelivery,
  recordUninstall,
} from '../../connector/storage/shopify-shop.repository.js';
import { toStoredInstant } from '../../gateway/domain/clock.js';
import { ordersCreate, refundsCreate } from './bridge.js';
import { customersDataRequest, customersRedact, shopRedact } from './compliance.js';
import type { ShopifyDelivery, ShopifyTopicHandler } from './delivery.js';
import { shopDomainOf } from './graphql.js';
import type { ShopifyRuntime } from './runtime.js';

/** The topics this app handles; others are acknowledged and dropped. */
export const TOPIC_HANDLERS: Readonly<Record<string, ShopifyTopicHandler>> = {
  'app/uninstalled': appUninstalled,
  'orders/create': ordersCreate,
  'refunds/create': refundsCreate,
  'customers/data_request': customersDataRequest,
  'customers/redact': customersRedact,
  'shop/redact': shopRedact,
};

export interface WebhookAnswer {
  status: number;
  body: Record<string, unknown>;
}

export async function receiveShopifyWebhook(
  deps: ConnectorDeps,
  shopify: ShopifyRuntime,
  raw: { req: IncomingMessage; res: ServerResponse; body: Buffer },
): Promise<WebhookAnswer> {
  const rawBody = raw.body.toString('utf8');
  const check = await shopify.app.api.webhooks.validate({ rawBody, rawRequest: raw.req, rawResponse: raw.res });
  if (!check.valid) {
    if (check.reason === 'invalid_hmac' || check.reason === 'missing_hmac') {
      return {
        status: 401,
        body: { error: 'invalid_hmac', message: 'X-Shopify-Hmac-Sha256 does not sign this body with the app secret.' },
      };
    }
    const missing = 'missingHeaders' in check ? ` (${check.missingHeaders.join(', ')})` : '';
    return {
      status: 400,
      body: { error: 'invalid_webhook', message: `The webhook is incomplete: ${check.reason}${missing}.` },
    };
  }
  const shop = shopDomainOf(check.domain);
  if (shop === null) {
    return { status: 400, body: { error: 'invalid_shop', message: 'X-Shopify-Shop-Domain is not a shop domain.' } };
  }
  let payload: unknown;
  try {
    payload = JSON.parse(rawBody);
  } catch {
    return { status: 400, body: { error: 'invalid_json', message: 'The body is not valid JSON.' } };
  }
  const topic = headerValue(raw.req, 'x-shopify-topic').trim().toLowerCase();
  if (await isShopifyDeliveryHandled(deps.db, check.webhookId)) {
    return { status: 200, body: { received: true, duplicate: true } };
  }
  const handler = TOPIC_HANDLERS[topic];
  if (handler !== undefined) {
    await handler(deps, shopify, { shop, topic, webhookId: check.webhookId, apiVersion: check.apiVersion, payload });
  }
  await recordShopifyDelivery(deps.db, {
    webhook_id: check.webhookId,
    shop,
    topic,
    received_at: toStoredInstant(deps.clock.nowMs()),
  });
  return { status: 200, body: { received: true } };
}

/**
 * `app/uninstalled` (keyed on the shop domain header, not the body's `domain`, which may be a custom
 * domain): the shop is marked uninstalled, its sessions are deleted (Shopify has already revoked the
 * token), and a linked store connection ends as `uninstalled` with its connect token and credentials
 * erased. Payments at the gateway are untouched. A second delivery finds nothing left to do.
 */
export async function appUninstalled(deps: ConnectorDeps, _shopify: ShopifyRuntime, delivery: ShopifyDelivery) {
  const { shop } = delivery;
  const changed = await recordUninstall(deps.db, shop, toStoredInstant(deps.clock.nowMs()));
  const sessions = await deleteShopifySessionsOfShop(deps.db, shop);
  const row = await findShopifyShop(deps.db, shop);
  let connectionId: string | null = null;
  if (row?.connection_id) {
    const connection = await findConnection(deps.db, row.connection_id);
    if (connection !== undefined && !connectionEnded(connection.status)) {
      await removeConnection(deps, connection, 'uninstalled');
      connectionId = connection.id;
    }
  }
  deps.logger.info(
    { shop, first_delivery: changed, sessions_deleted: sessions, connection_id: connectionId },
    'Shopify app uninstalled',
  );
}

function headerValue(req: IncomingMessage, name: string): string {
  const value = req.headers[name];
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
}
