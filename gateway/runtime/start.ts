/**
 * Starts the gateway: opens the database, migrates it, loads the service secret, and serves HTTP.
 * Tests call `startGateway` with their own clock and database; `gateway serve` calls it with the
 * environment's configuration.
 */
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Router } from '@koa/router';
import type { Logger } from 'pino';
import { accountVersionReader } from '../../storage/account-version.repository.js';
import { type DatabaseHandle, openDatabase } from '../../storage/connect.js';
import { migrateToLatest } from '../../storage/migrate.js';
import { deleteSetting, findSetting } from '../../storage/service-setting.repository.js';
import { createTransactionRunner } from '../../storage/transactions.js';
import { createApp } from '../api/app.js';
import { answerClientErrors } from '../api/client-errors.js';
import type { GatewayState } from '../api/context.js';
import type { AuthDeps } from '../auth/authenticate.js';
import { consumeForCompletedPayment } from '../billing/consumption.js';
import { creditPurchasePaidBy } from '../billing/purchases.service.js';
import type { Config } from '../config.js';
import type { Clock } from '../domain/clock.js';
import type { IdGenerator } from '../domain/ids.js';
import { DueSignal } from '../jobs/due-signal.js';
import { dueWorks } from '../jobs/index.js';
import { Scheduler } from '../jobs/scheduler.js';
import { DatabaseRateLimiter, MemoryRateLimiter, type RateLimiter } from '../limits/rate-limiter.js';
import { AccountCache } from '../merchants/account-cache.js';
import type { VerificationOptions } from '../merchants/domain-verification.service.js';
import { createMailer, type Mailer } from '../notifications/mailer.js';
import { GatewayMetrics } from '../observability/gateway-metrics.js';
import { type MetricsListener, startMetricsListener } from '../observability/metrics-endpoint.js';
import { type CounterpartLimits, Counterparts } from '../processors/counterparts.js';
import { createProcessorHttp, type ProcessorHttp } from '../processors/http.js';
import { sealClearWebhookSecrets } from '../webhooks/secrets.js';
import { createWebhookSender, type WebhookSender } from '../webhooks/sender.js';
import { createBoundedServer, type HttpTimeouts } from './http-timeouts.js';
import { createLogger } from './logger.js';
import { createSealer } from './sealing.js';
import { resolveServiceSecret } from './service-secret.js';
import { monotonicMs, randomIds, systemClock } from './system.js';
import { DatabaseTestClock } from './test-clock.js';

/** The `service_settings` row where earlier versions kept the generated service secret. */
const EARLIER_SECRET_SETTING = 'gateway_secret';

export interface Gateway {
  readonly deps: AuthDeps;
  /** Runs due work (expiry, ...); started with the server, stopped before the database closes. */
  readonly scheduler: Scheduler;
  /** The service secret (`GATEWAY_SECRET`, else generated once into a file beside an SQLite database). */
  readonly secret: string;
  readonly server: Server;
  /** `http://127.0.0.1:<port>` of the listening socket. */
  readonly url: string;
  /** `http://127.0.0.1:<port>` of the separate metrics listener (`GATEWAY_METRICS_PORT`), if any. */
  readonly metricsUrl: string | undefined;
  close(): Promise<void>;
}

export interface StartOptions {
  readonly config: Config;
  readonly clock?: Clock;
  /**
   * The time of sending that webhook attempts are stamped with (their signed timestamp). Default:
   * the injected `clock` when there is one (tests whose receivers share it), else the system clock,
   * also under `GATEWAY_CLOCK=manual`: receivers check the stamp against their own clock.
   */
  readonly transportClock?: Clock;
  readonly ids?: IdGenerator;
  readonly logger?: Logger;
  readonly database?: DatabaseHandle;
  readonly routers?: ReadonlyArray<Router<GatewayState>>;
  /** Use this limiter instead of the dialect's default. */
  readonly limiter?: RateLimiter;
  /** Sends webhooks (tests inject one with their own name resolution). */
  readonly webhookSender?: WebhookSender;
  /** Sends merchant emails (default: SMTP_URL, else the log). */
  readonly mailer?: Mailer;
  /** Default `HTTP_TIMEOUTS` (tests shorten them). */
  readonly httpTimeouts?: HttpTimeouts;
  /** Calls processors (tests inject one with their own name resolution). */
  readonly processorHttp?: ProcessorHttp;
  /** Transport settings of the dashboard's domain verification checks (tests: a local HTTPS site). */
  readonly domainVerification?: VerificationOptions;
  /** Concurrency and breaker limits per counterpart (default `DEFAULT_COUNTERPART_LIMITS`; tests shorten them). */
  readonly counterpartLimits?: Partial<CounterpartLimits>;
}

export interface OpenedServices {
  readonly deps: AuthDeps;
  readonly secret: string;
  readonly database: DatabaseHandle;
}

/** Everything but the HTTP listener: used by the server and by the CLI. */
export async function openServices(options: StartOptions): Promise<OpenedServices> {
  const { config } = options;
  const ids = options.ids ?? randomIds;
  const logger = options.logger ?? createLogger(config.logLevel);
  const database = options.database ?? openDatabase(config.databaseUrl);
  try {
    await migrateToLatest(database.db);
    const clock =
      options.clock ?? (config.manualClock ? await DatabaseTestClock.open(database, systemClock) : systemClock);
    const secret = await resolveServiceSecret({
      configured: config.gatewaySecret,
      databaseUrl: config.databaseUrl,
      dialect: database.dialect,
      stored: {
        read: () => findSetting(database.db, EARLIER_SECRET_SETTING),
        delete: () => deleteSetting(database.db, EARLIER_SECRET_SETTING),
        query: `select value from service_settings where name = '${EARLIER_SECRET_SETTING}'`,
      },
      generate: () => ids.token(48),
      logger,
    });
    const sealer = createSealer(secret, 'gateway');
    await sealClearWebhookSecrets(database.db, sealer);
    const limiter =
      options.limiter ??
      (database.dialect === 'postgres' ? new DatabaseRateLimiter(database, clock) : new MemoryRateLimiter(clock));
    const deps: AuthDeps = {
      db: database.db,
      dialect: database.dialect,
      clock,
      ids,
      config,
      logger,
      limiter,
      transact: createTransactionRunner(database.db, database.dialect),
      accountCache: new AccountCache(monotonicMs, accountVersionReader(database)),
      dueSignal: new DueSignal(),
      secret,
      sealer,
      processorHttp: options.processorHttp ?? createProcessorHttp({ allowPrivate: config.allowPrivateWebhooks }),
      counterparts: new Counterparts({
        monotonic: monotonicMs,
        logger,
        ...(options.counterpartLimits ? { limits: options.counterpartLimits } : {}),
      }),
      metrics: new GatewayMetrics({
        db: database.db,
        clock,
        logger,
        ...(database.poolStats ? { pool: database.poolStats } : {}),
      }),
      paymentCompleted: [consumeForCompletedPayment, creditPurchasePaidBy],
    };
    return { deps, secret, database };
  } catch (error) {
    await database.close();
    throw error;
  }
}

export async function startGateway(options: StartOptions): Promise<Gateway> {
  const { deps, secret, database } = await openServices(options);
  const webhookSender =
    options.webhookSender ?? createWebhookSender({ allowPrivate: options.config.allowPrivateWebhooks });
  const mailer = options.mailer ?? createMailer(options.config, deps.logger);
  const transportClock = options.transportClock ?? options.clock ?? systemClock;
  const scheduler = new Scheduler(dueWorks(deps, { webhookSender, mailer, transportClock }), deps.logger);
  const app = createApp(deps, {
    scheduler,
    secret,
    mailer,
    routers: options.routers ?? [],
    ...(options.domainVerification ? { domainVerification: options.domainVerification } : {}),
  });
  const server = createBoundedServer(app.callback(), options.httpTimeouts);
  answerClientErrors(server, options.config.publicUrl, deps.logger);
  server.listen(options.config.port, options.config.host);
  try {
    await once(server, 'listening');
  } catch (error) {
    await database.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const exposure = options.config.metrics;
  let metricsListener: MetricsListener | undefined;
  if (exposure.port !== undefined) {
    try {
      metricsListener = await startMetricsListener(
        deps.metrics.registry,
        { ...exposure, port: exposure.port },
        options.config.host,
      );
    } catch (error) {
      server.close();
      await database.close();
      throw error;
    }
  }
  scheduler.start();
  const unsubscribe = deps.dueSignal.subscribe(() => scheduler.wake());
  let closing: Promise<void> | undefined;
  return {
    deps,
    scheduler,
    secret,
    server,
    url: `http://127.0.0.1:${port}`,
    metricsUrl: metricsListener?.url,
    close() {
      closing ??= (async () => {
        await Promise.all([
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeIdleConnections();
          }),
          metricsListener?.close(),
        ]);
        unsubscribe();
        await scheduler.stop();
        webhookSender.close();
        deps.processorHttp.close();
        mailer.close();
        await database.close();
        deps.logger.flush();
      })();
      return closing;
    },
  };
}
