/**
 * What every connector service receives. Built once at start (connector/runtime/start.ts).
 */
import type { Logger } from 'pino';
import type { Clock } from '../../gateway/domain/clock.js';
import type { Sealer } from '../../gateway/runtime/sealing.js';
import type { ShopifyRuntime } from '../../plugins/shopify/runtime.js';
import type { DialectName } from '../../storage/database.js';
import type { ConnectorConfig } from '../config.js';
import type { AcceptedTokens } from '../connections/accepted-tokens.js';
import type { ConnectionProblem } from '../connections/problems.js';
import type { GatewayClient } from '../gateway-client/client.js';
import type { ConnectorMetrics } from '../observability/connector-metrics.js';
import type { StorePlatform } from '../platforms/platform.js';
import type { StoreConnection } from '../storage/connection.repository.js';
import type { ConnectorDb } from '../storage/database.js';
import type { BackgroundTasks } from './background.js';

export interface ConnectorDeps {
  readonly db: ConnectorDb;
  readonly dialect: DialectName;
  readonly clock: Clock;
  readonly config: ConnectorConfig;
  readonly logger: Logger;
  /** Encrypts tokens and platform credentials at rest. */
  readonly sealer: Sealer;
  /** Connect tokens the gateway accepted a moment ago (plugin calls ask it once per burst). */
  readonly acceptedTokens: AcceptedTokens;
  /** Work that runs after a request answered (store calls a plugin must not wait for). */
  readonly background: BackgroundTasks;
  /** A gateway client authenticated with a connect token. */
  gateway(connectToken: string): GatewayClient;
  /** Opens a platform's API for one store; defaults to the platform drivers. */
  openPlatform(platform: string, storeUrl: string, credentials: Readonly<Record<string, string>>): StorePlatform;
  /** This connector's metrics (its own registry), read at `/metrics`; store and gateway calls record into it. */
  readonly metrics: ConnectorMetrics;
  /** The Shopify app (library instance, sessions); absent when Shopify is not configured. */
  readonly shopify?: ShopifyRuntime;
  /**
   * What follows a connection's end (removed, or its app uninstalled) in the platform plugins, called
   * once it is erased (the composition root wires the Shopify app's `paymentsAppConfigure(ready: false)`).
   */
  readonly connectionEnded?: (connection: StoreConnection, status: 'removed' | 'uninstalled') => Promise<void>;
  /** What the platform plugins know is wrong with a connection (`health.problems`); none when absent. */
  readonly connectionProblems?: (connection: StoreConnection) => Promise<ConnectionProblem[]>;
}
