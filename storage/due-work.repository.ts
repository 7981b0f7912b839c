/**
 * How much due work waits, read for the metrics at scrape time: for each queue the scheduler
 * works through, the items still open, those due now, and the oldest due time. Each read is one
 * aggregate over the queue's `(status, due time)` index (`webhook_deliveries_due`, `payments_due`,
 * `refunds_due`, `hold_operations_due`, `payments_holds_due`), so a scrape costs a few index range scans.
 */
import { sql } from 'kysely';
import type { Executor } from './database.js';
import { IN_FLIGHT_HOLD_STATUSES } from './hold-operation.repository.js';
import { IN_FLIGHT_REFUND_STATUSES } from './refund.repository.js';

export type DueQueue = 'webhook_deliveries' | 'payment_expiries' | 'refund_checks' | 'hold_checks' | 'hold_expiries';

export interface DueQueueStats {
  readonly queue: DueQueue;
  /** Items waiting for the job, due or not yet. */
  readonly open: number;
  /** Items whose time has come. */
  readonly due: number;
  /** The earliest due time among them (stored instant), null when none is due. */
  readonly oldestDue: string | null;
}

interface Aggregate {
  open: number | string | bigint | null;
  due: number | string | bigint | null;
  oldest_due: string | null;
}

function toStats(queue: DueQueue, row: Aggregate | undefined): DueQueueStats {
  return {
    queue,
    open: Number(row?.open ?? 0),
    due: Number(row?.due ?? 0),
    oldestDue: row?.oldest_due ?? null,
  };
}

export async function dueQueueStats(db: Executor, now: string): Promise<DueQueueStats[]> {
  const deliveries = await db
    .selectFrom('webhook_deliveries')
    .select([
      sql<number>`count(*)`.as('open'),
      sql<number>`sum(case when next_attempt_at <= ${now} then 1 else 0 end)`.as('due'),
      sql<string | null>`min(case when next_attempt_at <= ${now} then next_attempt_at end)`.as('oldest_due'),
    ])
    .where('status', '=', 'pending')
    .executeTakeFirst();
  const expiries = await db
    .selectFrom('payments')
    .select([
      sql<number>`count(*)`.as('open'),
      sql<number>`sum(case when expires_at <= ${now} then 1 else 0 end)`.as('due'),
      sql<string | null>`min(case when expires_at <= ${now} then expires_at end)`.as('oldest_due'),
    ])
    .where('status', 'in', ['pending', 'processing'])
    .executeTakeFirst();
  const refunds = await db
    .selectFrom('refunds')
    .select([
      sql<number>`count(*)`.as('open'),
      sql<number>`sum(case when next_check_at <= ${now} then 1 else 0 end)`.as('due'),
      sql<string | null>`min(case when next_check_at <= ${now} then next_check_at end)`.as('oldest_due'),
    ])
    .where('status', 'in', [...IN_FLIGHT_REFUND_STATUSES])
    .where('next_check_at', 'is not', null)
    .executeTakeFirst();
  const holdChecks = await db
    .selectFrom('hold_operations')
    .select([
      sql<number>`count(*)`.as('open'),
      sql<number>`sum(case when next_check_at <= ${now} then 1 else 0 end)`.as('due'),
      sql<string | null>`min(case when next_check_at <= ${now} then next_check_at end)`.as('oldest_due'),
    ])
    .where('status', 'in', [...IN_FLIGHT_HOLD_STATUSES])
    .where('next_check_at', 'is not', null)
    .executeTakeFirst();
  const holdExpiries = await db
    .selectFrom('payments')
    .select([
      sql<number>`count(*)`.as('open'),
      sql<number>`sum(case when capture_before <= ${now} then 1 else 0 end)`.as('due'),
      sql<string | null>`min(case when capture_before <= ${now} then capture_before end)`.as('oldest_due'),
    ])
    .where('status', '=', 'authorized')
    .where('capture_before', 'is not', null)
    .executeTakeFirst();
  return [
    toStats('webhook_deliveries', deliveries),
    toStats('payment_expiries', expiries),
    toStats('refund_checks', refunds),
    toStats('hold_checks', holdChecks),
    toStats('hold_expiries', holdExpiries),
  ];
}
