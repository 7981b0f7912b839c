/**
 * The per-minute rate-limit counters on PostgreSQL (docs/decisions.md "Performance on PostgreSQL")
 * become an UNLOGGED table: every authenticated request adds one to its account's row, and a
 * logged write would make each of those a commit that waits for the disk, the account's requests
 * queueing on its row one flush after another. An unlogged table writes no WAL, so a request's
 * count commits at once. What it gives up: after a crash of the server (or on a standby promoted by
 * a failover) the counters start again from zero, which costs a limit at most one minute of its
 * window; nothing else lives in the table. SQLite keeps the counters in the process's memory
 * (gateway/limits/rate-limiter.ts), so there is nothing to change there.
 */
import { type Kysely, sql } from 'kysely';
import { isSqlite } from './dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (await isSqlite(db)) return;
  await sql`alter table rate_limit_counters set unlogged`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (await isSqlite(db)) return;
  await sql`alter table rate_limit_counters set logged`.execute(db);
}
