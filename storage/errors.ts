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
