/**
 * The HTTP shell: request metrics, request context, the one error path, the test clock's latest
 * time (under `GATEWAY_CLOCK=manual`), `/metrics` when it is served on this port, then the
 * routers. Building the app does no I/O; `gateway/runtime/start.ts` wires it to a database and a
 * port.
 */
import type { Router } from '@koa/router';
import Koa from 'koa';
import type { AuthDeps } from '../auth/authenticate.js';
import { checkoutRouter } from '../checkout/checkout.router.js';
import { dashboardRouter } from '../dashboard/dashboard.router.js';
import type { Scheduler } from '../jobs/scheduler.js';
import type { VerificationOptions } from '../merchants/domain-verification.service.js';
import type { Mailer } from '../notifications/mailer.js';
import { metricsOnMainPort, metricsRoute } from '../observability/metrics-endpoint.js';
import { recordRequests } from '../observability/request-metrics.js';
import { linkPageRouter } from '../payment-links/link-page.router.js';
import type { GatewayState } from './context.js';
import { errorHandler } from './middleware/errors.js';
import { requestContext } from './middleware/request-context.js';
import { syncClock } from './middleware/sync-clock.js';
import { apiReferenceRouter } from './routes/api-reference.router.js';
import { billingRouter } from './routes/billing.router.js';
import { connectTokenRouter } from './routes/connect-token.router.js';
import { customersRouter } from './routes/customers.router.js';
import { docsRouter } from './routes/docs.router.js';
import { faviconRouter } from './routes/favicon.router.js';
import { healthRouter } from './routes/health.router.js';
import { paymentLinksRouter } from './routes/payment-links.router.js';
import { paymentsRouter } from './routes/payments.router.js';
import { processorCallbacksRouter } from './routes/processor-callbacks.router.js';
import { purchasesRouter } from './routes/purchases.router.js';
import { receiptsRouter } from './routes/receipts.router.js';
import { refundsRouter } from './routes/refunds.router.js';
import { sdkRouter } from './routes/sdk.router.js';
import { testHelpersRouter } from './routes/test-helpers.router.js';

export interface AppOptions {
  /** Runs due work; the clock test helper runs it at once. */
  readonly scheduler: Scheduler;
  /** The service secret (signs the checkout's form tokens). */
  readonly secret: string;
  /** Sends the dashboard's mails (address confirmation, password reset). */
  readonly mailer: Mailer;
  /** Transport settings of the dashboard's domain verification checks (tests only). */
  readonly domainVerification?: VerificationOptions;
  /** Extra routers mounted after the built-in ones (later features, and tests of shared middleware). */
  readonly routers?: ReadonlyArray<Router<GatewayState>>;
}

export function createApp(deps: AuthDeps, options: AppOptions): Koa<GatewayState> {
  const app = new Koa<GatewayState>({ proxy: deps.config.trustProxy });
  app.silent = true;
  app.use(recordRequests(deps.metrics.requests));
  app.use(requestContext(deps.logger, deps.config.publicUrl));
  app.use(
    errorHandler(deps.config.publicUrl, deps.logger, (code) => {
      if (code === 'rate_limited' || code === 'too_many_attempts') deps.metrics.refused(code);
    }),
  );
  if (deps.clock.sync !== undefined) app.use(syncClock(deps.clock, deps.logger));
  const exposure = deps.config.metrics;
  if (metricsOnMainPort(exposure) && exposure.token !== undefined) {
    app.use(metricsRoute(deps.metrics.registry, exposure.token));
  }
  const routers = [
    paymentsRouter(deps),
    refundsRouter(deps),
    billingRouter(deps, { secret: options.secret }),
    purchasesRouter(deps),
    receiptsRouter(deps),
    testHelpersRouter(deps, options.scheduler),
    connectTokenRouter(deps),
    customersRouter(deps),
    docsRouter(),
    faviconRouter(),
    apiReferenceRouter(deps.config),
    sdkRouter(),
    checkoutRouter(deps, { secret: options.secret }),
    dashboardRouter(deps, { mailer: options.mailer, domainVerification: options.domainVerification ?? {} }),
    processorCallbacksRouter(deps),
    healthRouter(deps),
    paymentLinksRouter(deps),
    linkPageRouter(deps, { secret: options.secret }),
    ...(options.routers ?? []),
  ];
  for (const router of routers) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
  return app;
}
