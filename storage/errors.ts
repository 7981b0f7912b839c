/** Recognises a unique-constraint violation from either database driver. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** The name of the violated constraint or index, when the driver reports it. */
export function violatedConstraint(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const pgConstraint = (error as { constraint?: unknown }).constraint;
  if (typeof pgConstraint === 'string') return pgConstraint;
  const message = (error as { message?: unknown }).message;
  if (typeof message === 'string') {
    const columns = /UNIQUE constraint failed: (.+)$/.exec(message);
    if (columns) return columns[1] ?? null;
  }
  return null;
}

/** Node's codes for a connection that could not be made or was lost. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/** PostgreSQL's SQLSTATEs for a server that is not there for us now (besides class 08, connection exception). */
const PG_UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '53300', '53400']);

/** SQLite's codes for a database that is locked past the busy timeout or cannot be opened or read. */
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR|FULL|READONLY)/;

/** What the `pg` driver and its pool say when a connection is lost or cannot be had in time. */
const PG_CONNECTION_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly|the database system is (starting up|shutting down)/i;

/**
 * Whether `error` means the database cannot be reached or used right now (as opposed to a fault in
 * the request or the code): the server refused or dropped the connection, is shutting down or full,
 * the pool could not hand out a connection in time, or SQLite stayed locked or unreadable. Such a
 * request may be retried as it is.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current !== null && current !== undefined && depth < 5; depth++) {
    if (typeof current !== 'object') return false;
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string') {
      if (CONNECTION_CODES.has(code) || PG_UNAVAILABLE.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
      if (SQLITE_UNAVAILABLE.test(code)) return true;
    }
    if (typeof message === 'string' && PG_CONNECTION_MESSAGES.test(message)) return true;
    current = cause;
  }
  return false;
}
