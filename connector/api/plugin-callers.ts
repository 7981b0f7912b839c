/**
 * Who a plugin-facing route acts for: the plugin's call, its connect token accepted by the gateway
 * (asked before anything about the connection is read or answered: plugin-auth.ts
 * authenticatePluginCall), with a cap per client address on how often an unknown token makes the
 * connector ask (introspection-limit.ts).
 */
import {
  authenticatePluginCall,
  MAY_USE_RECENT_ANSWER,
  type PluginCaller,
  type TokenCheck,
} from '../connections/plugin-auth.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import type { StoreConnection } from '../storage/connection.repository.js';
import { createIntrospectionLimit } from './introspection-limit.js';
import type { Context } from './request.js';

export interface PluginCallers {
  /**
   * The plugin's call. The connection's own routes (its health, new keys, removal) always ask now;
   * orders, refunds and reconciliation take an acceptance of a few seconds ago.
   */
  caller(ctx: Context, check?: TokenCheck): Promise<PluginCaller>;
  /** The connection of the plugin's call. */
  connection(ctx: Context, check?: TokenCheck): Promise<StoreConnection>;
}

export function createPluginCallers(deps: ConnectorDeps): PluginCallers {
  const admitIntrospection = createIntrospectionLimit();
  async function caller(ctx: Context, check: TokenCheck = MAY_USE_RECENT_ANSWER): Promise<PluginCaller> {
    const token = ctx.get('X-Service-Connect') || undefined;
    return authenticatePluginCall(deps, token, () => admitIntrospection(ctx.ip), check);
  }
  return {
    caller,
    async connection(ctx, check = MAY_USE_RECENT_ANSWER) {
      return (await caller(ctx, check)).connection;
    },
  };
}
