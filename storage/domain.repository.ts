import type { DomainLimitSettings } from '../gateway/domain/payment-limits.js';
import type { Executor } from './database.js';
import type { DomainProcessorRow, DomainRow, NewDomainRow } from './domain.table.js';

/** A domain's own payment limits (null: the service-wide default). */
export function rowToDomainLimits(
  row: Pick<DomainRow, 'max_payment_amount' | 'velocity_limit' | 'velocity_window_minutes'>,
): DomainLimitSettings {
  const whole = (value: number | null): number | null => (value === null ? null : Number(value));
  return {
    maxPaymentAmount: whole(row.max_payment_amount),
    velocityLimit: whole(row.velocity_limit),
    velocityWindowMinutes: whole(row.velocity_window_minutes),
  };
}

export async function insertDomain(db: Executor, row: NewDomainRow): Promise<void> {
  await db.insertInto('domains').values(row).execute();
}

/** Whether an account holds `host` verified (a host is verified for one account only). */
export async function isVerifiedHostTaken(db: Executor, host: string): Promise<boolean> {
  const row = await db
    .selectFrom('domains')
    .select('id')
    .where('host', '=', host)
    .where('verified', '=', 1)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export interface DomainWithProcessors extends DomainRow {
  /** Slugs of the processors enabled for the domain, in alphabetical order. */
  processors: string[];
}

/** The merchant's domains with their enabled processors, in one query (payment creation needs both). */
export async function listMerchantDomainsWithProcessors(
  db: Executor,
  merchantId: string,
): Promise<DomainWithProcessors[]> {
  const rows = await db
    .selectFrom('domains')
    .leftJoin('domain_processors', (join) =>
      join.onRef('domain_processors.domain_id', '=', 'domains.id').on('domain_processors.enabled', '=', 1),
    )
    .selectAll('domains')
    .select('domain_processors.processor')
    .where('domains.merchant_id', '=', merchantId)
    .orderBy('domains.created_at')
    .orderBy('domains.id')
    .orderBy('domain_processors.processor')
    .execute();
  const byId = new Map<string, DomainWithProcessors>();
  for (const { processor, ...domain } of rows) {
    let entry = byId.get(domain.id);
    if (entry === undefined) {
      entry = { ...domain, processors: [] };
      byId.set(domain.id, entry);
    }
    if (processor !== null) entry.processors.push(processor);
  }
  return [...byId.values()];
}

export async function findMerchantDomain(
  db: Executor,
  merchantId: string,
  host: string,
): Promise<DomainRow | undefined> {
  return db
    .selectFrom('domains')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .where('host', '=', host)
    .executeTakeFirst();
}

export async function updateDomain(
  db: Executor,
  id: string,
  changes: Partial<Omit<DomainRow, 'id' | 'merchant_id' | 'created_at'>>,
): Promise<void> {
  await db.updateTable('domains').set(changes).where('id', '=', id).execute();
}

/**
 * Enables or disables a processor on a domain. A null `config` (or `position`) keeps what is stored:
 * disabling, or enabling again, leaves the settings in place.
 */
export async function upsertDomainProcessor(
  db: Executor,
  row: Pick<DomainProcessorRow, 'domain_id' | 'processor' | 'enabled' | 'config'> & { position: number | null },
  now: string,
): Promise<void> {
  const { position, ...values } = row;
  await db
    .insertInto('domain_processors')
    .values({ ...values, ...(position !== null ? { position } : {}), created_at: now, updated_at: now })
    .onConflict((oc) =>
      oc.columns(['domain_id', 'processor']).doUpdateSet({
        enabled: row.enabled,
        ...(row.config !== null ? { config: row.config } : {}),
        ...(position !== null ? { position } : {}),
        updated_at: now,
      }),
    )
    .execute();
}

export async function findDomainProcessor(
  db: Executor,
  domainId: string,
  processor: string,
): Promise<DomainProcessorRow | undefined> {
  return db
    .selectFrom('domain_processors')
    .selectAll()
    .where('domain_id', '=', domainId)
    .where('processor', '=', processor)
    .executeTakeFirst();
}

/** The domain's webhook URL (null when none is set). */
export async function findDomainWebhookUrl(db: Executor, domainId: string): Promise<string | null> {
  const row = await db.selectFrom('domains').select('webhook_url').where('id', '=', domainId).executeTakeFirst();
  return row?.webhook_url ?? null;
}

/** Makes the next secret of every rotation whose 24 hours are over the only secret; answers how many. */
export async function finishSecretRotations(db: Executor, now: string, updatedAt: string): Promise<number> {
  const result = await db
    .updateTable('domains')
    .set((eb) => ({
      webhook_secret: eb.fn.coalesce('webhook_secret_next', 'webhook_secret'),
      webhook_secret_next: null,
      webhook_secret_next_at: null,
      updated_at: updatedAt,
    }))
    .where('webhook_secret_next', 'is not', null)
    .where('webhook_secret_next_at', '<=', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * The per-domain throttle of failed-delivery emails (spec "Limits": at most once per domain per
 * 6 hours) as one conditional update: takes the slot, setting `failure_email_at` to `now`, only when
 * the domain's last such email was at or before `notBefore` (or there was none). Answers whether it
 * took the slot. Of several transactions racing for one domain exactly one wins: the others wait on
 * the row and then see the new `failure_email_at` (PostgreSQL re-checks the condition on the
 * updated row; SQLite runs writers one at a time).
 */
export async function claimFailureEmailSlot(
  db: Executor,
  domainId: string,
  now: string,
  notBefore: string,
): Promise<boolean> {
  const result = await db
    .updateTable('domains')
    .set({ failure_email_at: now })
    .where('id', '=', domainId)
    .where((eb) => eb.or([eb('failure_email_at', 'is', null), eb('failure_email_at', '<=', notBefore)]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The webhook secrets of one domain (current, and the next one during a rotation). */
export async function findDomainSecrets(
  db: Executor,
  domainId: string,
): Promise<Pick<DomainRow, 'webhook_secret' | 'webhook_secret_next' | 'webhook_secret_next_at'> | undefined> {
  return db
    .selectFrom('domains')
    .select(['webhook_secret', 'webhook_secret_next', 'webhook_secret_next_at'])
    .where('id', '=', domainId)
    .executeTakeFirst();
}

type StoredSecrets = Pick<DomainRow, 'id' | 'webhook_secret' | 'webhook_secret_next'>;

/** Domains with a webhook secret stored in clear (`whsec_…`), as earlier versions stored them. */
export async function findDomainsWithClearWebhookSecrets(db: Executor): Promise<StoredSecrets[]> {
  return (
    db
      .selectFrom('domains')
      .select(['id', 'webhook_secret', 'webhook_secret_next'])
      // `_` matches any one character here: sealed values start with `v1.`, so nothing else matches.
      .where((eb) => eb.or([eb('webhook_secret', 'like', 'whsec_%'), eb('webhook_secret_next', 'like', 'whsec_%')]))
      .execute()
  );
}

/**
 * Replaces a domain's stored secrets with the same secrets in another form (sealed), only if they
 * are still what was read: a rotation made meanwhile wins. Answers whether the row changed.
 */
export async function resealDomainSecrets(
  db: Executor,
  read: StoredSecrets,
  replacement: Pick<DomainRow, 'webhook_secret' | 'webhook_secret_next'>,
): Promise<boolean> {
  const result = await db
    .updateTable('domains')
    .set(replacement)
    .where('id', '=', read.id)
    .where('webhook_secret', '=', read.webhook_secret)
    .where((eb) =>
      read.webhook_secret_next === null
        ? eb('webhook_secret_next', 'is', null)
        : eb('webhook_secret_next', '=', read.webhook_secret_next),
    )
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
