/**
 * Starts a real gateway (HTTP server on 127.0.0.1, real database of the chosen dialect, manual
 * clock) for API tests, with helpers to set up accounts and to call the API.
 */
import type { Router } from '@koa/router';
import type { Logger } from 'pino';
import { expect } from 'vitest';
import type { GatewayState } from '../../gateway/api/context.js';
import { type Config, loadConfig } from '../../gateway/config.js';
import { ManualClock } from '../../gateway/domain/clock.js';
import type { RateLimiter } from '../../gateway/limits/rate-limiter.js';
import { createApiKey } from '../../gateway/merchants/api-keys.service.js';
import { setProcessorEnabled } from '../../gateway/merchants/domain-processors.service.js';
import type { VerificationOptions } from '../../gateway/merchants/domain-verification.service.js';
import { addDomain } from '../../gateway/merchants/domains.service.js';
import { type CreateMerchantInput, createMerchant } from '../../gateway/merchants/merchant.service.js';
import type { CounterpartLimits } from '../../gateway/processors/counterparts.js';
import type { ProcessorHttp } from '../../gateway/processors/http.js';
import type { Deps } from '../../gateway/runtime/deps.js';
import type { HttpTimeouts } from '../../gateway/runtime/http-timeouts.js';
import { createLogger } from '../../gateway/runtime/logger.js';
import { type Gateway, startGateway } from '../../gateway/runtime/start.js';
import type { DialectName } from '../../storage/database.js';
import { watchGatewayContract } from './contract.js';
import { freshDatabase, type TestDatabase } from './databases.js';
import { type ApiResponse, type RequestOptions, requestJson } from './http.js';

/** The Idram settings of `liveMerchant`'s domain (no Idram is reached: its page is never opened). */
export const LIVE_MERCHANT_IDRAM = { rec_account: '110000601', secret_key: 'idram-secret-key-for-tests' } as const;

/**
 * Enables Idram on a domain with `LIVE_MERCHANT_IDRAM`: a live processor, so live keys may take
 * payments there (the sandbox never pays a live payment).
 */
export async function enableLiveProcessor(deps: Deps, merchantId: string, host: string): Promise<void> {
  await setProcessorEnabled(deps, {
    merchantId,
    host,
    processor: 'idram',
    enabled: true,
    config: JSON.stringify(LIVE_MERCHANT_IDRAM),
  });
}

/** 2026-11-21T10:00:30Z: half a minute into a rate-limit window. */
export const TEST_START_MS = Date.UTC(2026, 10, 21, 10, 0, 30);
export const PUBLIC_URL = 'http://gateway.test';
/** The service secret of test gateways (and of the CLI runs beside them, see ./cli.ts). */
export const TEST_GATEWAY_SECRET = 'test-secret-test-secret-test-secret-0123';

export type { ApiResponse };

export interface CallOptions extends RequestOptions {
  key?: string;
}

export interface TestMerchant {
  merchantId: string;
  hostedDomain: string;
  testKey: string;
}

/** scrypt's log2 N for the tests' dashboard passwords (production: 16). */
export const TEST_PASSWORD_HASH_COST = 10;

export interface TestGateway {
  readonly dialect: DialectName;
  readonly gateway: Gateway;
  readonly clock: ManualClock;
  readonly url: string;
  call<T = Record<string, unknown>>(method: string, path: string, options?: CallOptions): Promise<ApiResponse<T>>;
  merchant(input?: Partial<CreateMerchantInput>): Promise<TestMerchant>;
  key(merchantId: string, environment: 'live' | 'test', access?: 'full' | 'payments'): Promise<string>;
  /**
   * A verified business with a verified domain `host` that has the sandbox and Idram
   * (`enableLiveProcessor`) enabled, and a live key.
   */
  liveMerchant(host: string, access?: 'full' | 'payments'): Promise<TestMerchant & { liveKey: string }>;
  close(): Promise<void>;
}

export interface TestGatewayOptions {
  env?: Record<string, string>;
  routers?: ReadonlyArray<Router<GatewayState>>;
  limiter?: RateLimiter;
  /** Reuse an existing database (e.g. to run two instances on one PostgreSQL). */
  databaseUrl?: string;
  /** Shorter HTTP timeouts than the service's, to test them in little time. */
  httpTimeouts?: HttpTimeouts;
  /** The client processors and fiscal systems are called with (e.g. with its timeouts cut short). */
  processorHttp?: ProcessorHttp;
  /** Where the gateway logs (default: nowhere). */
  logger?: Logger;
  /** The dashboard's domain verification transport (the local HTTPS site's CA and port). */
  domainVerification?: VerificationOptions;
  /** Concurrency and breaker limits per counterpart (gateway/processors/counterparts.ts). */
  counterpartLimits?: Partial<CounterpartLimits>;
}

export async function startTestGateway(dialect: DialectName, options: TestGatewayOptions = {}): Promise<TestGateway> {
  let database: TestDatabase | undefined;
  let databaseUrl = options.databaseUrl;
  if (databaseUrl === undefined) {
    database = await freshDatabase(dialect, 'gateway');
    databaseUrl = database.url;
  }
  const config: Config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    PUBLIC_URL,
    DATABASE_URL: databaseUrl,
    GATEWAY_SECRET: TEST_GATEWAY_SECRET,
    LOG_LEVEL: 'silent',
    // Dashboard passwords at scrypt's N = 2^10 instead of 2^16: the same code, a millisecond a hash.
    GATEWAY_PASSWORD_HASH_COST: String(TEST_PASSWORD_HASH_COST),
    ...options.env,
  });
  const clock = new ManualClock(TEST_START_MS);
  const gateway = await startGateway({
    config,
    clock,
    logger: options.logger ?? createLogger(process.env.TEST_LOG_LEVEL === 'error' ? 'error' : 'silent'),
    routers: options.routers ?? [],
    ...(options.limiter ? { limiter: options.limiter } : {}),
    ...(options.httpTimeouts ? { httpTimeouts: options.httpTimeouts } : {}),
    ...(options.processorHttp ? { processorHttp: options.processorHttp } : {}),
    ...(options.domainVerification ? { domainVerification: options.domainVerification } : {}),
    ...(options.counterpartLimits ? { counterpartLimits: options.counterpartLimits } : {}),
  });
  const deps = gateway.deps;
  watchGatewayContract(gateway.url);

  const call = <T>(method: string, path: string, { key, ...opts }: CallOptions = {}): Promise<ApiResponse<T>> =>
    requestJson<T>(method, `${gateway.url}${path}`, {
      ...opts,
      headers: { ...opts.headers, ...(key === undefined ? {} : { 'X-Service-Key': key }) },
    });

  const merchant = async (input: Partial<CreateMerchantInput> = {}): Promise<TestMerchant> => {
    const created = await createMerchant(deps, { name: 'Test Shop', ...input });
    return {
      merchantId: created.merchant_id,
      hostedDomain: created.hosted_domain,
      testKey: created.keys[0]?.key ?? '',
    };
  };

  const key = async (merchantId: string, environment: 'live' | 'test', access: 'full' | 'payments' = 'full') =>
    (await createApiKey(deps, { merchantId, environment, access })).key;

  return {
    dialect,
    gateway,
    clock,
    url: gateway.url,
    call,
    merchant,
    key,
    async liveMerchant(host, access = 'full') {
      const m = await merchant({ verifyBusiness: true });
      await addDomain(deps, { merchantId: m.merchantId, host, verified: true });
      await setProcessorEnabled(deps, { merchantId: m.merchantId, host, processor: 'sandbox', enabled: true });
      await enableLiveProcessor(deps, m.merchantId, host);
      return { ...m, liveKey: await key(m.merchantId, 'live', access) };
    },
    async close() {
      await gateway.close();
      await database?.drop();
    },
  };
}

export function paymentBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    amount: 5000,
    order_id: `order-${Math.random().toString(36).slice(2)}`,
    return_url: 'http://localhost:3000/done',
    ...overrides,
  };
}

let hostCounter = 0;
/** A domain name no other test uses: `<label>-<n>-<random>.am`. */
export function uniqueHost(label = 'shop'): string {
  hostCounter += 1;
  return `${label}-${hostCounter}-${Math.random().toString(36).slice(2, 8)}.am`;
}

/** The keys every error body has (spec "Errors"); codes may add more. */
export const ERROR_KEYS = ['docs_url', 'error', 'message', 'request_id'] as const;

/** Checks the status, the error code and the exact keys of an error answer; answers the body. */
export function expectErrorBody(
  res: ApiResponse<unknown>,
  status: number,
  code: string,
  extraKeys: readonly string[] = [],
): Record<string, unknown> {
  expect(res.status, res.text).toBe(status);
  const body = res.body as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual([...ERROR_KEYS, ...extraKeys].sort());
  expect(body.error).toBe(code);
  return body;
}
