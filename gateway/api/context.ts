import type { ParameterizedContext } from 'koa';
import type { Principal } from '../auth/principal.js';

export interface GatewayState {
  requestId: string;
  principal?: Principal;
  /** The request body exactly as received, kept for routes that verify signatures. */
  rawBody?: Buffer;
}

export type GatewayContext = ParameterizedContext<GatewayState>;
