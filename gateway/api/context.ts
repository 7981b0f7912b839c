import type { ParameterizedContext } from 'koa';
import type { AlongsideRow } from '../../storage/rate-limit.repository.js';
import type { Principal } from '../auth/principal.js';

export interface GatewayState {
  requestId: string;
  principal?: Principal;
  /** The row of the route's first read, when it ran in the admission's statement (middleware/auth.ts). */
  alongside?: AlongsideRow;
  /** The request body exactly as received, kept for routes that verify signatures. */
  rawBody?: Buffer;
}

export type GatewayContext = ParameterizedContext<GatewayState>;
