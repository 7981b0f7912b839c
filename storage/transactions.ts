/**
 * Running work in a transaction. On PostgreSQL each unit of work is its own transaction. On SQLite,
 * where one connection serves the whole process and each commit writes every page it touched to
 * the write-ahead log, units that arrive together are committed together ("group commit"): one
 * BEGIN, each unit inside its own savepoint, one COMMIT. A unit that fails rolls back to its
 * savepoint and only its caller sees the error; the others still commit. A caller's promise
 * settles only after the COMMIT that made its unit durable, so nobody is answered early.
 */
import type { Kysely } from 'kysely';
import type { Database, DialectName, Executor } from './database.js';

export type TransactionRunner = <T>(work: (trx: Executor) => Promise<T>) => Promise<T>;

/** Most units one SQLite commit carries; later arrivals wait for the next commit. */
const MAX_GROUP = 64;

interface Unit {
  work: (trx: Executor) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export function createTransactionRunner(db: Kysely<Database>, dialect: DialectName): TransactionRunner {
  if (dialect === 'postgres') return (work) => db.transaction().execute(work);
  const group = new GroupCommit(db);
  return (work) => group.run(work);
}

class GroupCommit {
  readonly #db: Kysely<Database>;
  #queue: Unit[] = [];
  #scheduled = false;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  run<T>(work: (trx: Executor) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
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
      for (const unit of group) {
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
}
