import { CompiledQuery } from 'kysely';
import type { Executor } from './database.js';

/** Counts one hit in a bucket's window and answers the window's total, atomically. */
export async function hitCounter(db: Executor, bucket: string, windowMinute: number): Promise<number> {
  const row = await db
    .insertInto('rate_limit_counters')
    .values({ bucket, window_minute: windowMinute, hits: 1 })
    .onConflict((oc) =>
      oc.columns(['bucket', 'window_minute']).doUpdateSet((eb) => ({ hits: eb('rate_limit_counters.hits', '+', 1) })),
    )
    .returning('hits')
    .executeTakeFirstOrThrow();
  return Number(row.hits);
}

export async function readCounter(db: Executor, bucket: string, windowMinute: number): Promise<number> {
  const row = await db
    .selectFrom('rate_limit_counters')
    .select('hits')
    .where('bucket', '=', bucket)
    .where('window_minute', '=', windowMinute)
    .executeTakeFirst();
  return row === undefined ? 0 : Number(row.hits);
}

export async function deleteCountersBefore(db: Executor, windowMinute: number): Promise<void> {
  await db.deleteFrom('rate_limit_counters').where('window_minute', '<', windowMinute).execute();
}

/** What the start of an authenticated request reads and counts in one statement (PostgreSQL). */
export interface AdmissionCounts {
  /** The hit bucket's count in the window, this hit included. */
  readonly hits: number;
  /** The peeked bucket's count in the window (not counted). */
  readonly peeked: number;
  /** The account version (storage/account-version.repository.ts). */
  readonly accountVersion: string;
}

type RowReader = (sql: string, params: readonly unknown[]) => Promise<unknown[] | undefined>;

/** The admission's columns, named apart from any table's. */
const HITS = 'admission_hits';
const PEEKED = 'admission_peeked';
const VERSION = 'admission_version';
const FOUND = 'admission_alongside_found';

/**
 * The admission's statement, its three parameters from `$first` on: the count of the first goes
 * up, the second's is read, and the account version with them. The reads see the tables as they
 * were when the statement began (the count of another bucket: unaffected). With `alongside` (a read
 * of at most one row), that read runs in the statement too and its columns follow the admission's.
 */
function admissionText(first: number, alongside?: string): string {
  const [hit, peek, minute] = [`$${first}`, `$${first + 1}`, `$${first + 2}`];
  const counted = `with hit as (
  insert into rate_limit_counters (bucket, window_minute, hits) values (${hit}, ${minute}, 1)
  on conflict (bucket, window_minute) do update set hits = rate_limit_counters.hits + 1
  returning hits
)`;
  const counts = `select (select hits from hit) as "${HITS}",
  coalesce((select hits from rate_limit_counters where bucket = ${peek} and window_minute = ${minute}), 0) as "${PEEKED}",
  (select version from account_version where id = 1) as "${VERSION}"`;
  if (alongside === undefined) return `${counted}\n${counts}`;
  return `${counted}, alongside as (select true as "${FOUND}", q.* from (${alongside}) as q)
${counts},
  alongside.*
from (select 1) as admission left join alongside on true`;
}

const ADMIT = admissionText(1);

const TAKE_BACK =
  'update rate_limit_counters set hits = hits - 1 where bucket = $1 and window_minute = $2 and hits > 0';

/** Counts one hit on `hitBucket`, reads `peekBucket` and the account version: one PostgreSQL statement. */
export async function admitCounting(
  read: RowReader,
  hitBucket: string,
  peekBucket: string,
  windowMinute: number,
): Promise<AdmissionCounts> {
  const row = await read(ADMIT, [hitBucket, peekBucket, windowMinute]);
  if (row === undefined) throw new Error('the admission read answered no row');
  return { hits: Number(row[0]), peeked: Number(row[1]), accountVersion: String(row[2]) };
}

/** A row read in the admission's statement: the row, or undefined when the read found none. */
export interface AlongsideRow {
  readonly row: Record<string, unknown> | undefined;
}

/** Texts of the admission with a read, by the read's text: a few shapes, each composed once. */
const composed = new Map<string, string>();
const COMPOSED_TEXTS = 64;

/** The admission with `read` (parameters `$1`…`$n`) in it: the read's parameters first, the admission's after. */
function admissionWith(read: CompiledQuery): string {
  let text = composed.get(read.sql);
  if (text === undefined) {
    text = admissionText(read.parameters.length + 1, read.sql);
    if (composed.size < COMPOSED_TEXTS) composed.set(read.sql, text);
  }
  return text;
}

/**
 * `admitCounting` with `read` (a read of at most one row) in the same statement (PostgreSQL): one
 * round trip for a request's admission and its first read. Sent through the query builder's
 * connection, so it is prepared by name and survives a migration that adds a column under the read.
 */
export async function admitCountingAlongside(
  db: Executor,
  hitBucket: string,
  peekBucket: string,
  windowMinute: number,
  read: CompiledQuery,
): Promise<AdmissionCounts & AlongsideRow> {
  const { rows } = await db.executeQuery<Record<string, unknown>>(
    CompiledQuery.raw(admissionWith(read), [...read.parameters, hitBucket, peekBucket, windowMinute]),
  );
  const row = rows[0];
  if (row === undefined) throw new Error('the admission read answered no row');
  return {
    hits: Number(row[HITS]),
    peeked: Number(row[PEEKED]),
    accountVersion: String(row[VERSION]),
    row: row[FOUND] === true ? row : undefined,
  };
}

/** Takes back one hit counted by `admitCounting` in `windowMinute` (PostgreSQL). */
export async function takeBackHit(read: RowReader, bucket: string, windowMinute: number): Promise<void> {
  await read(TAKE_BACK, [bucket, windowMinute]);
}
