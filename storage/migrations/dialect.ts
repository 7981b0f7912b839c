/**
 * What the migrations ask of the database they run on, where the two dialects differ.
 */
import { type Kysely, sql } from 'kysely';

/**
 * Whether the database is SQLite. Asked with PostgreSQL's `version()`, which SQLite lacks: a failed
 * statement leaves a SQLite transaction usable, whereas it would abort PostgreSQL's.
 */
export async function isSqlite(db: Kysely<unknown>): Promise<boolean> {
  try {
    await sql`select version()`.execute(db);
    return false;
  } catch {
    return true;
  }
}
