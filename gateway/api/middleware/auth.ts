/**
 * Route guard: authenticates the caller, counts the request against the account's limit and
 * checks that the credential may perform the route's operation.
 */
import type { Next } from 'koa';
import { type AuthDeps, authenticate, enforceAccountLimit, type Principal } from '../../auth/authenticate.js';
import { mayPerform, type Operation } from '../../domain/access.js';
import { ApiError } from '../../domain/errors.js';
import type { GatewayContext } from '../context.js';

export function requireAuth(deps: AuthDeps, operation: Operation) {
  return async function guard(ctx: GatewayContext, next: Next): Promise<void> {
    const principal = await authenticate(
      deps,
      {
        serviceKey: ctx.get('X-Service-Key') || undefined,
        authorization: ctx.get('Authorization') || undefined,
        connectToken: ctx.get('X-Service-Connect') || undefined,
      },
      ctx.ip,
    );
    ctx.state.principal = principal;
    const limit = await enforceAccountLimit(deps, principal);
    ctx.set('X-RateLimit-Limit', String(limit.limit));
    ctx.set('X-RateLimit-Remaining', String(limit.remaining));
    ctx.set('X-RateLimit-Reset', String(limit.resetSeconds));
    if (!mayPerform({ kind: 'api_key', access: principal.access }, operation)) {
      throw new ApiError('insufficient_scope', `A ${principal.access}-access key may not do this (${operation}).`, {
        details: { required: operation },
      });
    }
    return next();
  };
}

/** The caller `requireAuth` authenticated; only for routes behind it. */
export function principalOf(ctx: GatewayContext): Principal {
  const principal = ctx.state.principal;
  if (principal === undefined) throw new Error('route reached without authentication');
  return principal;
}
