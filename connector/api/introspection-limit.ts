/**
 * A cap on how often one client address may make the connector ask the gateway about a connect token
 * it does not know. Without it, anyone could send bad tokens through the connector until the gateway's
 * per-address limit on failed authentications blocked the connector itself, and every store with it.
 * Windows are fixed minutes of the process's monotonic clock; the state is per instance, which is
 * enough to keep each instance far below the gateway's limit.
 */
import { performance } from 'node:perf_hooks';
import { ConnectorError } from '../errors.js';

export const INTROSPECTIONS_PER_MINUTE = 20;
const WINDOW_MS = 60_000;
const MAX_ADDRESSES = 10_000;

export function createIntrospectionLimit(perMinute = INTROSPECTIONS_PER_MINUTE, now = () => performance.now()) {
  const windows = new Map<string, { start: number; count: number }>();
  return function admit(address: string): void {
    const at = now();
    let window = windows.get(address);
    if (window === undefined || at - window.start >= WINDOW_MS) {
      if (windows.size >= MAX_ADDRESSES) {
        for (const [key, value] of windows) if (at - value.start >= WINDOW_MS) windows.delete(key);
        if (windows.size >= MAX_ADDRESSES) windows.clear();
      }
      window = { start: at, count: 0 };
      windows.set(address, window);
    }
    window.count += 1;
    if (window.count > perMinute) {
      const retry = Math.max(1, Math.ceil((window.start + WINDOW_MS - at) / 1000));
      throw new ConnectorError(
        429,
        'too_many_attempts',
        `Too many unknown connect tokens from this address. Retry in ${retry} seconds.`,
        {
          retry_after: retry,
        },
      );
    }
  };
}
