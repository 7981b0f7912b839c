/**
 * The one error path: every failure, ours or Koa's, leaves as the spec's error body
 * `{error, message, request_id, docs_url}` (+ `errors` for 422 and the code's extra keys), with
 * `X-Request-Id`. Unknown faults become a 500 that reveals nothing.
 */
import type { Next } from 'koa';
import type { Logger } from 'pino';
import { isDatabaseUnavailable } from '../../../storage/errors.js';
import { ApiError, ERROR_CODES, type ErrorCode } from '../../domain/errors.js';
import type { GatewayContext } from '../context.js';

export function docsUrl(publicUrl: string, code: ErrorCode): string {
  return `${publicUrl}/docs/errors#${code}`;
}

export function errorBody(error: ApiError, requestId: string, publicUrl: string): Record<string, unknown> {
  return {
    error: error.code,
    message: error.message,
    request_id: requestId,
    docs_url: docsUrl(publicUrl, error.code),
    ...(error.fieldErrors !== undefined ? { errors: error.fieldErrors } : {}),
    ...error.details,
  };
}

/** Koa and its dependencies throw errors with `status`/`expose`; map those to our codes. */
function fromHttpError(error: unknown): ApiError | null {
  if (typeof error !== 'object' || error === null) return null;
  const status = (error as { status?: unknown }).status;
  if (typeof status !== 'number') return null;
  switch (status) {
    case 400:
      return new ApiError('invalid_json', 'The request could not be read.');
    case 404:
      return new ApiError('not_found', 'No such route.');
    case 405: {
      const allow = (error as { headers?: { Allow?: string } }).headers?.Allow;
      return new ApiError('method_not_allowed', 'This route does not accept this method.', {
        headers: allow ? { Allow: allow } : {},
      });
    }
    case 413:
      return new ApiError('payload_too_large', 'The request body is too large.');
    case 415:
      return new ApiError('unsupported_media_type', 'Send the body as application/json.');
    default:
      return null;
  }
}

/** The `Retry-After` of a request refused because the database could not be reached. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** `onRefusal` hears the code of every error answer (the metrics count rate-limit refusals). */
export function errorHandler(publicUrl: string, logger: Logger, onRefusal: (code: ErrorCode) => void = () => {}) {
  return async function handleErrors(ctx: GatewayContext, next: Next): Promise<void> {
    try {
      await next();
      if (ctx.body === undefined || ctx.body === null) {
        if (ctx.status === 404) throw new ApiError('not_found', `No route for ${ctx.method} ${ctx.path}.`);
        if (ctx.status === 405 || ctx.status === 501) {
          throw new ApiError('method_not_allowed', `${ctx.path} does not accept ${ctx.method}.`, {
            headers: { Allow: ctx.response.get('Allow') },
          });
        }
      }
    } catch (caught) {
      let error = caught instanceof ApiError ? caught : fromHttpError(caught);
      if (error === null && isDatabaseUnavailable(caught)) {
        // Not the request's fault and not lasting: the caller retries (a POST with the same
        // Idempotency-Key, so what may have been done is answered, not done twice).
        error = new ApiError('service_unavailable', 'The service cannot reach its database right now. Retry shortly.', {
          headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
        });
      }
      if (error === null) {
        logger.error({ err: caught, request_id: ctx.state.requestId }, 'unhandled error');
        error = new ApiError('internal_error', 'Something went wrong on our side. Quote the request_id to support.');
      } else if (error.status >= 500) {
        logger.error({ err: caught, request_id: ctx.state.requestId }, 'server error');
      }
      ctx.status = ERROR_CODES[error.code].status;
      onRefusal(error.code);
      for (const [name, value] of Object.entries(error.headers)) ctx.set(name, value);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = errorBody(error, ctx.state.requestId, publicUrl);
    }
  };
}
