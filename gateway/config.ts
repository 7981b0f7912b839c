/**
 * Service configuration, read once from the environment (README "Configuration" lists every
 * variable). Nothing else reads `process.env`.
 */
import { isIP } from 'node:net';
import { DEFAULT_DATABASE_URL } from '../storage/connect.js';
import type { BillingConfig } from './domain/billing.js';
import { MAX_VELOCITY_LIMIT, MAX_VELOCITY_WINDOW_MINUTES } from './domain/payment-limits.js';
import type { MetricsExposure } from './observability/metrics-endpoint.js';

export interface Config {
  readonly port: number;
  readonly host: string;
  /** Origin buyers and clients reach the service at, without a trailing slash. */
  readonly publicUrl: string;
  readonly databaseUrl: string;
  readonly smtpUrl: string | undefined;
  /** Signs tokens; when unset one is generated on first start and kept in the database. */
  readonly gatewaySecret: string | undefined;
  readonly allowPrivateWebhooks: boolean;
  /**
   * Name servers domain verification asks (`GATEWAY_DNS_SERVERS`, `host` or `host:port`, IPv6 as
   * `[addr]:port`); empty: the system's.
   */
  readonly dnsServers: readonly string[];
  readonly manualClock: boolean;
  /** Requests per minute per account unless the operator set another limit for the merchant. */
  readonly rateLimitPerMinute: number;
  /** Failed authentications per minute per client address. */
  readonly authFailuresPerMinute: number;
  /**
   * log2 of scrypt's N for new dashboard passwords (`GATEWAY_PASSWORD_HASH_COST`, 16 by default: 64 MiB
   * and a few hundred milliseconds a hash). Stored hashes carry their own cost, so changing it never
   * locks anyone out. Lower only where passwords protect nothing (the test suite runs with 10).
   */
  readonly passwordHashCost: number;
  /** Largest amount (AMD) one payment may carry; above it `amount_limit_exceeded`. A domain may set a lower one. */
  readonly maxPaymentAmount: number;
  /** Default payments per buyer per window on one domain (0: off); above it `velocity_exceeded`. */
  readonly velocityLimit: number;
  /** Default velocity window in minutes. */
  readonly velocityWindowMinutes: number;
  /** Largest accepted request body in bytes. */
  readonly bodyLimitBytes: number;
  /** Trust `X-Forwarded-For` / `X-Forwarded-Proto` from a reverse proxy. */
  readonly trustProxy: boolean;
  readonly logLevel: string;
  readonly billing: BillingConfig;
  /** Who may read `/metrics` (`GATEWAY_METRICS_TOKEN`, `GATEWAY_METRICS_PORT`); neither: nobody. */
  readonly metrics: MetricsExposure;
}

export type { BillingConfig } from './domain/billing.js';

/** scrypt's log2 N for new passwords unless `GATEWAY_PASSWORD_HASH_COST` says otherwise. */
export const DEFAULT_PASSWORD_HASH_COST = 16;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Readonly<Record<string, string | undefined>>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number (got "${raw}")`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max} (got ${value})`);
  return value;
}

function quantities(env: Env, name: string, fallback: readonly number[]): readonly number[] {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const parts = raw.split(',').map((part) => part.trim());
  if (parts.some((part) => !/^\d+$/.test(part) || Number(part) < 1 || Number(part) > 1_000_000)) {
    throw new ConfigError(`${name} must be a comma-separated list of quantities from 1 to 1000000 (got "${raw}")`);
  }
  return [...new Set(parts.map(Number))].sort((a, b) => a - b);
}

function textLines(env: Env, name: string): readonly string[] {
  const raw = env[name];
  if (raw === undefined) return [];
  return raw
    .split('|')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

function dnsServers(env: Env, name: string): readonly string[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return [];
  return raw.split(',').map((part) => {
    const server = part.trim();
    const match = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(server) ?? /^([^:]+)(?::(\d{1,5}))?$/.exec(server);
    const address = match?.[1] ?? server;
    const port = match?.[2] === undefined ? 53 : Number(match[2]);
    if (isIP(address) === 0 || port < 1 || port > 65535) {
      throw new ConfigError(`${name} must list IP addresses, each with an optional :port (got "${server}")`);
    }
    return server;
  });
}

/** Shortest metrics token accepted: a guessable token would make `/metrics` public. */
export const MIN_METRICS_TOKEN_LENGTH = 16;

/**
 * `<PREFIX>_METRICS_TOKEN` and `<PREFIX>_METRICS_PORT` (0: any free port, for tests), shared by the
 * gateway and the connector.
 */
export function metricsExposure(env: Env, prefix: 'GATEWAY' | 'CONNECTOR'): MetricsExposure {
  const tokenName = `${prefix}_METRICS_TOKEN`;
  const token = env[tokenName]?.trim() || undefined;
  if (token !== undefined && (token.length < MIN_METRICS_TOKEN_LENGTH || /\s/.test(token))) {
    throw new ConfigError(`${tokenName} must be at least ${MIN_METRICS_TOKEN_LENGTH} characters without spaces`);
  }
  const portName = `${prefix}_METRICS_PORT`;
  const rawPort = env[portName];
  const port = rawPort === undefined || rawPort === '' ? undefined : integer(env, portName, 0, 0, 65535);
  return { token, port };
}

function flag(env: Env, name: string): boolean {
  const raw = env[name];
  return raw === '1' || raw === 'true';
}

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const rawPublicUrl = env.PUBLIC_URL && env.PUBLIC_URL !== '' ? env.PUBLIC_URL : `http://localhost:${port}`;
  let publicUrl: string;
  try {
    const parsed = new URL(rawPublicUrl);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http');
    publicUrl = `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
  } catch {
    throw new ConfigError(`PUBLIC_URL must be an http(s) URL (got "${rawPublicUrl}")`);
  }
  const clock = env.GATEWAY_CLOCK;
  if (clock !== undefined && clock !== '' && clock !== 'manual' && clock !== 'system') {
    throw new ConfigError(`GATEWAY_CLOCK must be "manual" or unset (got "${clock}")`);
  }
  const secret = env.GATEWAY_SECRET;
  if (secret !== undefined && secret !== '' && secret.length < 32) {
    throw new ConfigError('GATEWAY_SECRET must be at least 32 characters');
  }
  return {
    port,
    host: env.HOST && env.HOST !== '' ? env.HOST : '127.0.0.1',
    publicUrl,
    databaseUrl: env.DATABASE_URL && env.DATABASE_URL !== '' ? env.DATABASE_URL : DEFAULT_DATABASE_URL,
    smtpUrl: env.SMTP_URL && env.SMTP_URL !== '' ? env.SMTP_URL : undefined,
    gatewaySecret: secret && secret !== '' ? secret : undefined,
    allowPrivateWebhooks: flag(env, 'GATEWAY_ALLOW_PRIVATE_WEBHOOKS'),
    dnsServers: dnsServers(env, 'GATEWAY_DNS_SERVERS'),
    manualClock: clock === 'manual',
    rateLimitPerMinute: integer(env, 'GATEWAY_RATE_LIMIT_PER_MINUTE', 60, 1, 10_000_000),
    passwordHashCost: integer(env, 'GATEWAY_PASSWORD_HASH_COST', DEFAULT_PASSWORD_HASH_COST, 10, 20),
    authFailuresPerMinute: 120,
    maxPaymentAmount: integer(env, 'GATEWAY_MAX_PAYMENT_AMOUNT', 5_000_000, 1, Number.MAX_SAFE_INTEGER),
    velocityLimit: integer(env, 'GATEWAY_VELOCITY_LIMIT', 10, 0, MAX_VELOCITY_LIMIT),
    velocityWindowMinutes: integer(env, 'GATEWAY_VELOCITY_WINDOW_MINUTES', 60, 1, MAX_VELOCITY_WINDOW_MINUTES),
    bodyLimitBytes: 64 * 1024,
    trustProxy: flag(env, 'TRUST_PROXY'),
    logLevel: env.LOG_LEVEL && env.LOG_LEVEL !== '' ? env.LOG_LEVEL : 'info',
    metrics: metricsExposure(env, 'GATEWAY'),
    billing: {
      transactionPriceAmd: integer(env, 'GATEWAY_PRICE_TRANSACTION_AMD', 20, 0, 1_000_000),
      receiptPriceAmd: integer(env, 'GATEWAY_PRICE_RECEIPT_AMD', 10, 0, 1_000_000),
      freeBelowAmd: integer(env, 'GATEWAY_FREE_BELOW_AMD', 500, 0, Number.MAX_SAFE_INTEGER),
      graceUnits: integer(env, 'GATEWAY_GRACE_UNITS', 20, 0, 1_000_000),
      signupGrant: integer(env, 'GATEWAY_SIGNUP_GRANT', 50, 0, 1_000_000),
      minPurchase: integer(env, 'GATEWAY_MIN_PURCHASE', 100, 1, 1_000_000),
      presetQuantities: quantities(env, 'GATEWAY_PRESET_QUANTITIES', [100, 500, 1000, 5000]),
      bankTransferDetails: textLines(env, 'GATEWAY_BANK_TRANSFER_DETAILS'),
    },
  };
}
