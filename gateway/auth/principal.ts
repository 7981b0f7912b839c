/**
 * Who a request acts as, once authenticated (authenticate.ts): an API key of one environment, or a
 * platform connect token bound to one domain and platform. Types only, so services that act for a
 * principal need not import how it was authenticated.
 */
import type { KeyAccess } from '../domain/api-keys.js';
import type { ConnectPlatform } from '../domain/connect-tokens.js';
import type { Environment } from '../domain/payment.js';

interface PrincipalBase {
  readonly merchantId: string;
  readonly environment: Environment;
  /** Requests per minute this account may send. */
  readonly rateLimitPerMinute: number;
}

export interface ApiKeyPrincipal extends PrincipalBase {
  readonly kind: 'api_key';
  readonly keyId: string;
  readonly access: KeyAccess;
}

/** A platform plugin's connect token: bound to one domain of the merchant and one platform. */
export interface ConnectTokenPrincipal extends PrincipalBase {
  readonly kind: 'connect_token';
  readonly tokenId: string;
  readonly domain: { readonly id: string; readonly host: string };
  readonly platform: ConnectPlatform;
}

export type Principal = ApiKeyPrincipal | ConnectTokenPrincipal;
