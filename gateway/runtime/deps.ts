/**
 * What every service function receives: the database, the injected clock and id source, the
 * configuration, the logger and the metrics. Built once at start (see `gateway/runtime/start.ts`).
 */
import type { Logger } from 'pino';
import type { Db, DialectName, Executor } from '../../storage/database.js';
import type { PaymentRow } from '../../storage/payment.table.js';
import type { TransactionRunner } from '../../storage/transactions.js';
import type { Config } from '../config.js';
import type { Clock } from '../domain/clock.js';
import type { IdGenerator } from '../domain/ids.js';
import type { DueSignal } from '../jobs/due-signal.js';
import type { AccountCache } from '../merchants/account-cache.js';
import type { GatewayMetrics } from '../observability/gateway-metrics.js';
import type { Counterparts } from '../processors/counterparts.js';
import type { ProcessorHttp } from '../processors/http.js';
import type { Sealer } from './sealing.js';

export interface Deps {
  readonly db: Db;
  readonly dialect: DialectName;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly config: Config;
  readonly logger: Logger;
  /** Runs work in a transaction (grouped commits on SQLite); the work must use only `trx`. */
  readonly transact: TransactionRunner;
  /** Keys, connect tokens and domains read recently; synced with the database's account version per request. */
  readonly accountCache: AccountCache;
  /** Wakes the scheduler when a service made work due (call after the transaction committed). */
  readonly dueSignal: DueSignal;
  /** The service secret (`GATEWAY_SECRET`, else generated once into a file beside an SQLite database): signs links and cursors. */
  readonly secret: string;
  /** Seals the secrets the gateway keeps at rest (webhook secrets, processor settings). */
  readonly sealer: Sealer;
  /** Calls processors (guarded, with timeouts); closed when the service stops. */
  readonly processorHttp: ProcessorHttp;
  /** Bounded concurrency and a circuit breaker per processor and fiscal-system address (this instance's). */
  readonly counterparts: Counterparts;
  /** This instance's metrics (its own registry), read at `/metrics`. */
  readonly metrics: GatewayMetrics;
  /**
   * What else happens when a payment becomes `completed` (a first completion or a late
   * confirmation), inside the transaction of that change, in this order. Wired at start: billing's
   * consumption of a `transactions` unit for a merchant's live payment, then the credit of a
   * purchase a house-account payment pays for. A payment completes once (the transition is
   * conditional), so each runs exactly once.
   */
  readonly paymentCompleted: readonly PaymentCompletedSubscriber[];
}

/** One consequence of a completed payment, run in the transaction that completed it. */
export type PaymentCompletedSubscriber = (deps: Deps, trx: Executor, payment: PaymentRow) => Promise<void>;
