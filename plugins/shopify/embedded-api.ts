/**
 * The API of the app's page inside the Shopify admin (docs/shopify.md "Embedded app API"), under
 * `/shopify/api/...`. Every call carries App Bridge's session token (`Authorization: Bearer <jwt>`):
 * HS256 with the app's secret, `aud` the API key (checked by the library's `decodeSessionToken`),
 * `dest` the shop, `exp`/`nbf` checked again on the connector's clock. A refused token answers 401
 * `invalid_session_token`; the token itself is never logged or answered.
 */

import { z } from 'zod';
import { registerConnection } from '../../connector/connections/connection.service.js';
import { connectTokenOf, credentialsOf, gatewayOf } from '../../connector/connections/connection-access.js';
import { type ConnectionDescription, describeConnection } from '../../connector/connections/describe.js';
import { checkConnectionToken, introspectToken } from '../../connector/connections/plugin-auth.js';
import { ConnectorError } from '../../connector/errors.js';
import { gatewayCall } from '../../connector/orders/order.service.js';
import type { ConnectorDeps } from '../../connector/runtime/deps.js';
import { findConnection, type StoreConnection } from '../../connector/storage/connection.repository.js';
import { connectionEnded } from '../../connector/storage/database.js';
import { recentLinksOfConnection } from '../../connector/storage/order-link.repository.js';
import {
  flaggedPaymentSessions,
  unconfirmedPaymentSessions,
} from '../../connector/storage/shopify-payment-session.repository.js';
import { findPaymentsConfiguration } from '../../connector/storage/shopify-payments-configuration.repository.js';
import {
  findShopifyShop,
  linkShopConnection,
  listDataRequests,
  type ShopifyShop,
  saveGatewayVerification,
} from '../../connector/storage/shopify-shop.repository.js';
import { toStoredInstant } from '../../gateway/domain/clock.js';
import { shopifyCredentialsOf } from './driver.js';
import { shopDomainOf } from './graphql.js';
import {
  configurePaymentsApp,
  externalHandleOf,
  type PaymentsAppStatus,
  statusOf,
} from './payments-app/configuration.js';
import type { Resolution } from './payments-app/payment-sessions.js';
import { ALERT_AFTER_ATTEMPTS } from './payments-app/queue.js';
import type { ShopifyRuntime } from './runtime.js';

export const EMBEDDED_API_PATH = '/shopify/api';

export const settingsSchema = z
  .object({
    connect_token: z.string().trim().min(1).max(512).optional(),
    way: z.enum(['manual_bridge', 'payments_app']),
    manual_method_name: z.string().trim().max(255).default(''),
    test_mode: z.boolean(),
  })
  .refine((s) => s.way !== 'manual_bridge' || s.manual_method_name !== '', {
    error: 'name the manual payment method the buyers choose',
    path: ['manual_method_name'],
  });
export type SettingsInput = z.output<typeof settingsSchema>;

/** The value the gateway's dashboard shows for a domain's verification (`gateway-verification=<token>`). */
export const domainVerificationSchema = z.object({
  value: z
    .string()
    .trim()
    .regex(/^gateway-verification=[A-Za-z0-9_-]{16,128}$/, {
      error: 'paste the whole value the gateway shows, gateway-verification=…',
    })
    .nullable(),
});

export const ordersQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(50).default(20) });

/**
 * `GET /shopify/api/payment-sessions?flag=refund_needed&limit=20`: `refund_needed` (the only flag a
 * session gets), or `unconfirmed`: decisions Shopify has not taken after a few calls, or never took.
 */
export const paymentSessionsQuerySchema = z.object({
  flag: z.enum(['refund_needed', 'unconfirmed']),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
export type PaymentSessionsQuery = z.output<typeof paymentSessionsQuerySchema>;

function refused(message: string): ConnectorError {
  return new ConnectorError(401, 'invalid_session_token', message);
}

/**
 * The shop the session token was issued for, and the token; 401 for a missing, forged, expired or
 * foreign token.
 */
export async function authenticateShop(
  deps: ConnectorDeps,
  shopify: ShopifyRuntime,
  authorization: string,
): Promise<{ shop: string; sessionToken: string }> {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
  if (match === null) throw refused('Send the App Bridge session token as Authorization: Bearer <token>.');
  let payload: Awaited<ReturnType<ShopifyRuntime['app']['api']['session']['decodeSessionToken']>>;
  try {
    payload = await shopify.app.api.session.decodeSessionToken(match[1] ?? '');
  } catch {
    // The library's message quotes the token: it is not passed on.
    throw refused('The session token is not signed for this app, or it has expired.');
  }
  const nowS = deps.clock.nowMs() / 1000;
  if (
    typeof payload.exp !== 'number' ||
    payload.exp <= nowS ||
    (typeof payload.nbf === 'number' && payload.nbf > nowS + 10)
  ) {
    throw refused('The session token has expired; App Bridge fetches a new one.');
  }
  let host = '';
  try {
    host = new URL(String(payload.dest)).hostname;
  } catch {
    // refused below
  }
  const shop = shopDomainOf(host);
  if (shop === null) throw refused('The session token does not name a shop.');
  return { shop, sessionToken: match[1] ?? '' };
}

async function installedShop(deps: ConnectorDeps, shop: string): Promise<ShopifyShop> {
  const row = await findShopifyShop(deps.db, shop);
  if (row === undefined || row.status !== 'installed') {
    throw new ConnectorError(409, 'shop_not_installed', `The app is not installed on ${shop}: install it again.`);
  }
  return row;
}

async function connectionOfShop(deps: ConnectorDeps, row: ShopifyShop): Promise<StoreConnection | null> {
  if (!row.connection_id) return null;
  const connection = await findConnection(deps.db, row.connection_id);
  return connection === undefined || connectionEnded(connection.status) ? null : connection;
}

async function requireConnection(deps: ConnectorDeps, shop: string): Promise<StoreConnection> {
  const connection = await connectionOfShop(deps, await installedShop(deps, shop));
  if (connection === null) {
    throw new ConnectorError(
      404,
      'connection_not_found',
      'Connect the shop first: save the settings with a connect token.',
    );
  }
  return connection;
}

export interface SettingsResponse {
  shop: string;
  install: { status: string; installed_at: string; uninstalled_at: string | null };
  connection: ConnectionDescription | null;
  settings: { way: string; manual_method_name: string; test_mode: boolean; api_version: string } | null;
  /**
   * The payments app's configuration at Shopify (`paymentsAppConfigure`): `ready` once the settings
   * were saved with the payments app; null when it was never configured.
   */
  payments_app: PaymentsAppStatus | null;
}

/** `GET /shopify/api/settings`. */
export async function readSettings(deps: ConnectorDeps, shop: string): Promise<SettingsResponse> {
  const row = await findShopifyShop(deps.db, shop);
  if (row === undefined) throw new ConnectorError(409, 'shop_not_installed', `The app is not installed on ${shop}.`);
  const connection = await connectionOfShop(deps, row);
  const credentials = connection === null ? null : credentialsOf(deps, connection);
  const settings = credentials === null ? null : shopifyCredentialsOf(credentials);
  return {
    shop,
    install: { status: row.status, installed_at: row.installed_at, uninstalled_at: row.uninstalled_at },
    connection:
      connection === null ? null : await describeConnection(deps, await checkConnectionToken(deps, connection)),
    settings:
      settings === null
        ? null
        : {
            way: settings.way,
            manual_method_name: settings.manual_method_name,
            test_mode: settings.test_mode === '1',
            // The version the app calls Shopify with now (a connection saved earlier may name an older one).
            api_version: deps.shopify?.app.config.apiVersion ?? settings.api_version,
          },
    payments_app: statusOf(await findPaymentsConfiguration(deps.db, shop)),
  };
}

/**
 * `PUT /shopify/api/settings`: registers the connection with the connect token (a `shopify` token
 * bound to this shop's domain), `active` at once since the install granted access, and links it to
 * the shop. Without a token, the settings of the linked connection change (its stored token is used).
 */
export async function saveSettings(
  deps: ConnectorDeps,
  shopify: ShopifyRuntime,
  shop: string,
  input: SettingsInput,
): Promise<SettingsResponse> {
  const row = await installedShop(deps, shop);
  const existing = await connectionOfShop(deps, row);
  const token = input.connect_token ?? (existing === null ? undefined : connectTokenOf(deps, existing));
  if (token === undefined) {
    throw new ConnectorError(422, 'validation_failed', 'Paste the connect token from the gateway dashboard.', {
      errors: { connect_token: ['required until the shop is connected'] },
    });
  }
  // The token's account is the external handle Shopify shows the merchant (payments app).
  const info = await introspectToken(deps, token);
  const credentials = {
    shop,
    manual_method_name: input.manual_method_name,
    api_version: shopify.app.config.apiVersion,
    way: input.way,
    test_mode: input.test_mode ? '1' : '0',
  };
  const registered = await registerConnection(
    deps,
    token,
    { store_url: `https://${shop}` },
    {
      platform: 'shopify',
      credentials,
      check(info) {
        if (info.domain.toLowerCase() !== shop) {
          throw new ConnectorError(
            422,
            'connect_token_domain_mismatch',
            `This connect token is for ${info.domain}; create one for ${shop} in the gateway dashboard.`,
          );
        }
      },
    },
    info,
  );
  await linkShopConnection(deps.db, shop, registered.connection.connection_id, toStoredInstant(deps.clock.nowMs()));
  // Shopify's onboarding: the provider is ready once the payments app's settings are saved, which is
  // what lets the merchant activate it in Settings > Payments; a move to the manual bridge undoes it.
  const configured = await findPaymentsConfiguration(deps.db, shop);
  if (input.way === 'payments_app') {
    await configurePaymentsApp(deps, shopify, shop, true, externalHandleOf(info.merchant_id, info.environment));
  } else if (configured?.ready === 1) {
    await configurePaymentsApp(deps, shopify, shop, false, configured.external_handle);
  }
  deps.logger.info(
    { shop, connection_id: registered.connection.connection_id, way: input.way },
    'Shopify settings saved',
  );
  return readSettings(deps, shop);
}

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
  const connection = await requireConnection(deps, shop);
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

/** The connection the reconciliation routes act on. */
export { requireConnection as shopConnection };

/** `GET /shopify/api/data-requests`: the compliance exports for the merchant to pass on. */
export async function dataRequests(deps: ConnectorDeps, shop: string) {
  await installedShop(deps, shop);
  return (await listDataRequests(deps.db, shop)).map((row) => ({
    id: row.id,
    data_request_id: row.data_request_id,
    customer_id: row.customer_id,
    requested_at: row.requested_at,
    export: JSON.parse(row.export) as unknown,
  }));
}

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

export interface DomainVerificationResponse {
  shop: string;
  /** What the shop serves (null: nothing yet). */
  value: string | null;
  /** Where the gateway reads it: the app proxy on the shop's storefront. */
  file_url: string;
}

/** `GET /shopify/api/domain-verification`. */
export async function readDomainVerification(
  deps: ConnectorDeps,
  shopify: ShopifyRuntime,
  shop: string,
): Promise<DomainVerificationResponse> {
  const row = await installedShop(deps, shop);
  return {
    shop,
    value: row.gateway_verification,
    file_url: `https://${shop}${shopify.app.config.appProxyPath}/${VERIFICATION_FILE}`,
  };
}

/**
 * `PUT /shopify/api/domain-verification`: the value the gateway shows for this shop's domain, served
 * at {@link VERIFICATION_FILE} through the app proxy until replaced or cleared (null). Only the shop's
 * own admin can set it (session token), which is what makes the file prove the shop is theirs.
 */
export async function saveDomainVerification(
  deps: ConnectorDeps,
  shopify: ShopifyRuntime,
  shop: string,
  input: z.output<typeof domainVerificationSchema>,
): Promise<DomainVerificationResponse> {
  await installedShop(deps, shop);
  await saveGatewayVerification(deps.db, shop, input.value, toStoredInstant(deps.clock.nowMs()));
  deps.logger.info({ shop, set: input.value !== null }, 'gateway domain verification value saved');
  return readDomainVerification(deps, shopify, shop);
}

/** The file name under the app proxy path, as the gateway fetches it. */
export const VERIFICATION_FILE = 'gateway-verification.txt';

/** What the storefront serves at the file (through the app proxy), or null: 404. */
export async function servedVerification(deps: ConnectorDeps, shop: string): Promise<string | null> {
  const row = await findShopifyShop(deps.db, shop);
  if (row === undefined || row.status !== 'installed') return null;
  return row.gateway_verification;
}
