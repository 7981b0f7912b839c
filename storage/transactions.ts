/**
 * Running work in a transaction. On PostgreSQL each unit of work is its own transaction. On SQLite,
 * where one connection serves the whole process and each commit writes every page it touched to
 * the write-ahead log, units that arrive together are committed together ("group commit"): one
 * BEGIN, each unit inside its own savepoint, one COMMIT. A unit that fails rolls back to its
 * savepoint and only its caller sees the error; the others still commit. A unit of one statement
 * needs no savepoint: a statement that breaks a constraint is undone by SQLite alone, and after any
 * other failure the group is rolled back and its other units run again in the next commit. A
 * caller's promise settles only after the COMMIT that made its unit durable, so nobody is answered
 * early.
 *
 * On PostgreSQL a transaction that the server aborts to break a deadlock, or because it could not
 * be serialized, is run again from the start (up to {@link MAX_ATTEMPTS} times): nothing of the
 * aborted attempt was kept, and the work uses only `trx`, so running it again is safe. Rows that
 * several payments share (`payment_counts`, migration 0020) make such aborts possible when two
 * transactions each change a payment twice; without the retry the buyer would get a 500 for a
 * conflict the database resolves by itself a moment later.
 */
import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { isStalePlan } from './connect.js';
import type { Database, DialectName, Executor } from './database.js';

export interface TransactionOptions {
  /**
   * The work runs exactly one statement (which may fire triggers). On PostgreSQL a statement is a
   * transaction by itself, so it is sent alone: one round trip instead of three (BEGIN, the
   * statement, COMMIT), with the same atomicity and the same durability at its commit. On SQLite
   * it joins the commit queue without a savepoint of its own.
   */
  readonly oneStatement?: boolean;
}

export type TransactionRunner = <T>(work: (trx: Executor) => Promise<T>, options?: TransactionOptions) => Promise<T>;

/** Most units one SQLite commit carries; later arrivals wait for the next commit. */
const MAX_GROUP = 64;

/** Runs of one unit of work on PostgreSQL when the server aborts it for a deadlock or serialization. */
export const MAX_ATTEMPTS = 4;

/** PostgreSQL's codes for a transaction aborted by a conflict it may retry: serialization_failure, deadlock_detected. */
const RETRYABLE = new Set(['40001', '40P01']);

export function isRetryableConflict(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && RETRYABLE.has(code);
}

interface Unit {
  work: (trx: Executor) => Promise<unknown>;
  oneStatement: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * Holds a lock named `name` until the transaction `trx` ends, so transactions that take it, on any
 * instance, run one after the other: on PostgreSQL a transaction-scoped advisory lock on 64 bits of
 * the name's SHA-256; on SQLite nothing more is needed, a transaction holding the database's write
 * lock from its BEGIN (storage/connect.ts).
 */
export async function holdNamedLock(trx: Executor, dialect: DialectName, name: string): Promise<void> {
  if (dialect !== 'postgres') return;
  const key = createHash('sha256').update(name).digest().readBigInt64BE(0);
  await sql`select pg_advisory_xact_lock(${key.toString()}::bigint)`.execute(trx);
}

export function createTransactionRunner(db: Kysely<Database>, dialect: DialectName): TransactionRunner {
  if (dialect === 'postgres') {
    return (work, options) =>
      retryingConflicts(() => (options?.oneStatement === true ? work(db) : db.transaction().execute(work)));
  }
  const group = new GroupCommit(db);
  return (work, options) => group.run(work, options?.oneStatement === true);
}

async function retryingConflicts<T>(attempt: () => Promise<T>): Promise<T> {
  for (let run = 1; ; run += 1) {
    try {
      return await attempt();
    } catch (error) {
      // A stale prepared plan aborted the transaction before anything of it could be kept: the
      // statement is prepared afresh on the next run (storage/connect.ts).
      if (run >= MAX_ATTEMPTS || !(isRetryableConflict(error) || isStalePlan(error))) throw error;
      // A short pause of growing, varied length, so the transactions that met do not meet again.
      await new Promise((resolve) => setTimeout(resolve, run * (5 + Math.floor(Math.random() * 20))));
    }
  }
}

class GroupCommit {
  readonly #db: Kysely<Database>;
  #queue: Unit[] = [];
  #scheduled = false;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  run<T>(work: (trx: Executor) => Promise<T>, oneStatement: boolean): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, oneStatement, resolve: resolve as (value: unknown) => void, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        // Let the requests that arrived in this turn of the event loop join the same commit.
        setImmediate(() => void this.#drain());
      }
    });
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0) {
        const group = this.#queue.splice(0, MAX_GROUP);
        await this.#commit(group);
      }
    } finally {
      this.#scheduled = false;
      if (this.#queue.length > 0) {
        this.#scheduled = true;
        setImmediate(() => void this.#drain());
      }
    }
  }

  async #commit(group: Unit[]): Promise<void> {
    let trx: Awaited<ReturnType<ReturnType<Kysely<Database>['startTransaction']>['execute']>>;
    try {
      trx = await this.#db.startTransaction().execute();
    } catch (error) {
      for (const unit of group) unit.reject(error);
      return;
    }
    const outcomes: Outcome[] = [];
    try {
      for (const [index, unit] of group.entries()) {
        if (unit.oneStatement) {
          try {
            outcomes.push({ ok: true, value: await unit.work(trx) });
          } catch (error) {
            if (!isStatementUndone(error)) {
              await this.#abandon(trx, group, index, error);
              return;
            }
            outcomes.push({ ok: false, error });
          }
          continue;
        }
        const inner = await trx.savepoint('unit').execute();
        try {
          const value = await unit.work(inner);
          await inner.releaseSavepoint('unit').execute();
          outcomes.push({ ok: true, value });
        } catch (error) {
          await inner.rollbackToSavepoint('unit').execute();
          await inner.releaseSavepoint('unit').execute();
          outcomes.push({ ok: false, error });
        }
      }
      await trx.commit().execute();
    } catch (error) {
      // The commit itself (or savepoint bookkeeping) failed: nothing of this group is durable.
      await trx
        .rollback()
        .execute()
        .catch(() => {});
      for (const unit of group) unit.reject(error);
      return;
    }
    group.forEach((unit, i) => {
      const outcome = outcomes[i] as Outcome;
      if (outcome.ok) unit.resolve(outcome.value);
      else unit.reject(outcome.error);
    });
  }

  /**
   * A unit of one statement failed in a way that may have left part of it in the transaction (or
   * ended the transaction): nothing of the group is kept. Its caller gets the error; the other
   * units, none of them answered yet, go first into the next commit. Running them again is safe
   * for the same reason as on PostgreSQL: a unit uses only its transaction.
   */
  async #abandon(trx: { rollback(): { execute(): Promise<void> } }, group: Unit[], failed: number, error: unknown) {
    await trx
      .rollback()
      .execute()
      .catch(() => {});
    (group[failed] as Unit).reject(error);
    this.#queue.unshift(...group.filter((_, i) => i !== failed));
  }
}

/**
 * A statement SQLite undid by itself, leaving the transaction as it was before it: a broken
 * constraint (unique, not null, foreign key, check), answered `SQLITE_CONSTRAINT_…` under the
 * default conflict resolution (ABORT). No statement or trigger of the schema asks for ROLLBACK.
 */
function isStatementUndone(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT');
}
