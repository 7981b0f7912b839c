import type { Executor } from './database.js';
import type { DomainVerificationRow, NewDomainVerificationRow } from './domain-verification.table.js';

export async function findDomainVerification(
  db: Executor,
  domainId: string,
): Promise<DomainVerificationRow | undefined> {
  return db.selectFrom('domain_verifications').selectAll().where('domain_id', '=', domainId).executeTakeFirst();
}

/**
 * The domain's verification row, created with `row`'s token when there is none yet. Two callers
 * racing both get the one row that won: the token shown never changes once given.
 */
export async function ensureDomainVerification(
  db: Executor,
  row: NewDomainVerificationRow,
): Promise<DomainVerificationRow> {
  await db
    .insertInto('domain_verifications')
    .values(row)
    .onConflict((oc) => oc.column('domain_id').doNothing())
    .execute();
  const stored = await findDomainVerification(db, row.domain_id);
  if (stored === undefined) throw new Error(`domain verification of ${row.domain_id} vanished`);
  return stored;
}

/** Records a check's outcome (and, for a success, how and when the domain was verified). */
export async function recordVerificationCheck(
  db: Executor,
  domainId: string,
  changes: Pick<
    DomainVerificationRow,
    'checked_at' | 'check_method' | 'failure_code' | 'failure_message' | 'updated_at'
  > &
    Partial<Pick<DomainVerificationRow, 'verified_method' | 'verified_at'>>,
): Promise<void> {
  await db.updateTable('domain_verifications').set(changes).where('domain_id', '=', domainId).execute();
}
