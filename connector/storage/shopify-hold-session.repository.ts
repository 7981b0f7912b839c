/**
 * Capture and void sessions of the Shopify payments app (0012). Stored once per Shopify `id`; every
 * write that moves a session on is conditional on the state it was read in, and a step is claimed
 * by a compare-and-set of `next_attempt_at`, so two instances (or a repeated POST and the job) never
 * make the same call at once.
 */
import type { Selectable, Updateable } from 'kysely';
import type { ConnectorExecutor } from './database.js';
import type { ShopifyHoldSessionState, ShopifyHoldSessionTable } from './shopify-hold-session.table.js';

export type ShopifyHoldSession = Selectable<ShopifyHoldSessionTable>;

/** Inserts the session unless one with its id exists; answers the stored row either way. */
export async function insertHoldSession(db: ConnectorExecutor, row: ShopifyHoldSession): Promise<ShopifyHoldSession> {
  await db
    .insertInto('shopify_hold_sessions')
    .values(row)
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return db.selectFrom('shopify_hold_sessions').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
}

export async function findHoldSession(db: ConnectorExecutor, id: string): Promise<ShopifyHoldSession | undefined> {
  return db.selectFrom('shopify_hold_sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Applies `changes` when the session is still in one of `states`; answers whether it was. */
export async function moveHoldSession(
  db: ConnectorExecutor,
  id: string,
  states: readonly ShopifyHoldSessionState[],
  changes: Updateable<ShopifyHoldSessionTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('shopify_hold_sessions')
    .set(changes)
    .where('id', '=', id)
    .where('state', 'in', [...states])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Claims the row's due step: moves `next_attempt_at` from the value read to `until`, only if no one
 * moved it (or the state) since. Answers whether this caller has the step.
 */
export async function claimHoldSession(
  db: ConnectorExecutor,
  row: Pick<ShopifyHoldSession, 'id' | 'state' | 'next_attempt_at'>,
  until: string,
): Promise<boolean> {
  if (row.next_attempt_at === null) return false;
  const result = await db
    .updateTable('shopify_hold_sessions')
    .set({ next_attempt_at: until })
    .where('id', '=', row.id)
    .where('state', '=', row.state)
    .where('next_attempt_at', '=', row.next_attempt_at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Sessions with a step due now (a gateway call or a decision), oldest first. */
export async function holdSessionsDue(
  db: ConnectorExecutor,
  now: string,
  limit: number,
): Promise<ShopifyHoldSession[]> {
  return db
    .selectFrom('shopify_hold_sessions')
    .selectAll()
    .where('state', 'in', ['call_due', 'resolve_due', 'reject_due'])
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();
}

/**
 * The shop's capture and void sessions a person should know of: `failed`, a decision Shopify has not
 * taken after `minAttempts` calls, or a gateway outcome still unknown after `minAttempts` calls;
 * oldest first.
 */
export async function unsettledHoldSessions(
  db: ConnectorExecutor,
  shop: string,
  minAttempts: number,
  limit: number,
): Promise<ShopifyHoldSession[]> {
  return db
    .selectFrom('shopify_hold_sessions')
    .selectAll()
    .where('shop', '=', shop)
    .where((eb) =>
      eb.or([
        eb('state', '=', 'failed'),
        eb.and([eb('state', 'in', ['resolve_due', 'reject_due']), eb('attempts', '>=', minAttempts)]),
        eb.and([eb('state', '=', 'call_due'), eb('gateway_calls', '>=', minAttempts)]),
      ]),
    )
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}
