/**
 * Business verification requests and their documents (migration 0014). A merchant's newest request
 * is its state; documents are read without their bytes except when one is downloaded.
 */

import type {
  BusinessDocumentSummary,
  BusinessVerificationDocumentRow,
  BusinessVerificationRow,
  NewBusinessVerificationDocumentRow,
  NewBusinessVerificationRow,
} from './business-verification.table.js';
import type { Executor } from './database.js';

const SUMMARY_COLUMNS = [
  'id',
  'verification_id',
  'merchant_id',
  'file_name',
  'content_type',
  'size',
  'sha256',
  'created_at',
] as const;

export async function insertBusinessVerification(db: Executor, row: NewBusinessVerificationRow): Promise<void> {
  await db.insertInto('business_verifications').values(row).execute();
}

export async function insertBusinessDocument(db: Executor, row: NewBusinessVerificationDocumentRow): Promise<void> {
  await db.insertInto('business_verification_documents').values(row).execute();
}

/** The merchant's newest request, if any. */
export async function latestBusinessVerification(
  db: Executor,
  merchantId: string,
): Promise<BusinessVerificationRow | undefined> {
  return db
    .selectFrom('business_verifications')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .orderBy('submitted_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The merchant's pending request, if any (there is at most one). */
export async function pendingBusinessVerification(
  db: Executor,
  merchantId: string,
): Promise<BusinessVerificationRow | undefined> {
  return db
    .selectFrom('business_verifications')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
}

/**
 * Records the operator's decision on a pending request; answers false when it is no longer
 * pending (decided meanwhile).
 */
export async function decideBusinessVerification(
  db: Executor,
  id: string,
  decision: { status: 'verified' | 'rejected'; reason: string | null; decided_at: string; decided_by: string },
): Promise<boolean> {
  const result = await db
    .updateTable('business_verifications')
    .set(decision)
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Every pending request, oldest first, with the merchant's name and how many documents it has. */
export async function listPendingBusinessVerifications(
  db: Executor,
): Promise<Array<BusinessVerificationRow & { merchant_name: string; documents: number }>> {
  const rows = await db
    .selectFrom('business_verifications as v')
    .innerJoin('merchants as m', 'm.id', 'v.merchant_id')
    .selectAll('v')
    .select('m.name as merchant_name')
    .select((eb) =>
      eb
        .selectFrom('business_verification_documents as d')
        .whereRef('d.verification_id', '=', 'v.id')
        .select((e) => e.fn.countAll<number>().as('n'))
        .as('documents'),
    )
    .where('v.status', '=', 'pending')
    .orderBy('v.submitted_at')
    .orderBy('v.id')
    .execute();
  return rows.map((row) => ({ ...row, documents: Number(row.documents ?? 0) }));
}

/** The documents of a request, without their bytes, in the order they were uploaded. */
export async function listBusinessDocuments(db: Executor, verificationId: string): Promise<BusinessDocumentSummary[]> {
  return db
    .selectFrom('business_verification_documents')
    .select(SUMMARY_COLUMNS)
    .where('verification_id', '=', verificationId)
    .orderBy('id')
    .execute();
}

/** One document with its bytes; within a merchant when `merchantId` is given. */
export async function findBusinessDocument(
  db: Executor,
  id: string,
  merchantId?: string,
): Promise<BusinessVerificationDocumentRow | undefined> {
  let query = db.selectFrom('business_verification_documents').selectAll().where('id', '=', id);
  if (merchantId !== undefined) query = query.where('merchant_id', '=', merchantId);
  return query.executeTakeFirst();
}
