/**
 * The app's settings as the embedded page reads and saves them (docs/shopify.md "Embedded app API"):
 * the way buyers pay (the manual-payment bridge or the payments app), the manual method's name, test
 * mode, and the store connection the connect token registers for the shop.
 */
import { z } from 'zod';
import { registerConnection } from '../../../connector/connections/connection.service.js';
import { connectTokenOf, credentialsOf } from '../../../connector/connections/connection-access.js';
import { type ConnectionDescription, describeConnection } from '../../../connector/connections/describe.js';
import { checkConnectionToken, introspectToken } from '../../../connector/connections/plugin-auth.js';
import { ConnectorError } from '../../../connector/errors.js';
import type { ConnectorDeps } from '../../../connector/runtime/deps.js';
import { findPaymentsConfiguration } from '../../../connector/storage/shopify-payments-configuration.repository.js';
import { findShopifyShop, linkShopConnection } from '../../../connector/storage/shopify-shop.repository.js';
import { toStoredInstant } from '../../../gateway/domain/clock.js';
import { shopifyCredentialsOf } from '../driver.js';
import {
  configurePaymentsApp,
  externalHandleOf,
  type PaymentsAppStatus,
  statusOf,
} from '../payments-app/configuration.js';
import type { ShopifyRuntime } from '../runtime.js';
import { connectionOfShop, installedShop } from './installed-shop.js';

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
