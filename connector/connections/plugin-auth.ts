/**
 * Who is calling the connector's plugin-facing API: the connect token in `X-Service-Connect`,
 * checked with the gateway before anything about its connection is read or answered, and the
 * connection it belongs to. A refusal is one 401 that tells nothing about any connection.
 */
import { toStoredInstant } from '../../gateway/domain/clock.js';
import { sha256Hex } from '../../gateway/runtime/hashing.js';
import { ConnectorError } from '../errors.js';
import { type ConnectTokenInfo, GatewayError } from '../gateway-client/client.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import {
  findConnection,
  findConnectionByTokenHash,
  type StoreConnection,
  updateConnection,
} from '../storage/connection.repository.js';
import { connectionEnded } from '../storage/connection.table.js';
import { gatewayOf } from './connection-access.js';
import { statusWithToken } from './connection-health.js';

/** Asks the gateway what the token is bound to; a token it refuses is `invalid_connect_token`. */
export async function introspectToken(deps: ConnectorDeps, token: string): Promise<ConnectTokenInfo> {
  try {
    return await deps.gateway(token).connectToken();
  } catch (error) {
    throw fromGatewayError(error);
  }
}

/**
 * A gateway refusal as the connector passes it on; no answer becomes 502 `gateway_unavailable`, a
 * refused token the one 401 of {@link refusedToken}.
 */
export function fromGatewayError(error: unknown): unknown {
  if (!(error instanceof GatewayError)) return error;
  if (error.status === 401) return refusedToken();
  if (error.status === 0 || error.status >= 500) {
    return new ConnectorError(502, 'gateway_unavailable', 'The payment gateway did not answer; try again shortly.');
  }
  return new ConnectorError(error.status, error.code, error.message);
}

/** A plugin's call whose connect token the gateway accepts, and the connection it belongs to. */
export interface PluginCaller {
  readonly connection: StoreConnection;
  /** `unreachable`: the gateway did not answer, and the connector's last word from it was not a refusal. */
  readonly gateway: 'ok' | 'unreachable';
}

/** The one refusal of a token the gateway does not accept: it tells nothing about any connection. */
export function refusedToken(): ConnectorError {
  return new ConnectorError(
    401,
    'invalid_connect_token',
    'The gateway refused this connect token: it is unknown, revoked or has expired.',
  );
}

/** The connect token of a plugin's call, or 401 when there is none. */
export function requireToken(token: string | undefined): string {
  const trimmed = token?.trim() ?? '';
  if (trimmed === '') {
    throw new ConnectorError(401, 'invalid_connect_token', 'Send the connect token in the X-Service-Connect header.');
  }
  return trimmed;
}

/**
 * Authenticates a plugin's call: the connect token is checked with the gateway
 * (`GET /api/v1/connect_token`) on every call, before anything about its connection is read or
 * answered, so a token the gateway refuses (unknown, revoked, expired) gets 401
 * `invalid_connect_token` on every route, whatever its connection's state.
 *
 * - Unknown here (or its connection ended): 401 when the gateway refuses it, else 404
 *   `connection_not_found` (a good token never registered).
 * - A registered token the gateway refuses: 401, and the connection is marked `token_revoked`.
 *   One it accepts again after a refusal gets its connection back to its earlier status.
 * - The gateway does not answer (or limits the connector, 429): the call goes on with the
 *   connection as known, unless its last word was a refusal (`token_revoked`): then 401.
 *
 * With `MAY_USE_RECENT_ANSWER`, an acceptance stands for a few seconds (accepted-tokens.ts): a
 * plugin's burst of order calls asks the gateway once, since each question counts in the merchant's
 * per-minute limit there. Any call the gateway refuses marks the connection `token_revoked`, which
 * is asked again at once.
 *
 * `beforeAskingGateway` runs before the gateway is asked about a token that is unknown here or was
 * refused last time (the caller limits how often one address may do that, so bad tokens cannot
 * spend the gateway's per-address limit on failed authentications for every store).
 */
export async function authenticatePluginCall(
  deps: ConnectorDeps,
  rawToken: string | undefined,
  beforeAskingGateway: () => void = () => {},
  check: TokenCheck = ASK_GATEWAY_NOW,
): Promise<PluginCaller> {
  const token = requireToken(rawToken);
  const connection = await findConnectionByTokenHash(deps.db, sha256Hex(token));
  if (connection === undefined || connectionEnded(connection.status)) {
    beforeAskingGateway();
    await introspectToken(deps, token);
    throw new ConnectorError(
      404,
      'connection_not_found',
      'This connect token has no store connection yet: register the store with POST /v1/connections.',
    );
  }
  if (connection.status === 'token_revoked') beforeAskingGateway();
  return checkConnectionToken(deps, connection, check);
}

/** Whether a plugin call may take the gateway's acceptance of its token of a few seconds ago. */
export type TokenCheck = { readonly recentAnswer: boolean };

export const ASK_GATEWAY_NOW: TokenCheck = { recentAnswer: false };

export const MAY_USE_RECENT_ANSWER: TokenCheck = { recentAnswer: true };

/**
 * Asks the gateway whether it still accepts the connection's connect token (see
 * {@link authenticatePluginCall}): 401 `invalid_connect_token` when it refuses it now, or did the
 * last time and does not answer now.
 */
export async function checkConnectionToken(
  deps: ConnectorDeps,
  connection: StoreConnection,
  check: TokenCheck = ASK_GATEWAY_NOW,
): Promise<PluginCaller> {
  // Accepted a moment ago (accepted-tokens.ts), and refused by no call since: not asked again.
  const nowMs = deps.clock.nowMs();
  const recent = check.recentAnswer && deps.acceptedTokens.accepted(connection.token_hash, nowMs);
  if (connection.status !== 'token_revoked' && recent) {
    return { connection, gateway: 'ok' };
  }
  try {
    // Through watchGateway: a 401 marks the connection `token_revoked`.
    await gatewayOf(deps, connection).connectToken();
  } catch (error) {
    deps.acceptedTokens.forget(connection.token_hash);
    if (!(error instanceof GatewayError)) throw error;
    if (error.status === 401) throw refusedToken();
    if (!error.retryable) throw fromGatewayError(error);
    if (connection.status === 'token_revoked') throw refusedToken();
    return { connection, gateway: 'unreachable' };
  }
  deps.acceptedTokens.remember(connection.token_hash, nowMs);
  if (connection.status !== 'token_revoked') return { connection, gateway: 'ok' };
  // The gateway accepts the token again (a refusal it no longer makes): the connection is back.
  await updateConnection(deps.db, connection.id, {
    status: statusWithToken(connection),
    updated_at: toStoredInstant(deps.clock.nowMs()),
  });
  return { connection: (await findConnection(deps.db, connection.id)) ?? connection, gateway: 'ok' };
}
