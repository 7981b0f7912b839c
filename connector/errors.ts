/**
 * The connector's refusals. One class, one middleware (connector/api/error-handler.ts) writes the body
 * `{"error": code, "message": text, "request_id": id}` (plus `errors` for a validation failure).
 * Codes and statuses are listed in docs/connector.md.
 */
import { PlatformError } from './platforms/platform.js';

export class ConnectorError extends Error {
  override readonly name = 'ConnectorError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function validationFailed(errors: Record<string, string[]>): ConnectorError {
  return new ConnectorError(422, 'validation_failed', 'Some fields are missing or malformed.', { errors });
}

/**
 * What callers are told about any failed store call, whatever went wrong: a refused connection, a
 * timeout, a private address, an error answer. Telling these apart would let a token holder probe
 * the networks the connector can reach; the detail (the cause) goes to the connector's log only.
 */
export const STORE_UNREACHABLE_MESSAGE =
  "The store could not be reached. Try again shortly; if it keeps failing, connect the store again from the plugin's settings.";

export function storeUnreachable(cause: PlatformError): ConnectorError {
  return new ConnectorError(502, 'platform_unavailable', STORE_UNREACHABLE_MESSAGE, {}, { cause });
}

export const STORE_UNAUTHORIZED_MESSAGE =
  "The store refused the connector's REST key; reconnect from the plugin settings.";

export function storeUnauthorized(cause?: PlatformError): ConnectorError {
  return new ConnectorError(409, 'store_unauthorized', STORE_UNAUTHORIZED_MESSAGE, {}, cause ? { cause } : {});
}

/** True when the store refused the connector's credentials (401/403). */
export function isCredentialRefusal(error: unknown): error is PlatformError {
  return error instanceof PlatformError && (error.status === 401 || error.status === 403);
}

/** A failed store call as the connector answers it; any other error as it is. */
export function asConnectorError(error: unknown): unknown {
  if (isCredentialRefusal(error)) return storeUnauthorized(error);
  return error instanceof PlatformError ? storeUnreachable(error) : error;
}

/** What the connector's log says about an error: a failed store call with its detail. */
export function errorDetail(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? `${error.message} (${error.cause.message})` : error.message;
}
