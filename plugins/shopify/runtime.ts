/**
 * The Shopify app as the connector holds it: the library instance, its session storage and the
 * offline sessions the connector acts with. Built once at start when Shopify is configured.
 */
import type { Logger } from 'pino';
import type { ShopifyConfig } from '../../connector/config.js';
import { ConnectorError } from '../../connector/errors.js';
import type { ConnectorDb } from '../../connector/storage/database.js';
import type { Clock } from '../../gateway/domain/clock.js';
import { DAY_MS } from '../../gateway/domain/clock.js';
import type { Sealer } from '../../gateway/runtime/sealing.js';
import { versionNotice } from './api-versions.js';
import { createShopifyApp, type ShopifyApp } from './app.js';
import { createOfflineSessions, type OfflineSessions, ShopifySessionStorage } from './session-storage.js';

export interface ShopifyRuntime {
  readonly app: ShopifyApp;
  readonly sessions: ShopifySessionStorage;
  readonly offline: OfflineSessions;
  /**
   * Logs a warning when the configured API version has less than a quarter of Shopify's support left
   * (an error once it has none); at most once a day. Called at start and by the due work.
   */
  checkApiVersion(): void;
}

export function createShopifyRuntime(options: {
  config: ShopifyConfig;
  publicUrl: string;
  db: ConnectorDb;
  sealer: Sealer;
  clock: Clock;
  logger: Logger;
  fetch?: typeof fetch;
}): ShopifyRuntime {
  const { db, sealer, clock, logger } = options;
  const app = createShopifyApp({
    config: options.config,
    publicUrl: options.publicUrl,
    clock,
    logger,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const sessionDeps = { db, sealer, clock, logger };
  const sessions = new ShopifySessionStorage(sessionDeps);
  let lastNoticeDay: number | undefined;
  return {
    app,
    sessions,
    offline: createOfflineSessions(sessionDeps, app, sessions),
    checkApiVersion() {
      const nowMs = clock.nowMs();
      const day = Math.floor(nowMs / DAY_MS);
      if (day === lastNoticeDay) return;
      const version = options.config.apiVersion;
      const notice = versionNotice(version, nowMs);
      if (notice === null) return;
      lastNoticeDay = day;
      const { level, message, ...fields } = notice;
      logger[level]({ api_version: version, ...fields }, message);
    },
  };
}

/** The connector's Shopify app; a route of it answers 404 when Shopify is not configured. */
export function configuredShopify(deps: { readonly shopify?: ShopifyRuntime }): ShopifyRuntime {
  if (deps.shopify === undefined) throw new ConnectorError(404, 'not_found', 'The Shopify app is not configured.');
  return deps.shopify;
}
