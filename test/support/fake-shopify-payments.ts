/**
 * Shopify's side of an offsite payments app, on a local HTTP server:
 *
 * - the Payments Apps GraphQL endpoint `/payments_apps/api/<version>/graphql.json` of each shop,
 *   answering as Shopify does: the `X-Shopify-API-Version` it served in every answer; a stable
 *   version older than the oldest it supports is served by that oldest one ("falls forward"), an
 *   unknown version is 404; a missing or unknown `X-Shopify-Access-Token` is 401 (Shopify's error
 *   text); every document is parsed, validated and executed against Shopify's published Payments Apps
 *   schema of the served version (test/support/shopify-schemas.ts), so an invalid selection or a
 *   variable outside the version's types (a reject reason the version does not have) is answered
 *   HTTP 200 with `errors` and no `data`, and the answer holds exactly what the document selected;
 * - the session mutations keep each session's state: as the Payments Apps reference documents for
 *   `paymentSessionResolve` / `paymentSessionReject` (and the refund, capture and void session
 *   mutations; a payment session keeps its `authorizationExpiresAt`), a repeated
 *   resolve (or reject) succeeds and answers the session as it is, while rejecting a resolved session
 *   or resolving a rejected one is refused (userErrors), as is an unknown session (docs/shopify.md
 *   "Finalizing a session twice"); `repeats('user_error')` makes a repeat refused instead, for the
 *   connector's handling of the undocumented case;
 * - `paymentsAppConfigure` keeps each shop's configuration (`ready`, `externalHandle`), which is what
 *   lets the merchant activate the provider in Settings > Payments;
 * - can fail the next N calls: HTTP 500, a THROTTLED GraphQL error in an HTTP 200 (Shopify's
 *   documented rate-limit answer, with `extensions.cost`), HTTP 429 with `Retry-After`, or the
 *   mutation applied and its answer lost (the connection dropped); records every call;
 * - "Shopify" starting sessions: POSTs to the app's session URLs with the three headers, over mTLS
 *   with its client certificate (or none);
 * - a throwaway PKI made with openssl: a CA standing in for Shopify's Payments Platform CA, a server
 *   certificate for 127.0.0.1, Shopify's client certificate, and a client certificate of another CA.
 *
 * {@link FakeShopifyPayments.fetchFor} routes `https://<shop>/payments_apps/...` here and everything
 * else to the given fetch (the OAuth fake).
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConnectorDeps } from '../../connector/runtime/deps.js';
import { insertConnection } from '../../connector/storage/connection.repository.js';
import { linkShopConnection } from '../../connector/storage/shopify-shop.repository.js';
import { toStoredInstant } from '../../gateway/domain/clock.js';
import { sha256Hex } from '../../gateway/runtime/hashing.js';
import { SUPPORTED_API_VERSIONS } from '../../plugins/shopify/api-versions.js';
import { holdSessionMutations, type SessionKind, type SessionState } from './fake-shopify-hold-sessions.js';
import { rootFieldsOf, runShopifyGraphql, shopifySchema } from './shopify-schemas.js';

/** The versions this Shopify serves by default (each with its published schema), oldest first. */
export const PAYMENTS_API_VERSIONS: readonly string[] = SUPPORTED_API_VERSIONS;

export interface PaymentsCall {
  shop: string;
  /** The version in the request's path. */
  version: string;
  /** The version Shopify served it with (`X-Shopify-API-Version`). */
  servedVersion: string;
  /** The root field of the operation (`paymentSessionResolve`, ...). */
  mutation: string;
  query: string;
  // biome-ignore lint/suspicious/noExplicitAny: GraphQL variables as sent
  variables: Record<string, any>;
  status: number;
  userErrors: string[];
  /** `errors[].extensions.code` of a GraphQL error answer (e.g. THROTTLED); absent otherwise. */
  errorCodes?: string[];
  /** The messages of a GraphQL `errors` answer (validation, variables); absent otherwise. */
  errors?: string[];
  /** The mutation was applied but the app never got the answer. */
  answerLost?: boolean;
}

/** The gid prefix of each kind of session (`gid://shopify/CaptureSession/<id>` ...). */
const GID_PREFIX: Record<SessionKind, string> = {
  payment: 'gid://shopify/PaymentSession/',
  refund: 'gid://shopify/RefundSession/',
  capture: 'gid://shopify/CaptureSession/',
  void: 'gid://shopify/VoidSession/',
};

export interface PaymentsAppConfiguration {
  ready: boolean;
  externalHandle: string | null;
}

export interface FakeShopifyPayments {
  readonly url: string;
  readonly calls: PaymentsCall[];
  /** Where Shopify sends the buyer after a resolve/reject/pending of `gid`. */
  nextActionUrl(gid: string): string;
  /** Shopify created this session (before POSTing it to the app). */
  openSession(shop: string, gid: string): void;
  state(gid: string): SessionState | undefined;
  /** The shop's payments app configuration (`paymentsAppConfigure`), or undefined before any. */
  configuration(shop: string): PaymentsAppConfiguration | undefined;
  /**
   * The next `count` calls fail: HTTP 500 (default), THROTTLED in an HTTP 200, HTTP 429 with
   * Retry-After, or `answer_lost` (applied, then the connection is dropped before the answer).
   */
  failNext(count: number, how?: Failure): void;
  /** How a repeated resolve/reject of a session is answered: as documented (default) or refused. */
  repeats(how: 'succeed' | 'user_error'): void;
  /** `paymentsAppConfigure` answers `userErrors` with this message (null: takes it, the default). */
  refuseConfiguration(message: string | null): void;
  /** The stable versions served, oldest first (an older stable one is served as the first). */
  serveVersions(versions: readonly string[]): void;
  fetchFor(other: typeof fetch): typeof fetch;
  close(): Promise<void>;
}

/**
 * `graphql_error`: a GraphQL error with no code in an HTTP 200, no `data`: what a schema-validating
 * Shopify answers a document it refuses.
 */
export type Failure = 'http_500' | 'throttled' | 'http_429' | 'answer_lost' | 'graphql_error';

// biome-ignore lint/suspicious/noExplicitAny: GraphQL answers built as plain JSON
type Json = Record<string, any>;

export async function startFakeShopifyPayments(options: {
  isAccessToken(shop: string, token: string): boolean;
  versions?: readonly string[];
}): Promise<FakeShopifyPayments> {
  const sessions = new Map<string, SessionState>();
  const configurations = new Map<string, PaymentsAppConfiguration>();
  const calls: PaymentsCall[] = [];
  let failures: { count: number; how: Failure } = { count: 0, how: 'http_500' };
  let repeated: 'succeed' | 'user_error' = 'succeed';
  let configurationRefusal: string | null = null;
  let versions: readonly string[] = options.versions ?? PAYMENTS_API_VERSIONS;

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error) => json(res, 500, { errors: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const nextActionUrl = (gid: string) => `https://checkout.example/next/${encodeURIComponent(gid)}`;

  function json(res: ServerResponse, status: number, body: unknown, served?: string) {
    res
      .writeHead(status, {
        'Content-Type': 'application/json',
        ...(served === undefined ? {} : { 'X-Shopify-API-Version': served }),
      })
      .end(JSON.stringify(body));
  }

  /** The version Shopify serves a request for `requested` with, or null (404). */
  function served(requested: string): string | null {
    if (versions.includes(requested)) return requested;
    const oldest = versions[0];
    if (oldest !== undefined && /^\d{4}-(01|04|07|10)$/.test(requested) && requested < oldest) return oldest;
    return null;
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', base);
    const match = /^\/shops\/([a-z0-9][a-z0-9-]*\.myshopify\.com)\/payments_apps\/api\/([^/]+)\/graphql\.json$/.exec(
      url.pathname,
    );
    if (match === null || req.method !== 'POST') return json(res, 404, { errors: 'Not Found' });
    const [, shop = '', version = ''] = match;
    const servedVersion = served(version);
    if (servedVersion === null) return json(res, 404, { errors: 'Not Found' });
    const answer = (status: number, body: unknown) => json(res, status, body, servedVersion);
    const token = String(req.headers['x-shopify-access-token'] ?? '');
    if (!options.isAccessToken(shop, token)) {
      return answer(401, { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' });
    }
    if (!String(req.headers['content-type'] ?? '').includes('application/json')) {
      return answer(415, { errors: 'Content-Type must be application/json' });
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { query?: string; variables?: Json };
    const query = body.query ?? '';
    const variables = body.variables ?? {};
    const call: PaymentsCall = {
      shop,
      version,
      servedVersion,
      mutation: rootFieldsOf(query)[0] ?? '',
      query,
      variables,
      status: 200,
      userErrors: [],
    };
    calls.push(call);

    let answerLost = false;
    if (failures.count > 0) {
      failures.count -= 1;
      if (failures.how === 'http_500') {
        call.status = 500;
        return answer(500, { errors: [{ message: 'Internal error. Looks like something went wrong on our end.' }] });
      }
      if (failures.how === 'http_429') {
        call.status = 429;
        res.setHeader('Retry-After', '2.0');
        return answer(429, {
          errors: 'Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service.',
        });
      }
      if (failures.how === 'graphql_error') {
        call.errors = ['Field "x" conflict because they return conflicting types'];
        return answer(200, { errors: [{ message: call.errors[0], locations: [{ line: 1, column: 1 }] }] });
      }
      if (failures.how === 'throttled') {
        call.errorCodes = ['THROTTLED'];
        return answer(200, {
          errors: [
            {
              message: 'Throttled',
              extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' },
            },
          ],
          extensions: {
            cost: {
              requestedQueryCost: 10,
              actualQueryCost: null,
              throttleStatus: { maximumAvailable: 1000, currentlyAvailable: 0, restoreRate: 50 },
            },
          },
        });
      }
      answerLost = true;
      call.answerLost = true;
    }
    const schema = await shopifySchema('payments-apps', servedVersion);
    const outcome = await runShopifyGraphql(schema, query, variables, rootValue(shop, call));
    if (outcome.kind === 'refused' || outcome.body.errors !== undefined) {
      call.errors = (outcome.body.errors as Json[]).map((error) => String(error.message));
    }
    // A lost answer: the mutation is applied, then the connection drops instead of the answer.
    if (answerLost) return void res.socket?.destroy();
    return answer(200, outcome.body);
  }

  /** The mutations' resolvers for one call (graphql-js calls each with its coerced arguments). */
  function rootValue(shop: string, call: PaymentsCall): Json {
    const refuse = (payloadKey: string, message: string, code?: string) => {
      call.userErrors.push(message);
      return { [payloadKey]: null, userErrors: [{ field: ['id'], message, ...(code ? { code } : {}) }] };
    };
    const paymentSessionJson = (gid: string, session: SessionState) => ({
      id: gid,
      authorizationExpiresAt: session.authorizationExpiresAt ?? null,
      pendingExpiresAt: null,
      state:
        session.state === 'rejected'
          ? {
              __typename: 'PaymentSessionStateRejected',
              code: 'REJECTED',
              reason: session.reason?.code ?? 'PROCESSING_ERROR',
              merchantMessage: session.reason?.merchantMessage ?? null,
              source: null,
            }
          : session.state === 'pending'
            ? { __typename: 'PaymentSessionStatePending', code: 'PENDING', reason: session.reason ?? null }
            : { __typename: 'PaymentSessionStateResolved', code: 'RESOLVED' },
      nextAction: {
        action: 'REDIRECT',
        context: { __typename: 'PaymentSessionActionsRedirect', redirectUrl: nextActionUrl(gid) },
      },
    });
    /** The session `id` names, of `kind`, in this shop; or the refusal to answer. */
    const find = (id: unknown, kind: SessionKind) => {
      const gid = String(id ?? '');
      if (!gid.startsWith(GID_PREFIX[kind])) return { gid, error: 'Id is not a valid global id of the session type' };
      const session = sessions.get(gid);
      if (session === undefined || session.shop !== shop || session.kind !== kind) {
        return { gid, error: `${kind[0]?.toUpperCase()}${kind.slice(1)} session not found` };
      }
      return { gid, session };
    };
    const holds = { find, refuse, repeated: () => repeated };
    const capture = holdSessionMutations('capture', holds);
    const voids = holdSessionMutations('void', holds);
    // "Subsequent [resolve|reject] mutation attempts will succeed, but the [details|reason] argument
    // will be ignored"; the other decision fails (shopify.dev Payments Apps API, paymentSessionResolve
    // and paymentSessionReject).
    return {
      paymentSessionResolve: ({ id, authorizationExpiresAt }: Json) => {
        const found = find(id, 'payment');
        if (found.session === undefined) return refuse('paymentSession', found.error);
        const { session } = found;
        if (session.state === 'resolved' && repeated === 'user_error')
          return refuse('paymentSession', 'Session has already been resolved');
        if (session.state === 'rejected')
          return refuse('paymentSession', 'Session has already been rejected and cannot be resolved');
        // "Subsequent resolve attempts will succeed, but the details will be ignored".
        if (session.state !== 'resolved') session.authorizationExpiresAt = authorizationExpiresAt ?? null;
        session.state = 'resolved';
        return { paymentSession: paymentSessionJson(found.gid, session), userErrors: [] };
      },
      paymentSessionReject: ({ id, reason }: Json) => {
        const found = find(id, 'payment');
        if (found.session === undefined) return refuse('paymentSession', found.error);
        const { session } = found;
        if (session.state === 'resolved')
          return refuse('paymentSession', 'Session has already been resolved and cannot be rejected');
        if (session.state === 'rejected' && repeated === 'user_error')
          return refuse('paymentSession', 'Session has already been rejected');
        if (session.state !== 'rejected') session.reason = { ...reason };
        session.state = 'rejected';
        return { paymentSession: paymentSessionJson(found.gid, session), userErrors: [] };
      },
      paymentSessionPending: ({ id, reason }: Json) => {
        const found = find(id, 'payment');
        if (found.session === undefined) return refuse('paymentSession', found.error, 'NOT_FOUND');
        const { session } = found;
        if (session.state !== 'initiated') {
          return refuse('paymentSession', 'Session cannot be marked pending in its state', 'PENDING_INVALID_STATE');
        }
        session.state = 'pending';
        session.reason = reason;
        return { paymentSession: paymentSessionJson(found.gid, session), userErrors: [] };
      },
      refundSessionResolve: ({ id }: Json) => {
        const found = find(id, 'refund');
        if (found.session === undefined) return refuse('refundSession', found.error, 'REFUND_SESSION_NOT_FOUND');
        const { session } = found;
        if (session.state === 'rejected' || (session.state === 'resolved' && repeated === 'user_error')) {
          return refuse('refundSession', 'Refund session is not open', 'REFUND_SESSION_INVALID_STATE');
        }
        session.state = 'resolved';
        return {
          refundSession: { id: found.gid, state: { __typename: 'RefundSessionStateResolved', code: 'RESOLVED' } },
          userErrors: [],
        };
      },
      refundSessionReject: ({ id, reason }: Json) => {
        const found = find(id, 'refund');
        if (found.session === undefined) return refuse('refundSession', found.error, 'REFUND_SESSION_NOT_FOUND');
        const { session } = found;
        if (session.state === 'resolved' || (session.state === 'rejected' && repeated === 'user_error')) {
          return refuse('refundSession', 'Refund session is not open', 'REFUND_SESSION_INVALID_STATE');
        }
        if (session.state !== 'rejected') session.reason = { ...reason };
        session.state = 'rejected';
        return {
          refundSession: {
            id: found.gid,
            state: {
              __typename: 'RefundSessionStateRejected',
              code: 'REJECTED',
              reason: session.reason?.code ?? 'PROCESSING_ERROR',
              merchantMessage: session.reason?.merchantMessage ?? null,
            },
          },
          userErrors: [],
        };
      },
      captureSessionResolve: capture.resolve,
      captureSessionReject: capture.reject,
      voidSessionResolve: voids.resolve,
      voidSessionReject: voids.reject,
      paymentsAppConfigure: ({ externalHandle, ready }: Json) => {
        if (configurationRefusal !== null) {
          call.userErrors.push(configurationRefusal);
          return { paymentsAppConfiguration: null, userErrors: [{ field: ['ready'], message: configurationRefusal }] };
        }
        const configuration = { ready: ready === true, externalHandle: externalHandle ?? null };
        configurations.set(shop, configuration);
        return { paymentsAppConfiguration: configuration, userErrors: [] };
      },
    };
  }

  return {
    url: base,
    calls,
    nextActionUrl,
    openSession(shop, gid) {
      const kind = (Object.keys(GID_PREFIX) as SessionKind[]).find((k) => gid.startsWith(GID_PREFIX[k])) ?? 'payment';
      sessions.set(gid, { kind, shop, state: 'initiated' });
    },
    state: (gid) => sessions.get(gid),
    configuration: (shop) => configurations.get(shop),
    failNext(count, how = 'http_500') {
      failures = { count, how };
    },
    repeats(how) {
      repeated = how;
    },
    refuseConfiguration(message) {
      configurationRefusal = message;
    },
    serveVersions(next) {
      versions = next;
    },
    fetchFor(other) {
      return async (input, init) => {
        const target = new URL(input instanceof Request ? input.url : String(input));
        if (target.protocol === 'https:' && target.pathname.startsWith('/payments_apps/')) {
          return fetch(`${base}/shops/${target.hostname}${target.pathname}${target.search}`, init);
        }
        return other(input, init);
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A throwaway PKI for mTLS tests (PEM strings). */
export interface TestPki {
  ca: string;
  serverCert: string;
  serverKey: string;
  /** Shopify's client certificate, issued by `ca`. */
  clientCert: string;
  clientKey: string;
  /** A client certificate of another CA. */
  strangerCert: string;
  strangerKey: string;
}

/** `serverNames`: DNS names the server certificate also covers (besides 127.0.0.1), e.g. `*.myshopify.com`. */
export function makeTestPki(serverNames: readonly string[] = []): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'shopify-mtls-'));
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const read = (name: string) => readFileSync(join(dir, name), 'utf8');
  try {
    for (const ca of ['ca', 'other-ca']) {
      openssl(
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        `${ca}.key`,
        '-out',
        `${ca}.crt`,
        '-days',
        '2',
        '-subj',
        `/CN=${ca} test`,
      );
    }
    const issue = (name: string, ca: string, subject: string, ext: string) => {
      openssl(
        'req',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        `${name}.key`,
        '-out',
        `${name}.csr`,
        '-subj',
        subject,
      );
      execFileSync('sh', ['-c', `printf '%s\\n' '${ext}' > ${name}.ext`], { cwd: dir });
      openssl(
        'x509',
        '-req',
        '-in',
        `${name}.csr`,
        '-CA',
        `${ca}.crt`,
        '-CAkey',
        `${ca}.key`,
        '-CAcreateserial',
        '-out',
        `${name}.crt`,
        '-days',
        '2',
        '-extfile',
        `${name}.ext`,
      );
    };
    const names = serverNames.map((name) => `,DNS:${name}`).join('');
    issue('server', 'ca', '/CN=127.0.0.1', `subjectAltName=IP:127.0.0.1${names}`);
    issue('client', 'ca', '/CN=payments.shopify.com', 'extendedKeyUsage=clientAuth');
    issue('stranger', 'other-ca', '/CN=payments.shopify.com', 'extendedKeyUsage=clientAuth');
    return {
      ca: read('ca.crt'),
      serverCert: read('server.crt'),
      serverKey: read('server.key'),
      clientCert: read('client.crt'),
      clientKey: read('client.key'),
      strangerCert: read('stranger.crt'),
      strangerKey: read('stranger.key'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface ShopifyPost {
  status: number;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: a JSON answer
  body: any;
}

/**
 * Shopify POSTs a session to the app with its headers, over TLS with `client` as its certificate
 * (none when omitted). Rejects when the TLS handshake is refused.
 */
export function shopifyPost(
  url: string,
  shop: string,
  body: unknown,
  tls: { ca: string; client?: { cert: string; key: string } },
  apiVersion = '2026-07',
): Promise<ShopifyPost> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      url,
      {
        method: 'POST',
        ca: tls.ca,
        ...(tls.client ?? {}),
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(payload),
          'Shopify-Shop-Domain': shop,
          'Shopify-Request-Id': randomUUID(),
          'Shopify-Api-Version': apiVersion,
        },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = null;
          try {
            parsed = text === '' ? null : JSON.parse(text);
          } catch {
            parsed = null;
          }
          resolve({ status: res.statusCode ?? 0, text, body: parsed });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * Links an installed shop to a new store connection made from `token` (what the embedded page does
 * in production), writing the rows through the repositories. Answers the connection id.
 */
export async function linkShopToToken(
  deps: ConnectorDeps,
  shop: string,
  token: string,
  info: { id: string; domain: string; environment: 'test' | 'live'; webhook_secrets: string[] },
): Promise<string> {
  const id = randomUUID();
  const now = toStoredInstant(deps.clock.nowMs());
  // The sealing contexts of connector/connections/connection.service.ts.
  const seal = (value: string, column: string) => deps.sealer.seal(value, `store_connections:${id}:${column}`);
  await insertConnection(deps.db, {
    id,
    platform: 'shopify',
    store_url: `https://${shop}`,
    domain: info.domain,
    environment: info.environment,
    token_id: info.id,
    token_hash: sha256Hex(token),
    token_ciphertext: seal(token, 'token'),
    credentials_ciphertext: null,
    webhook_secrets_ciphertext: seal(JSON.stringify(info.webhook_secrets), 'webhook_secrets'),
    secrets_refreshed_at: now,
    key_exchange_hash: null,
    key_exchange_ciphertext: null,
    status: 'active',
    last_webhook_at: null,
    created_at: now,
    updated_at: now,
    store_state: null,
    store_error_at: null,
    store_error_message: null,
    last_missed_webhook_at: null,
    store_checked_at: null,
  });
  await linkShopConnection(deps.db, shop, id, now);
  return id;
}
