/**
 * WooCommerce as the connector sees it: the wc/v3 REST API for one store (./woocommerce-platform.ts),
 * the `/wc-auth/v1/authorize` key exchange (./key-exchange.ts), and `wc-` as the namespace of the
 * store's orders at the gateway.
 */
import type { PlatformDriver } from '../../connector/platforms/driver.js';
import { authorizeUrl, parseKeyCallback } from './key-exchange.js';
import { createWooCommercePlatform } from './woocommerce-platform.js';

/** The gateway id the WordPress plugin registers (`Armenian_Gateway::$id`). */
export const WOOCOMMERCE_GATEWAY_ID = 'armenian_gateway';

export const wooCommerceDriver: PlatformDriver = {
  slug: 'woocommerce',
  orderPrefix: 'wc',
  open(storeUrl, credentials, agents) {
    const consumerKey = credentials.consumer_key;
    const consumerSecret = credentials.consumer_secret;
    if (!consumerKey || !consumerSecret)
      throw new Error('WooCommerce credentials need consumer_key and consumer_secret');
    return createWooCommercePlatform({ storeUrl, consumerKey, consumerSecret, agents });
  },
  authorizeUrl,
  defaultReturnUrl: (storeUrl) =>
    `${storeUrl}/wp-admin/admin.php?page=wc-settings&tab=checkout&section=${WOOCOMMERCE_GATEWAY_ID}`,
  parseKeyDelivery(body) {
    const keys = parseKeyCallback(body);
    if (keys === null) return null;
    return {
      userId: keys.userId,
      credentials: { consumer_key: keys.consumerKey, consumer_secret: keys.consumerSecret },
    };
  },
};
