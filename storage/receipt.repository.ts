/**
 * Receipts, a domain's receipts settings, and the fiscal registers' sequences (receipt.table.ts).
 * Every change of a receipt's status is conditional on the status it had, so two instances (or a
 * try and an operator's command) cannot both move one receipt.
 */
import type { Updateable } from 'kysely';
import type { Executor } from './database.js';
import type {
  DomainReceiptsRow,
  NewReceiptRow,
  ReceiptRow,
  ReceiptStatus,
  ReceiptTable,
  ReceiptType,
} from './receipt.table.js';

export async function findDomainReceipts(db: Executor, domainId: string): Promise<DomainReceiptsRow | undefined> {
  return db.selectFrom('domain_receipts').selectAll().where('domain_id', '=', domainId).executeTakeFirst();
}

export async function saveDomainReceipts(
  db: Executor,
  row: { domain_id: string; merchant_id: string; system: string; config: string | null; now: string },
): Promise<void> {
  await db
    .insertInto('domain_receipts')
    .values({
      domain_id: row.domain_id,
      merchant_id: row.merchant_id,
      system: row.system,
      config: row.config,
      created_at: row.now,
      updated_at: row.now,
    })
    .onConflict((oc) =>
      oc.column('domain_id').doUpdateSet({ system: row.system, config: row.config, updated_at: row.now }),
    )
    .execute();
}

export async function deleteDomainReceipts(db: Executor, domainId: string): Promise<boolean> {
  const result = await db.deleteFrom('domain_receipts').where('domain_id', '=', domainId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Inserts the receipt unless one with its `issue_key` exists; answers the stored row either way. */
export async function insertReceiptOnce(
  db: Executor,
  row: NewReceiptRow,
): Promise<{ row: ReceiptRow; created: boolean }> {
  const inserted = await db
    .insertInto('receipts')
    .values(row)
    .onConflict((oc) => oc.column('issue_key').doNothing())
    .executeTakeFirst();
  const stored = await db.selectFrom('receipts').selectAll().where('issue_key', '=', row.issue_key).executeTakeFirst();
  if (stored === undefined) throw new Error(`receipt ${row.issue_key} vanished`);
  return { row: stored, created: (inserted.numInsertedOrUpdatedRows ?? 0n) > 0n };
}

export async function findReceipt(
  db: Executor,
  id: string,
  options: { lock?: boolean } = {},
): Promise<ReceiptRow | undefined> {
  let query = db.selectFrom('receipts').selectAll().where('id', '=', id);
  if (options.lock === true) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function findReceiptByToken(db: Executor, token: string): Promise<ReceiptRow | undefined> {
  return db.selectFrom('receipts').selectAll().where('public_token', '=', token).executeTakeFirst();
}

export async function findSaleReceiptOfPayment(db: Executor, paymentId: string): Promise<ReceiptRow | undefined> {
  return db.selectFrom('receipts').selectAll().where('issue_key', '=', `sale:${paymentId}`).executeTakeFirst();
}

/** The returns of a sale receipt, oldest first. */
export async function listReturnsOf(db: Executor, saleReceiptId: string): Promise<ReceiptRow[]> {
  return db
    .selectFrom('receipts')
    .selectAll()
    .where('sale_receipt_id', '=', saleReceiptId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export interface ReceiptListFilter {
  readonly merchantId: string;
  readonly environment: 'live' | 'test';
  readonly paymentId?: string;
  readonly type?: ReceiptType;
  readonly statuses?: readonly ReceiptStatus[];
  /** Ids sort by creation (they start with a time-ordered part): the page after this id, newest first. */
  readonly before?: string;
  readonly limit: number;
}

export async function listReceipts(db: Executor, filter: ReceiptListFilter): Promise<ReceiptRow[]> {
  let query = db
    .selectFrom('receipts')
    .selectAll()
    .where('merchant_id', '=', filter.merchantId)
    .where('environment', '=', filter.environment);
  if (filter.paymentId !== undefined) query = query.where('payment_id', '=', filter.paymentId);
  if (filter.type !== undefined) query = query.where('type', '=', filter.type);
  if (filter.statuses !== undefined) query = query.where('status', 'in', [...filter.statuses]);
  if (filter.before !== undefined) query = query.where('id', '<', filter.before);
  return query.orderBy('id', 'desc').limit(filter.limit).execute();
}

/** Whether any receipt's next try, search or lapsed lease is due at `now` (one indexed read). */
export async function anyReceiptDue(db: Executor, now: string): Promise<boolean> {
  const row = await db
    .selectFrom('receipts')
    .select('id')
    .where('next_attempt_at', 'is not', null)
    .where('next_attempt_at', '<=', now)
    .where('status', 'in', ['pending', 'issuing', 'unknown'])
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Receipts whose next try (or search, or lapsed lease) is due, oldest first, none of `skipDomains`. On PostgreSQL the
 * rows are locked (SKIP LOCKED) for the caller's transaction, which leases them before any fiscal
 * system is called, so instances working together take different receipts.
 */
export async function claimDueReceipts(
  db: Executor,
  now: string,
  limit: number,
  lock: boolean,
  skipDomains: readonly string[] = [],
): Promise<ReceiptRow[]> {
  let query = db
    .selectFrom('receipts')
    .selectAll()
    .where('next_attempt_at', 'is not', null)
    .where('next_attempt_at', '<=', now)
    .where('status', 'in', ['pending', 'issuing', 'unknown'])
    .orderBy('next_attempt_at')
    .limit(limit);
  if (skipDomains.length > 0) {
    query = query.where((eb) => eb.or([eb('domain_id', 'is', null), eb('domain_id', 'not in', [...skipDomains])]));
  }
  if (lock) query = query.forUpdate().skipLocked();
  return query.execute();
}

/** Changes the receipt only if its status is one of `from` (and, when given, its try is still `seq`). */
export async function moveReceipt(
  db: Executor,
  id: string,
  from: readonly ReceiptStatus[],
  changes: Updateable<ReceiptTable>,
  options: { seq?: number | null } = {},
): Promise<ReceiptRow | undefined> {
  let query = db
    .updateTable('receipts')
    .set(changes)
    .where('id', '=', id)
    .where('status', 'in', [...from]);
  if (options.seq !== undefined) {
    query = options.seq === null ? query.where('seq', 'is', null) : query.where('seq', '=', options.seq);
  }
  const result = await query.executeTakeFirst();
  if (result.numUpdatedRows === 0n) return undefined;
  return findReceipt(db, id);
}

/** The register's next request sequence number: one more than the last, never given twice. */
export async function nextRegisterSeq(db: Executor, register: string, now: string): Promise<number> {
  await ensureRegister(db, register, now);
  const row = await db
    .updateTable('fiscal_registers')
    .set((eb) => ({ last_seq: eb('last_seq', '+', 1), updated_at: now }))
    .where('register', '=', register)
    .returning('last_seq')
    .executeTakeFirstOrThrow();
  return Number(row.last_seq);
}

export async function findRegister(
  db: Executor,
  register: string,
): Promise<{ last_seq: number; last_fiscal_id: string | null } | undefined> {
  return db
    .selectFrom('fiscal_registers')
    .select(['last_seq', 'last_fiscal_id'])
    .where('register', '=', register)
    .executeTakeFirst();
}

/**
 * Records the latest fiscal id the register issued for us. Ids are decimal integers: a shorter one
 * is smaller, and of two as long the text order is the number order, so the conditional update
 * only ever moves it up, whichever of two instances writes last.
 */
export async function noteRegisterFiscalId(
  db: Executor,
  register: string,
  fiscalId: string,
  now: string,
): Promise<void> {
  if (!/^\d+$/.test(fiscalId)) return;
  const id = fiscalId.replace(/^0+(?=\d)/, '');
  await db
    .updateTable('fiscal_registers')
    .set({ last_fiscal_id: id, updated_at: now })
    .where('register', '=', register)
    .where((eb) =>
      eb.or([
        eb('last_fiscal_id', 'is', null),
        eb(eb.fn('length', ['last_fiscal_id']), '<', id.length),
        eb.and([eb(eb.fn('length', ['last_fiscal_id']), '=', id.length), eb('last_fiscal_id', '<', id)]),
      ]),
    )
    .execute();
}

/** Creates the register's row (sequence 0) unless it exists. */
export async function ensureRegister(db: Executor, register: string, now: string): Promise<void> {
  await db
    .insertInto('fiscal_registers')
    .values({ register, last_seq: 0, last_fiscal_id: null, busy_until: null, updated_at: now })
    .onConflict((oc) => oc.column('register').doNothing())
    .execute();
}

/**
 * Takes the register for one instance until `until`, unless another instance holds it: answers
 * whether it was taken. Requests to a register must reach it with increasing sequence numbers, so
 * one instance at a time calls it. With `lock` (PostgreSQL) a register row another transaction is
 * taking is skipped rather than waited for, so two claims never wait on each other.
 */
export async function leaseRegister(
  db: Executor,
  register: string,
  options: { now: string; until: string; lock: boolean },
): Promise<boolean> {
  let free = db
    .selectFrom('fiscal_registers')
    .select('register')
    .where('register', '=', register)
    .where((eb) => eb.or([eb('busy_until', 'is', null), eb('busy_until', '<=', options.now)]));
  if (options.lock) free = free.forUpdate().skipLocked();
  if ((await free.executeTakeFirst()) === undefined) {
    const exists = await db
      .selectFrom('fiscal_registers')
      .select('register')
      .where('register', '=', register)
      .executeTakeFirst();
    if (exists !== undefined) return false;
    // Enabling receipts creates the row; a register named some other way gets it here.
    await ensureRegister(db, register, options.now);
  }
  const result = await db
    .updateTable('fiscal_registers')
    .set({ busy_until: options.until })
    .where('register', '=', register)
    .where((eb) => eb.or([eb('busy_until', 'is', null), eb('busy_until', '<=', options.now)]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Gives the register back, if this lease still holds it. */
export async function releaseRegister(db: Executor, register: string, until: string): Promise<void> {
  await db
    .updateTable('fiscal_registers')
    .set({ busy_until: null })
    .where('register', '=', register)
    .where('busy_until', '=', until)
    .execute();
}

/** Receipts by id (the sales of a page of returns). */
export async function findReceipts(db: Executor, ids: readonly string[]): Promise<ReceiptRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('receipts')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
}
