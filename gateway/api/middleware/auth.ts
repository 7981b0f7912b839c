/**
 * Route guards: authenticate the caller, count the request against the account's limit and check
 * that the credential may perform the route's operation.
 */
import type { Next } from 'koa';
import { type AlongsideRead, admitRequest } from '../../auth/admission.js';
import { type AuthDeps, checkAccountLimit } from '../../auth/authenticate.js';
import type { ConnectTokenPrincipal, Principal } from '../../auth/principal.js';
import { type CredentialKind, mayPerform, type Operation } from '../../domain/access.js';
import { ApiError } from '../../domain/errors.js';
import type { GatewayContext } from '../context.js';

/**
 * Authenticates the request and counts it against the account's per-minute limit. What an
 * `alongside` read found in the admission's statement is left on `ctx.state.alongside`.
 */
async function admit(deps: AuthDeps, ctx: GatewayContext, alongside?: AlongsideRead): Promise<Principal> {
  const { principal, counted, ...admitted } = await admitRequest(
    deps,
    {
      serviceKey: ctx.get('X-Service-Key') || undefined,
      authorization: ctx.get('Authorization') || undefined,
      connectToken: ctx.get('X-Service-Connect') || undefined,
    },
    ctx.ip,
    alongside,
  );
  ctx.state.principal = principal;
  if (admitted.alongside !== undefined) ctx.state.alongside = admitted.alongside;
  const limit = checkAccountLimit(principal, counted);
  ctx.set('X-RateLimit-Limit', String(limit.limit));
  ctx.set('X-RateLimit-Remaining', String(limit.remaining));
  ctx.set('X-RateLimit-Reset', String(limit.resetSeconds));
  return principal;
}

function credentialOf(principal: Principal): CredentialKind {
  return principal.kind === 'api_key' ? { kind: 'api_key', access: principal.access } : { kind: 'connect_token' };
}

function insufficientScope(principal: Principal, operation: Operation): ApiError {
  const message =
    principal.kind === 'api_key'
      ? `A ${principal.access}-access key may not do this (${operation}).`
      : `A connect token may only create, read, capture, void and refund payments of its domain (${principal.domain.host}); ${operation} needs an API key.`;
  return new ApiError('insufficient_scope', message, { details: { required: operation } });
}

export interface GuardOptions {
  /**
   * The route's first read (one row), run in the admission's statement where it can be
   * (gateway/auth/admission.ts), only for a principal that may perform the operation. The route
   * finds its row on `ctx.state.alongside` then, and otherwise reads it itself.
   */
  readonly alongside?: (ctx: GatewayContext, principal: Principal) => ReturnType<AlongsideRead>;
}

export function requireAuth(deps: AuthDeps, operation: Operation, options: GuardOptions = {}) {
  const { alongside } = options;
  return async function guard(ctx: GatewayContext, next: Next): Promise<void> {
    const read: AlongsideRead | undefined =
      alongside === undefined
        ? undefined
        : (principal) => (mayPerform(credentialOf(principal), operation) ? alongside(ctx, principal) : undefined);
    const principal = await admit(deps, ctx, read);
    if (!mayPerform(credentialOf(principal), operation)) throw insufficientScope(principal, operation);
    return next();
  };
}

/** For routes about the connect token itself: any other credential gets 403 `insufficient_scope`. */
export function requireConnectToken(deps: AuthDeps) {
  return async function guard(ctx: GatewayContext, next: Next): Promise<void> {
    const principal = await admit(deps, ctx);
    if (principal.kind !== 'connect_token') {
      throw new ApiError(
        'insufficient_scope',
        'Only a connect token may call this: send it in the X-Service-Connect header.',
        { details: { required: 'connect_token' } },
      );
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

/** The connect token `requireConnectToken` authenticated; only for routes behind it. */
export function connectTokenOf(ctx: GatewayContext): ConnectTokenPrincipal {
  const principal = principalOf(ctx);
  if (principal.kind !== 'connect_token') throw new Error('route reached without a connect token');
  return principal;
}
