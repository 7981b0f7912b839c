/**
 * The connector's refusals. One class, one middleware (connector/api/app.ts) writes the body
 * `{"error": code, "message": text}` (plus `errors` for a validation failure). Codes and statuses
 * are listed in docs/connector.md.
 */
export class ConnectorError extends Error {
  override readonly name = 'ConnectorError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export function validationFailed(errors: Record<string, string[]>): ConnectorError {
  return new ConnectorError(422, 'validation_failed', 'Some fields are missing or malformed.', { errors });
}
