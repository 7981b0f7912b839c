/**
 * Starts a real connector (HTTP server on 127.0.0.1, its own database of the chosen dialect) wired
 * to a test gateway, sharing the gateway's manual clock so signed timestamps agree. The connector
 * listens on a port chosen up front, so its public URL (the webhook target and key exchange
 * callback) is known before it starts and stays the same across a restart. The fake stores listen
 * on 127.0.0.1, so store calls may reach loopback (`GATEWAY_ALLOW_PRIVATE_WEBHOOKS=1`, as on a
 * development machine) unless a test asks for the production guard.
 */
import type { LookupFunction } from 'node:net';
import { loadConnectorConfig } from '../../connector/config.js';
import { type Connector, startConnector } from '../../connector/runtime/start.js';
import { createLogger } from '../../gateway/runtime/logger.js';
import type { DialectName } from '../../storage/database.js';
import { freshDatabase, type TestDatabase } from './databases.js';
import type { TestGateway } from './gateway.js';
import { type ApiResponse, type RequestOptions, requestJson } from './http.js';
import { freePort } from './ports.js';

export const CONNECTOR_SECRET = 'connector-test-secret-0123456789-abcdef';

export interface TestConnector {
  readonly url: string;
  /** The environment `bin/connector` needs to work on this connector's database and gateway. */
  readonly env: Record<string, string>;
  current(): Connector;
  /** Calls the connector as a plugin would, with the connect token in `X-Service-Connect`. */
  call<T = Record<string, unknown>>(
    method: string,
    path: string,
    options?: RequestOptions & { token?: string },
  ): Promise<ApiResponse<T>>;
  /** Stops the server (the database stays); `start()` brings it back on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  runDueWork(): ReturnType<Connector['runDueWork']>;
  close(): Promise<void>;
}

export interface TestConnectorOptions {
  /** Store calls may reach private addresses (default true: the fake stores are on 127.0.0.1). */
  allowPrivateStores?: boolean;
  /** Name resolution for store calls. */
  lookup?: LookupFunction;
  /** Overrides of the environment the connector is configured from. */
  env?: Record<string, string>;
  /** `fetch` for the Shopify library's calls to shops (a local fake). */
  shopifyFetch?: typeof fetch;
  /** `fetch` for the connector's calls to the gateway (to lose or change an answer on the way). */
  gatewayFetch?: typeof fetch;
}

export async function startTestConnector(
  dialect: DialectName,
  gateway: TestGateway,
  options: TestConnectorOptions = {},
): Promise<TestConnector> {
  const database: TestDatabase = await freshDatabase(dialect, 'connector');
  const port = await freePort();
  const env = {
    CONNECTOR_PORT: String(port),
    CONNECTOR_HOST: '127.0.0.1',
    CONNECTOR_PUBLIC_URL: `http://127.0.0.1:${port}`,
    CONNECTOR_DATABASE_URL: database.url,
    GATEWAY_URL: gateway.url,
    GATEWAY_SECRET: CONNECTOR_SECRET,
    CONNECTOR_JOB_INTERVAL_SECONDS: '0',
    LOG_LEVEL: 'silent',
    ...(options.allowPrivateStores === false ? {} : { GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1' }),
    ...options.env,
  };
  const config = loadConnectorConfig(env);
  const boot = () =>
    startConnector({
      config,
      clock: gateway.clock,
      logger: createLogger('silent'),
      ...(options.lookup ? { lookup: options.lookup } : {}),
      ...(options.shopifyFetch ? { shopifyFetch: options.shopifyFetch } : {}),
      ...(options.gatewayFetch ? { fetch: options.gatewayFetch } : {}),
    });
  let connector: Connector | null = await boot();
  const url = config.publicUrl;

  return {
    url,
    env,
    current() {
      if (connector === null) throw new Error('the connector is stopped');
      return connector;
    },
    call<T>(method: string, path: string, { token, ...options }: RequestOptions & { token?: string } = {}) {
      return requestJson<T>(method, `${url}${path}`, {
        ...options,
        headers: { ...options.headers, ...(token === undefined ? {} : { 'X-Service-Connect': token }) },
      });
    },
    async stop() {
      await connector?.close();
      connector = null;
    },
    async start() {
      if (connector === null) connector = await boot();
    },
    runDueWork() {
      if (connector === null) throw new Error('the connector is stopped');
      return connector.runDueWork();
    },
    async close() {
      await connector?.close();
      connector = null;
      await database.drop();
    },
  };
}
