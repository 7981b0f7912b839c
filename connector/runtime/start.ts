/**
 * Starts the connector: opens and migrates its database, derives the sealing key, serves HTTP and
 * runs due work on an interval. Tests start it on port 0 with their own clock.
 */
import type { Server } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import type { Logger } from 'pino';
import type { Clock } from '../../gateway/domain/clock.js';
import { type MetricsListener, startMetricsListener } from '../../gateway/observability/metrics-endpoint.js';
import { createGuardedAgents } from '../../gateway/outbound/guarded-agents.js';
import { createBoundedServer } from '../../gateway/runtime/http-timeouts.js';
import { createLogger } from '../../gateway/runtime/logger.js';
import { createSealer, randomToken } from '../../gateway/runtime/sealing.js';
import { resolveServiceSecret, type StoredSecret } from '../../gateway/runtime/service-secret.js';
import { shopifyPlatformAccess } from '../../plugins/shopify/driver.js';
import { paymentsAppConnectionEnded } from '../../plugins/shopify/payments-app/configuration.js';
import { paymentsAppProblems } from '../../plugins/shopify/payments-app/health.js';
import { createMtlsServer } from '../../plugins/shopify/payments-app/mtls.js';
import { createShopifyRuntime } from '../../plugins/shopify/runtime.js';
import { openDatabase } from '../../storage/connect.js';
import { createConnectorApp } from '../api/app.js';
import type { ConnectorConfig } from '../config.js';
import { AcceptedTokens } from '../connections/accepted-tokens.js';
import { createGatewayClient } from '../gateway-client/client.js';
import { type DueWorkResult, runDueWork } from '../jobs/due-work.js';
import { ConnectorMetrics } from '../observability/connector-metrics.js';
import { measuredGatewayClient, measuredStore } from '../observability/measured-calls.js';
import type { PlatformAccess } from '../platforms/driver.js';
import { platformDriver } from '../platforms/registry.js';
import type { ConnectorDatabase, ConnectorDb } from '../storage/database.js';
import { migrateConnector } from '../storage/migrate.js';
import { createBackgroundTasks } from './background.js';
import type { ConnectorDeps } from './deps.js';

export interface ConnectorOptions {
  config: ConnectorConfig;
  clock: Clock;
  logger?: Logger;
  /** Replaces `fetch` for calls to the gateway (tests). */
  fetch?: typeof fetch;
  /** Name resolution for store calls (the system resolver unless a test injects one). */
  lookup?: LookupFunction;
  /** Replaces `fetch` for the Shopify library's calls to shops (tests send them to a local fake). */
  shopifyFetch?: typeof fetch;
}

export interface Connector {
  readonly deps: ConnectorDeps;
  readonly server: Server;
  /** Where it listens, e.g. `http://127.0.0.1:54321`. */
  readonly url: string;
  /** The separate metrics listener (`CONNECTOR_METRICS_PORT`), if any. */
  readonly metricsUrl: string | undefined;
  /** Runs the due work now (the interval does this on its own). */
  runDueWork(): Promise<DueWorkResult>;
  close(): Promise<void>;
}

/**
 * The connector's services without the HTTP server: migrates the database and builds the deps.
 * The CLI's one-off commands use this; `startConnector` serves on top of it.
 */
export async function openConnector(
  options: ConnectorOptions,
): Promise<{ deps: ConnectorDeps; close(): Promise<void> }> {
  const { config, clock } = options;
  const logger = options.logger ?? createLogger(config.logLevel);
  const database = openDatabase<ConnectorDatabase>(config.databaseUrl);
  let secret: string;
  try {
    await migrateConnector(database.db);
    secret = await resolveServiceSecret({
      configured: config.secret,
      databaseUrl: config.databaseUrl,
      dialect: database.dialect,
      stored: earlierStoredSecret(database.db),
      generate: () => randomToken(48),
      logger,
    });
  } catch (error) {
    await database.close();
    throw error;
  }
  // Store URLs are chosen by whoever holds a connect token: every store call goes through these.
  const storeAgents = createGuardedAgents({
    allowPrivate: config.allowPrivateStores,
    ...(options.lookup ? { lookup: options.lookup } : {}),
  });
  if (config.allowPrivateStores) {
    logger.warn('GATEWAY_ALLOW_PRIVATE_WEBHOOKS is set: store calls may reach private networks (development only)');
  }

  const sealer = createSealer(secret, 'connector');
  const shopify =
    config.shopify === undefined
      ? undefined
      : createShopifyRuntime({
          config: config.shopify,
          publicUrl: config.publicUrl,
          db: database.db,
          sealer,
          clock,
          logger,
          ...(options.shopifyFetch ? { fetch: options.shopifyFetch } : {}),
        });
  // A Shopify API version near or past the end of its support is said at once.
  shopify?.checkApiVersion();
  // Shopify's Admin API is on `<name>.myshopify.com` only (plugins/shopify/driver.ts says why plain fetch).
  const platformAccess: PlatformAccess =
    shopify === undefined ? {} : shopifyPlatformAccess(shopify, options.shopifyFetch ?? globalThis.fetch, logger);
  const metrics = new ConnectorMetrics();
  const deps: ConnectorDeps = {
    db: database.db,
    dialect: database.dialect,
    clock,
    config,
    logger,
    sealer,
    metrics,
    ...(shopify
      ? {
          shopify,
          connectionEnded: (connection, status) => paymentsAppConnectionEnded(deps, shopify, connection, status),
          connectionProblems: (connection) => paymentsAppProblems(deps, connection),
        }
      : {}),
    background: createBackgroundTasks(logger),
    acceptedTokens: new AcceptedTokens(),
    gateway: (connectToken) =>
      measuredGatewayClient(
        createGatewayClient({
          baseUrl: config.gatewayUrl,
          connectToken,
          ...(options.fetch ? { fetch: options.fetch } : {}),
        }),
        metrics,
      ),
    openPlatform: (platform, storeUrl, credentials) => {
      const driver = platformDriver(platform);
      if (driver === undefined) throw new Error(`no driver for platform ${platform}`);
      return measuredStore(driver.open(storeUrl, credentials, storeAgents, platformAccess), metrics);
    },
  };
  return {
    deps,
    async close() {
      await deps.background.idle();
      storeAgents.destroy();
      await database.close();
      logger.flush();
    },
  };
}

export async function startConnector(options: ConnectorOptions): Promise<Connector> {
  const { config } = options;
  const services = await openConnector(options);
  const { deps } = services;
  const logger = deps.logger;
  const app = createConnectorApp(deps);
  const server = createBoundedServer(app.callback());
  server.listen(config.port, config.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  // Shopify's payments app calls arrive over mutual TLS when the connector checks the certificate itself.
  const payments = config.shopify?.payments;
  const mtlsServer = payments?.mode === 'mtls' ? createMtlsServer(payments, app.callback()) : undefined;
  if (mtlsServer !== undefined && payments?.mode === 'mtls') {
    mtlsServer.listen(payments.port, config.host);
    await new Promise<void>((resolve, reject) => {
      mtlsServer.once('listening', resolve);
      mtlsServer.once('error', reject);
    });
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const exposure = config.metrics;
  let metricsListener: MetricsListener | undefined;
  if (exposure.port !== undefined) {
    try {
      metricsListener = await startMetricsListener(
        deps.metrics.registry,
        { ...exposure, port: exposure.port },
        config.host,
      );
    } catch (error) {
      await Promise.all(
        [server, mtlsServer].map((listener) => (listener === undefined ? undefined : closeListener(listener))),
      );
      await services.close();
      throw error;
    }
  }

  let running: Promise<unknown> = Promise.resolve();
  const timer =
    config.jobIntervalMs > 0
      ? setInterval(() => {
          running = runDueWork(deps).catch((error) => logger.error({ err: String(error) }, 'due work failed'));
        }, config.jobIntervalMs)
      : undefined;
  timer?.unref();

  return {
    deps,
    server,
    url: `http://${host}:${address.port}`,
    metricsUrl: metricsListener?.url,
    runDueWork: () => runDueWork(deps),
    async close() {
      if (timer !== undefined) clearInterval(timer);
      await running;
      // Stop accepting, drop idle keep-alive sockets, and give requests in flight a few seconds
      // to finish before their connections are cut: shutdown never waits on a client.
      await Promise.all([
        ...[server, mtlsServer].map((listener) => (listener === undefined ? undefined : closeListener(listener))),
        metricsListener?.close(),
      ]);
      await services.close();
    },
  };
}

/** How long shutdown waits for requests in flight before it closes their connections. */
const SHUTDOWN_GRACE_MS = 5_000;

async function closeListener(listener: {
  close(callback: () => void): unknown;
  closeIdleConnections(): void;
  closeAllConnections(): void;
}): Promise<void> {
  const closed = new Promise<void>((resolve) => listener.close(() => resolve()));
  listener.closeIdleConnections();
  const cut = setTimeout(() => listener.closeAllConnections(), SHUTDOWN_GRACE_MS);
  await closed;
  clearTimeout(cut);
}

/** Where earlier versions kept the generated secret: the connector's settings table. */
function earlierStoredSecret(db: ConnectorDb): StoredSecret {
  const setting = 'sealing_secret';
  return {
    async read() {
      const row = await db
        .selectFrom('connector_settings')
        .select('value')
        .where('key', '=', setting)
        .executeTakeFirst();
      return row?.value;
    },
    async delete() {
      await db.deleteFrom('connector_settings').where('key', '=', setting).execute();
    },
    query: `select value from connector_settings where key = '${setting}'`,
  };
}
