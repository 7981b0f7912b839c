/**
 * The figures of the dashboard overview (docs/decisions.md "Dashboard overview"): the last 30 UTC
 * days of one account and environment, read from indexes or kept totals only, so a page costs the
 * same for an account of ten payments and one of a million.
 *
 * - Completed payments per day and per processor: payments whose `completed_at` falls in the window
 *   (refunded ones included: they were paid), read from the covering index `payments_completed`.
 * - Success rate: of the payments created in the window that have finished (completed, refunded,
 *   failed, expired), the share paid, summed from `payment_counts` (a few rows a day).
 * - Refunds: succeeded refunds completed in the window (`refunds_completed`).
 * - Webhook health: deliveries that failed for good in the last 24 hours (`webhook_deliveries_merchant`),
 *   the 20 latest listed with their payment.
 * - Balances: both counters of the account (they are not per environment), with their blocked state.
 */
import { sql } from 'kysely';
import { readBalances } from '../../billing/billing.service.js';
import type { BalanceEntry } from '../../domain/billing.js';
import { DAY_MS, toStoredInstant } from '../../domain/clock.js';
import type { Deps } from '../../runtime/deps.js';
import type { Environment } from '../customers/environment.js';

export const OVERVIEW_DAYS = 30;
export const FAILED_DELIVERIES_SHOWN = 20;

export interface DayFigures {
  /** `YYYY-MM-DD` (UTC). */
  readonly day: string;
  readonly count: number;
  readonly volume: number;
}

export interface ProcessorFigures {
  readonly processor: string;
  readonly count: number;
  readonly volume: number;
}

export interface FailedDelivery {
  readonly paymentId: string;
  readonly event: string;
  readonly url: string;
  readonly attempts: number;
  readonly lastStatusCode: number | null;
  readonly failedAt: string;
}

export interface Overview {
  readonly env: Environment;
  readonly from: string;
  readonly to: string;
  readonly days: readonly DayFigures[];
  readonly completedCount: number;
  readonly completedVolume: number;
  /** Paid / finished among payments created in the window; null when none has finished. */
  readonly successRate: number | null;
  readonly finished: number;
  readonly paid: number;
  readonly refundsCount: number;
  readonly refundsAmount: number;
  readonly processors: readonly ProcessorFigures[];
  readonly failedDeliveries: readonly FailedDelivery[];
  readonly failedDeliveriesCount: number;
  readonly deliveredCount: number;
  readonly balances: readonly BalanceEntry[];
}

function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export async function readOverview(deps: Deps, merchantId: string, env: Environment): Promise<Overview> {
  const now = deps.clock.nowMs();
  const todayStart = Date.parse(`${dayOf(now)}T00:00:00.000Z`);
  const startMs = todayStart - (OVERVIEW_DAYS - 1) * DAY_MS;
  const start = toStoredInstant(startMs);
  const since24h = toStoredInstant(now - DAY_MS);
  const db = deps.db;

  const completed = await db
    .selectFrom('payments')
    .select((eb) => [
      sql<string>`substr(completed_at, 1, 10)`.as('day'),
      sql<string>`coalesce(processor, '')`.as('processor'),
      eb.fn.countAll<number | string>().as('n'),
      eb.fn.sum<number | string>('amount').as('volume'),
    ])
    .where('merchant_id', '=', merchantId)
    .where('environment', '=', env)
    .where('completed_at', 'is not', null)
    .where('completed_at', '>=', start)
    .groupBy([sql`substr(completed_at, 1, 10)`, sql`coalesce(processor, '')`])
    .execute();

  const statuses = await db
    .selectFrom('payment_counts')
    .select(['status', (eb) => eb.fn.sum<number | string>('n').as('n')])
    .where('merchant_id', '=', merchantId)
    .where('environment', '=', env)
    .where('day', '>=', dayOf(startMs))
    .where('status', 'in', ['completed', 'refunded', 'failed', 'expired'])
    .groupBy('status')
    .execute();

  const refunds = await db
    .selectFrom('refunds')
    .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.sum<number | string>('amount').as('amount')])
    .where('merchant_id', '=', merchantId)
    .where('environment', '=', env)
    .where('status', '=', 'succeeded')
    .where('completed_at', '>=', start)
    .executeTakeFirst();

  const deliveries = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('outbox_events as e', 'e.id', 'd.event_id')
    .where('d.merchant_id', '=', merchantId)
    .where('e.environment', '=', env)
    .where('d.updated_at', '>=', since24h);
  const failedRows = await deliveries
    .select(['e.payment_id', 'e.event', 'd.url', 'd.attempts', 'd.last_status_code', 'd.updated_at'])
    .where('d.status', '=', 'failed')
    .orderBy('d.updated_at', 'desc')
    .orderBy('d.id', 'desc')
    .limit(FAILED_DELIVERIES_SHOWN)
    .execute();
  const deliveryCounts = await deliveries
    .select(['d.status', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('d.status', 'in', ['failed', 'delivered'])
    .groupBy('d.status')
    .execute();

  const balances = await readBalances(deps, merchantId);

  const days: DayFigures[] = [];
  for (let i = 0; i < OVERVIEW_DAYS; i++) {
    const day = dayOf(startMs + i * DAY_MS);
    const rows = completed.filter((r) => r.day === day);
    days.push({
      day,
      count: rows.reduce((s, r) => s + Number(r.n), 0),
      volume: rows.reduce((s, r) => s + Number(r.volume ?? 0), 0),
    });
  }
  const byProcessor = new Map<string, { count: number; volume: number }>();
  for (const r of completed) {
    const entry = byProcessor.get(r.processor) ?? { count: 0, volume: 0 };
    entry.count += Number(r.n);
    entry.volume += Number(r.volume ?? 0);
    byProcessor.set(r.processor, entry);
  }
  const processors = [...byProcessor]
    .map(([processor, f]) => ({ processor, ...f }))
    .sort((a, b) => b.volume - a.volume || a.processor.localeCompare(b.processor));
  const status = (s: string) => Number(statuses.find((r) => r.status === s)?.n ?? 0);
  const paid = status('completed') + status('refunded');
  const finished = paid + status('failed') + status('expired');
  const deliveryCount = (s: string) => Number(deliveryCounts.find((r) => r.status === s)?.n ?? 0);

  return {
    env,
    from: dayOf(startMs),
    to: dayOf(now),
    days,
    completedCount: days.reduce((s, d) => s + d.count, 0),
    completedVolume: days.reduce((s, d) => s + d.volume, 0),
    successRate: finished === 0 ? null : paid / finished,
    finished,
    paid,
    refundsCount: Number(refunds?.n ?? 0),
    refundsAmount: Number(refunds?.amount ?? 0),
    processors,
    failedDeliveries: failedRows.map((r) => ({
      paymentId: r.payment_id,
      event: r.event,
      url: r.url,
      attempts: Number(r.attempts),
      lastStatusCode: r.last_status_code === null ? null : Number(r.last_status_code),
      failedAt: r.updated_at,
    })),
    failedDeliveriesCount: deliveryCount('failed'),
    deliveredCount: deliveryCount('delivered'),
    balances,
  };
}
