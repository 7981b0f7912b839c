/**
 * Whether the gateway will ever deliver to a webhook target given with a payment (`callback_url`):
 * not when its host names a private place without any lookup (`localhost`, a loopback or private IP
 * literal, see gateway/outbound/private-addresses.ts), unless `GATEWAY_ALLOW_PRIVATE_WEBHOOKS=1`
 * (development only) lets deliveries reach such places. A name that resolves to a private address
 * is still refused when a delivery connects.
 */
import { privateHostReason } from '../outbound/private-addresses.js';

/** Why webhooks would never reach `url`, as a field message, or null when they may. */
export function undeliverableTargetReason(url: string, allowPrivate: boolean): string | null {
  if (allowPrivate) return null;
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return null;
  }
  const why = privateHostReason(host);
  if (why === null) return null;
  return `points to a private address (${why}), where webhooks are never delivered; receive test webhooks on this machine with bin/gateway listen --forward-to URL (or start the gateway with GATEWAY_ALLOW_PRIVATE_WEBHOOKS=1, development only)`;
}
