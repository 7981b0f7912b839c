/**
 * The platforms the connector can serve, by slug: the one place that names each platform's driver
 * (the contract is ./driver.ts).
 */
import { shopifyDriver } from '../../plugins/shopify/driver.js';
import { wooCommerceDriver } from '../../plugins/woocommerce/driver.js';
import type { PlatformDriver } from './driver.js';

const DRIVERS: ReadonlyMap<string, PlatformDriver> = new Map([
  [wooCommerceDriver.slug, wooCommerceDriver],
  [shopifyDriver.slug, shopifyDriver],
]);

export function platformDriver(slug: string): PlatformDriver | undefined {
  return DRIVERS.get(slug);
}
