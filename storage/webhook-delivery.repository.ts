import type { Updateable } from 'kysely';
import type { Executor } from './database.js';
import type { NewWebhookDeliveryRow, WebhookDeliveryRow, WebhookDeliveryTable } from './webhook-delivery.table.js';

export async function insertDelivery(db: Executor, row: NewWebhookDeliveryRow): Promise<void> {
  await db.insertInto('webhook_deliveries').values(row).execute();
}

/** A claimed delivery with what sending it needs: the event and the domain's secrets. */
export interface ClaimedDelivery {
  readonly id: string;
  readonly url: string;
  /** Attempts including the one just claimed. */
  readonly attempts: number;
  readonly merchant_id: string;
  readonly domain_id: string;
  readonly event: string;
  readonly payload: string;
  readonly webhook_secret: string;
  readonly webhook_secret_next: string | null;
  readonly webhook_secret_next_at: string | null;
}

/**
 * Claims up to `limit` deliveries due at `now`, oldest first: counts the attempt and moves
 * `next_attempt_at` to `leaseUntil`, so no one else sends them unless this claim lapses (a crash).
 * On PostgreSQL the due rows are locked with SKIP LOCKED, so instances claiming together never take
 * the same delivery. Run it in a transaction.
 */
export async function claimDueDeliveries(
  trx: Executor,
  options: { now: string; leaseUntil: string; limit: number; lock: boolean; skipDomains?: readonly string[] },
): Promise<ClaimedDelivery[]> {
  let due = trx
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', options.now)
    .orderBy('next_attempt_at')
    .limit(options.limit);
  const skip = options.skipDomains ?? [];
  if (skip.length > 0) due = due.where('domain_id', 'not in', [...skip]);
  if (options.lock) due = due.forUpdate().skipLocked();
  const ids = (await due.execute()).map((r) => r.id);
  if (ids.length === 0) return [];
  await trx
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      next_attempt_at: options.leaseUntil,
      updated_at: options.now,
    }))
    .where('id', 'in', ids)
    .execute();
  return trx
    .selectFrom('webhook_deliveries as d')
    .innerJoin('outbox_events as e', 'e.id', 'd.event_id')
    .innerJoin('domains as dom', 'dom.id', 'd.domain_id')
    .select([
      'd.id',
      'd.url',
      'd.attempts',
      'd.merchant_id',
      'd.domain_id',
      'e.event',
      'e.payload',
      'dom.webhook_secret',
      'dom.webhook_secret_next',
      'dom.webhook_secret_next_at',
    ])
    .where('d.id', 'in', ids)
    .orderBy('d.next_attempt_at')
    .execute();
}

/** When the next pending delivery falls due (a stored instant), or null when none is pending. */
export async function nextDeliveryDueAt(db: Executor): Promise<string | null> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select('next_attempt_at')
    .where('status', '=', 'pending')
    .orderBy('next_attempt_at')
    .limit(1)
    .executeTakeFirst();
  return row?.next_attempt_at ?? null;
}

/**
 * Records the end of the attempt a claim made, only if that claim still holds (same attempt count,
 * still pending): a claim that lapsed and was taken again by another sender is left to that sender.
 */
export async function finishAttempt(
  db: Executor,
  id: string,
  claimedAttempts: number,
  changes: Updateable<WebhookDeliveryTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set(changes)
    .where('id', '=', id)
    .where('attempts', '=', claimedAttempts)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function listEventDeliveries(db: Executor, eventIds: readonly string[]): Promise<WebhookDeliveryRow[]> {
  if (eventIds.length === 0) return [];
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('event_id', 'in', [...eventIds])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
