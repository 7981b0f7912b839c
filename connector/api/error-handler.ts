/**
 * The one place a refusal becomes an answer, `{"error": code, "message": text, "request_id": id}`
 * plus the refusal's extra fields; a fault becomes a 500 that tells nothing.
 */
import type { Next } from 'koa';
import { asConnectorError, ConnectorError, errorDetail } from '../errors.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import type { Context } from './request.js';

export function errorHandler(deps: ConnectorDeps) {
  return async function handleErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
      // Answers written by a handler (the webhook target's refusals) carry the request id too.
      const body = ctx.body as Record<string, unknown> | null | undefined;
      if (ctx.status >= 400 && typeof body?.error === 'string' && body.request_id === undefined) {
        ctx.body = { error: body.error, message: body.message, request_id: ctx.state.requestId, ...body };
      }
    } catch (caught) {
      const error = asConnectorError(caught);
      if (error instanceof ConnectorError) {
        if (error.cause !== undefined) {
          deps.logger.warn(
            { request_id: ctx.state.requestId, path: ctx.path, code: error.code, err: errorDetail(error) },
            'store call failed',
          );
        }
        ctx.status = error.status;
        if (typeof error.extra.retry_after === 'number') ctx.set('Retry-After', String(error.extra.retry_after));
        ctx.body = { error: error.code, message: error.message, request_id: ctx.state.requestId, ...error.extra };
        return;
      }
      deps.logger.error(
        { request_id: ctx.state.requestId, err: errorDetail(error), path: ctx.path },
        'connector error',
      );
      ctx.status = 500;
      ctx.body = {
        error: 'internal_error',
        message: 'Something went wrong in the connector; try again.',
        request_id: ctx.state.requestId,
      };
    }
  };
}
