/** `gateway --version`: the product's version (gateway/runtime/version.ts), as `gateway 0.1.0`. */
import { productVersion } from '../runtime/version.js';

export function gatewayVersion(): string {
  const version = productVersion();
  return version === 'unknown' ? 'gateway (version unknown)' : `gateway ${version}`;
}
