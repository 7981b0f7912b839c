/**
 * The Shopify app as the connector holds it: the library instance, its session storage and the
 * offline sessions the connector acts with. Built once at start when Shopify is configured.
 */
import type { Logger } from 'pino';
import type { ShopifyConfig } from '../../connector/config.js';
import type { ConnectorDb } from '../../connector/storage/database.js';
import type { Clock } from '../../gateway/domain/clock.js';
import type { Sealer } from '../../gateway/runtime/sealing.js';
import { createShopifyApp, type ShopifyApp } from './app.js';
import { createOfflineSessions, type OfflineSessions, ShopifySessionStorage } from './session-storage.js';

export interface ShopifyRuntime {
  readonly app: ShopifyApp;
  readonly sessions: ShopifySessionStorage;
  readonly offline: OfflineSessions;
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
  return { app, sessions, offline: createOfflineSessions(sessionDeps, app, sessions) };
}
