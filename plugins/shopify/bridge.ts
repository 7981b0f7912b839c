/**
 * The manual-payment bridge (way 2, docs/shopify.md "Manual payment bridge"): a shop owner adds a
 * manual payment method and names it in the app's settings; the connector turns Shopify's order
 * webhooks into the connector's own order flow, the same one WooCommerce uses.
 *
 * - `orders/create`: an unpaid AMD order of that method gets a gateway payment through `payForOrder`
 *   (the webhook body is the order snapshot: no Admin call to read it), with the order status page as
 *   return and cancel URL. The checkout link goes on the order as the metafield
 *   `gateway.checkout_url` (for the order status page and the notification email) and in a note.
 * - Paid: the gateway's webhook goes through the connector's consumer, which marks the order paid
 *   once (`orderMarkAsPaid` with a note naming the payment uuid and rrn); polling and reconciliation
 *   catch a lost webhook. Nothing Shopify-specific happens there.
 * - `refunds/create`: a refund the shop owner made in the Shopify admin is refunded at the gateway
 *   through `refundFromStore`, idempotent on the Shopify refund id. A refund the connector itself
 *   recorded in Shopify (made at the gateway first) is recognised and never refunded again.
 */
import { credentialsOf } from '../../connector/connections/connection-access.js';
import { ConnectorError, errorDetail } from '../../connector/errors.js';
import { payForOrder } from '../../connector/orders/order.service.js';
import { type OrderSnapshot, wholeAmountOf } from '../../connector/orders/order-snapshot.js';
import { refundFromStore } from '../../connector/refunds/refund.service.js';
import type { ConnectorDeps } from '../../connector/runtime/deps.js';
import { findConnection, type StoreConnection } from '../../connector/storage/connection.repository.js';
import { connectionEnded } from '../../connector/storage/connection.table.js';
import { findLink } from '../../connector/storage/order-link.repository.js';
import { refundsOfLink } from '../../connector/storage/refund-record.repository.js';
import { findShopifyShop } from '../../connector/storage/shopify-shop.repository.js';
import type { ShopifyAdminPlatform } from './admin-platform.js';
import type { ShopifyDelivery } from './delivery.js';
import { asShopifyPlatform, type ShopifyCredentials, shopifyCredentialsOf } from './driver.js';
import type { ShopifyRuntime } from './runtime.js';

/** The text `recordRefund` puts in the note of a Shopify refund that mirrors a gateway refund. */
const GATEWAY_REFUND_MARKER = /gateway refund [0-9a-f-]{36}/i;

interface BridgeShop {
  connection: StoreConnection;
  settings: ShopifyCredentials;
}

/** The shop's connection when it is on the manual bridge; null (logged) otherwise. */
async function bridgeOf(deps: ConnectorDeps, delivery: ShopifyDelivery): Promise<BridgeShop | null> {
  const row = await findShopifyShop(deps.db, delivery.shop);
  const connection = row?.connection_id ? await findConnection(deps.db, row.connection_id) : undefined;
  if (row?.status !== 'installed' || connection === undefined || connectionEnded(connection.status)) {
    deps.logger.info({ shop: delivery.shop, topic: delivery.topic }, 'Shopify order webhook ignored: no connection');
    return null;
  }
  const credentials = credentialsOf(deps, connection);
  if (credentials === null) return null;
  const settings = shopifyCredentialsOf(credentials);
  if (settings.way !== 'manual_bridge' || settings.manual_method_name.trim() === '') {
    deps.logger.info({ shop: delivery.shop, topic: delivery.topic }, 'Shopify order webhook ignored: not the bridge');
    return null;
  }
  return { connection, settings };
}

function adminOf(deps: ConnectorDeps, bridge: BridgeShop): ShopifyAdminPlatform {
  const credentials = credentialsOf(deps, bridge.connection) ?? {};
  const store = asShopifyPlatform(deps.openPlatform('shopify', bridge.connection.store_url, credentials));
  if (store === null) throw new Error('the shopify driver did not open an Admin platform');
  return store;
}

function text(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return null;
}

/** The parts of Shopify's order webhook body (REST Order resource) the bridge reads. */
interface OrderWebhook {
  id: string;
  number: string;
  financialStatus: string;
  currency: string;
  total: string;
  gatewayNames: string[];
  createdAt: string;
  email: string | null;
  customerName: string | null;
  statusUrl: string | null;
}

export function parseOrderWebhook(payload: unknown): OrderWebhook | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const body = payload as Record<string, unknown>;
  const id = text(body.id);
  const total = text(body.total_price);
  const currency = text(body.currency);
  const createdAt = text(body.created_at);
  if (id === null || !/^[1-9]\d{0,18}$/.test(id) || total === null || currency === null || createdAt === null) {
    return null;
  }
  const customer = (typeof body.customer === 'object' && body.customer !== null ? body.customer : {}) as Record<
    string,
    unknown
  >;
  const name = [text(customer.first_name), text(customer.last_name)]
    .map((part) => part?.trim() ?? '')
    .filter((part) => part !== '')
    .join(' ');
  const names = Array.isArray(body.payment_gateway_names) ? body.payment_gateway_names : [];
  return {
    id,
    number: (text(body.name) ?? text(body.order_number) ?? id).replace(/^#/, ''),
    financialStatus: text(body.financial_status) ?? '',
    currency: currency.toUpperCase(),
    total,
    gatewayNames: names.filter((entry): entry is string => typeof entry === 'string'),
    createdAt,
    email: text(body.email)?.trim() || text(body.contact_email)?.trim() || null,
    customerName: name === '' ? null : name,
    statusUrl: text(body.order_status_url),
  };
}

/** `orders/create`: a gateway payment for an unpaid AMD order of the shop's manual method. */
/**
 * The order status page on the shop's `<name>.myshopify.com` domain. Shopify writes
 * `order_status_url` on the shop's primary domain (a custom domain once the shop has one), which a
 * live connect token, bound to the myshopify domain, does not accept as a return URL; the same path
 * on the myshopify domain leads there, since Shopify redirects storefront requests to the primary
 * domain.
 */
export function onShopDomain(statusUrl: string, shop: string): string {
  const url = new URL(statusUrl);
  url.host = shop;
  return url.href;
}

export async function ordersCreate(deps: ConnectorDeps, _shopify: ShopifyRuntime, delivery: ShopifyDelivery) {
  const bridge = await bridgeOf(deps, delivery);
  if (bridge === null) return;
  const order = parseOrderWebhook(delivery.payload);
  const log = { shop: delivery.shop, connection_id: bridge.connection.id, order: order?.id ?? null };
  if (order === null) {
    deps.logger.warn(log, 'orders/create ignored: the body is not an order');
    return;
  }
  const method = bridge.settings.manual_method_name.trim();
  if (!order.gatewayNames.includes(method)) {
    deps.logger.info(log, 'orders/create ignored: another payment method');
    return;
  }
  if (order.financialStatus !== 'pending') {
    deps.logger.info({ ...log, financial_status: order.financialStatus }, 'orders/create ignored: not unpaid');
    return;
  }
  if (order.currency !== 'AMD') {
    deps.logger.info({ ...log, currency: order.currency }, 'orders/create ignored: not in AMD');
    return;
  }
  const admin = adminOf(deps, bridge);
  if (wholeAmountOf(order.total) === null) {
    deps.logger.info({ ...log, total: order.total }, 'orders/create ignored: fractional AMD total');
    await admin.addNote(
      order.id,
      `The payment gateway takes whole AMD; this order's total ${order.total} AMD has a fractional part, so no payment link was made. Ask the buyer to pay another way.`,
    );
    return;
  }
  if (order.statusUrl === null || !/^https:\/\//.test(order.statusUrl)) {
    deps.logger.warn(log, 'orders/create ignored: no order_status_url');
    return;
  }
  const snapshot: OrderSnapshot = {
    number: order.number,
    total: order.total,
    currency: order.currency,
    status: order.financialStatus,
    created_at: order.createdAt,
    customer_email: order.email,
    customer_name: order.customerName,
    payment_method: method,
  };
  const statusPage = onShopDomain(order.statusUrl, delivery.shop);
  let result: Awaited<ReturnType<typeof payForOrder>>;
  try {
    result = await payForOrder(deps, bridge.connection, order.id, {
      return_url: statusPage,
      cancel_url: statusPage,
      order: snapshot,
    });
  } catch (error) {
    if (error instanceof ConnectorError && error.status < 500 && error.code !== 'store_unauthorized') {
      deps.logger.info({ ...log, error: error.code }, 'orders/create: no payment made');
      return;
    }
    throw error;
  }
  const payment = result.body;
  // A repeated delivery answers the open payment (200): the metafield is set again, harmlessly.
  await admin.setCheckoutUrl(order.id, payment.checkout_url);
  if (result.status === 201) {
    await admin.addNote(order.id, `Pay by card: ${payment.checkout_url} (gateway payment ${payment.payment_uuid}).`);
  }
  deps.logger.info({ ...log, payment_uuid: payment.payment_uuid, created: result.status === 201 }, 'bridge payment');
}

/** The money a Shopify refund returned: successful `refund` transactions, in whole AMD (null: fractional). */
function refundedOf(body: Record<string, unknown>): { amount: number | null; text: string } {
  const transactions = Array.isArray(body.transactions) ? body.transactions : [];
  let cents = 0n;
  for (const entry of transactions) {
    if (typeof entry !== 'object' || entry === null) continue;
    const transaction = entry as Record<string, unknown>;
    if (transaction.kind !== 'refund' || transaction.status !== 'success') continue;
    const amount = text(transaction.amount) ?? '';
    const match = /^(\d{1,15})(?:\.(\d{1,2}))?$/.exec(amount);
    if (match === null) return { amount: null, text: amount };
    cents += BigInt(match[1] ?? '0') * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
  }
  const whole = cents % 100n === 0n ? Number(cents / 100n) : null;
  return { amount: whole, text: `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}` };
}

/** `refunds/create`: a refund made in the Shopify admin, refunded at the gateway once. */
export async function refundsCreate(deps: ConnectorDeps, _shopify: ShopifyRuntime, delivery: ShopifyDelivery) {
  const bridge = await bridgeOf(deps, delivery);
  if (bridge === null) return;
  if (typeof delivery.payload !== 'object' || delivery.payload === null) return;
  const body = delivery.payload as Record<string, unknown>;
  const refundId = text(body.id);
  const orderId = text(body.order_id);
  const log = { shop: delivery.shop, connection_id: bridge.connection.id, order: orderId, refund: refundId };
  if (refundId === null || orderId === null) {
    deps.logger.warn(log, 'refunds/create ignored: the body is not a refund');
    return;
  }
  if (GATEWAY_REFUND_MARKER.test(text(body.note) ?? '')) {
    deps.logger.info(log, 'refunds/create ignored: it records a refund made at the gateway');
    return;
  }
  const link = await findLink(deps.db, bridge.connection.id, orderId);
  if (link === undefined || link.paid_payment_uuid === null) {
    deps.logger.info(log, 'refunds/create ignored: the order was not paid through the gateway');
    return;
  }
  if ((await refundsOfLink(deps.db, link.id)).some((r) => r.origin === 'gateway' && r.store_refund_id === refundId)) {
    deps.logger.info(log, 'refunds/create ignored: it records a refund made at the gateway');
    return;
  }
  const refunded = refundedOf(body);
  if (refunded.amount === null) {
    await adminOf(deps, bridge).addNote(
      orderId,
      `Refund ${refundId} of ${refunded.text} AMD was not sent to the payment gateway: it refunds whole AMD only. Refund the buyer from the gateway dashboard.`,
    );
    deps.logger.info(log, 'refunds/create ignored: fractional AMD');
    return;
  }
  if (refunded.amount === 0) {
    deps.logger.info(log, 'refunds/create ignored: no money refunded (restock or note only)');
    return;
  }
  try {
    const result = await refundFromStore(deps, bridge.connection, orderId, {
      amount: refunded.amount,
      store_refund_id: refundId,
      ...(text(body.note)?.trim() ? { reason: (text(body.note) ?? '').trim() } : {}),
    });
    if (result.status === 202) {
      // Sent, outcome not known yet: the connector settles it and notes the order if it failed.
      await adminOf(deps, bridge).addNote(
        orderId,
        `Refund ${refundId} of ${refunded.amount} AMD was sent to the payment gateway; the payment processor has not confirmed it yet. This order gets a note if it does not go through.`,
      );
      deps.logger.info({ ...log, amount: result.body.amount }, 'refund sent to the gateway, outcome pending');
      return;
    }
    deps.logger.info(
      { ...log, refund_uuid: result.body.refund_uuid, amount: result.body.amount },
      'refunded at the gateway',
    );
  } catch (error) {
    if (error instanceof ConnectorError && error.status < 500 && error.status !== 409) {
      // Refused by the gateway (more than was paid, ...): told to the shop owner, not retried.
      await adminOf(deps, bridge).addNote(
        orderId,
        `Refund ${refundId} of ${refunded.amount} AMD was refused by the payment gateway (${error.code}); the buyer was not refunded there.`,
      );
      deps.logger.warn({ ...log, error: error.code }, 'refunds/create refused by the gateway');
      return;
    }
    deps.logger.warn({ ...log, err: errorDetail(error) }, 'refunds/create not handled yet');
    throw error;
  }
}
