/**
 * Capture sessions (`POST /shopify/payments/captures`) and void sessions (`/voids`) of an authorized
 * payment session, as refund sessions are handled (./refund-sessions.ts):
 *
 * 1. Shopify's POST is checked and stored once per `id` (ON CONFLICT DO NOTHING), answered 201 with
 *    an empty body; a repeated POST finds the row and sends nothing that was already sent.
 * 2. From the row: the gateway's capture (`{amount}`: Shopify's amount, a partial capture when less
 *    than was held) or void, with the idempotency key `shopify-capture:<id>` / `shopify-void:<id>`.
 *    An outcome that is not known (no answer, a 5xx, `capture_outcome_unknown`, an operation in
 *    flight) keeps the row `call_due` and the same call is made again later with the same key, so
 *    the gateway answers the one operation it made, never a second one (./hold-outcomes.ts).
 * 3. Once known, the decision is written to the row first, then `captureSessionResolve` /
 *    `captureSessionReject` (or the void's) is sent from it, retried until Shopify takes it.
 */
import { gatewayOf } from '../../../connector/connections/connection-access.js';
import { ConnectorError, errorDetail } from '../../../connector/errors.js';
import type { GatewayPayment } from '../../../connector/gateway-client/client.js';
import type { ConnectorDeps } from '../../../connector/runtime/deps.js';
import { findConnection } from '../../../connector/storage/connection.repository.js';
import {
  claimHoldSession,
  findHoldSession,
  insertHoldSession,
  moveHoldSession,
  type ShopifyHoldSession,
} from '../../../connector/storage/shopify-hold-session.repository.js';
import { findPaymentSession } from '../../../connector/storage/shopify-payment-session.repository.js';
import { findShopifyShop } from '../../../connector/storage/shopify-shop.repository.js';
import { toStoredInstant } from '../../../gateway/domain/clock.js';
import type { ShopifyRuntime } from '../runtime.js';
import { noteSessionVersion, paymentsAppsOf, sessionApiVersion } from './access.js';
import { wholeAmd } from './amount.js';
import { failedDecision } from './call-failures.js';
import { captureStep, type HoldAnswer, type HoldStep, voidStep } from './hold-outcomes.js';
import type { Resolution } from './payment-sessions.js';
import { CLAIM_LEASE_MS, decisionRetryDelayMs, FINALIZE_FOR_MS } from './queue.js';
import { parseBody, type SessionHeaders } from './session-request.js';
import { captureSessionRequest, voidSessionRequest } from './wire.js';

export type HoldKind = 'capture' | 'void';

const PAYMENT_GID = 'gid://shopify/PaymentSession/';

/** The gateway's idempotency key of the session's one capture or void. */
export const holdIdempotencyKey = (row: Pick<ShopifyHoldSession, 'kind' | 'id'>) => `shopify-${row.kind}:${row.id}`;

/** Stores the capture or void session; the caller answers 201 and starts {@link driveHoldSession}. */
export async function acceptHoldSession(
  deps: ConnectorDeps,
  shopify: ShopifyRuntime,
  headers: SessionHeaders,
  kind: HoldKind,
  rawBody: unknown,
): Promise<ShopifyHoldSession> {
  const body =
    kind === 'capture'
      ? parseBody(captureSessionRequest, rawBody)
      : { amount: null, currency: null, ...parseBody(voidSessionRequest, rawBody) };
  const shop = await findShopifyShop(deps.db, headers.shop);
  if (shop === undefined || shop.status !== 'installed') {
    throw new ConnectorError(401, 'shop_not_installed', `${headers.shop} has not installed the app.`);
  }
  noteSessionVersion(deps, shopify, { shop: headers.shop, id: body.id, kind, sent: headers.apiVersion });
  const now = toStoredInstant(deps.clock.nowMs());
  const row = await insertHoldSession(deps.db, {
    id: body.id,
    kind,
    gid: body.gid,
    shop: headers.shop,
    payment_id: body.payment_id.startsWith(PAYMENT_GID) ? body.payment_id.slice(PAYMENT_GID.length) : body.payment_id,
    amount: body.amount,
    currency: body.currency,
    test: body.test ? 1 : 0,
    state: 'call_due',
    resolution: null,
    gateway_calls: 0,
    attempts: 0,
    next_attempt_at: now,
    last_error: null,
    api_version: headers.apiVersion.slice(0, 32),
    decided_at: null,
    created_at: now,
    updated_at: now,
  });
  if (row.shop !== headers.shop || row.kind !== kind) {
    throw new ConnectorError(409, 'session_exists', `This ${kind} session id belongs to another shop or session.`);
  }
  return row;
}

/** Moves the session as far as it goes now (the gateway call, then Shopify). Answers the row after. */
export async function driveHoldSession(
  deps: ConnectorDeps,
  shopify: ShopifyRuntime,
  id: string,
): Promise<ShopifyHoldSession | undefined> {
  let row = await findHoldSession(deps.db, id);
  if (row?.state === 'call_due') {
    await callGateway(deps, row);
    row = await findHoldSession(deps.db, id);
  }
  if (row?.state === 'resolve_due' || row?.state === 'reject_due') {
    await sendHoldDecision(deps, shopify, row);
    row = await findHoldSession(deps.db, id);
  }
  return row;
}

/** Claims the row's due step for {@link CLAIM_LEASE_MS}; false when it is not due or another caller has it. */
async function claim(deps: ConnectorDeps, row: ShopifyHoldSession): Promise<boolean> {
  const nowMs = deps.clock.nowMs();
  if (row.next_attempt_at === null || Date.parse(row.next_attempt_at) > nowMs) return false;
  return claimHoldSession(deps.db, row, toStoredInstant(nowMs + CLAIM_LEASE_MS));
}

async function decide(deps: ConnectorDeps, row: ShopifyHoldSession, resolution: Resolution, calls: number) {
  const now = toStoredInstant(deps.clock.nowMs());
  await moveHoldSession(deps.db, row.id, ['call_due'], {
    state: resolution.action === 'resolve' ? 'resolve_due' : 'reject_due',
    resolution: JSON.stringify(resolution),
    gateway_calls: calls,
    attempts: 0,
    next_attempt_at: now,
    last_error: null,
    decided_at: now,
    updated_at: now,
  });
  deps.logger.info(
    { shop: row.shop, session: row.id, kind: row.kind, action: resolution.action },
    `Shopify ${row.kind} session decided`,
  );
}

const reject = (message: string): Resolution => ({ action: 'reject', code: 'PROCESSING_ERROR', message });

/** The gateway's capture or void of the session's payment, made (or asked again) once per claim. */
async function callGateway(deps: ConnectorDeps, row: ShopifyHoldSession): Promise<void> {
  if (!(await claim(deps, row))) return;
  const payment = await findPaymentSession(deps.db, row.payment_id);
  if (payment === undefined || payment.shop !== row.shop) {
    return decide(deps, row, reject('The authorized payment is not known to the app.'), row.gateway_calls);
  }
  if (payment.kind !== 'authorization' || payment.state !== 'resolved' || payment.gateway_payment_uuid === null) {
    return decide(
      deps,
      row,
      reject('The payment was not authorized through the app: there is no hold.'),
      row.gateway_calls,
    );
  }
  let amountAmd = 0;
  if (row.kind === 'capture') {
    const amount = wholeAmd(row.amount ?? '', row.currency ?? '');
    if (!amount.ok) return decide(deps, row, reject(amount.message), row.gateway_calls);
    amountAmd = amount.amd;
  }
  const connection = await findConnection(deps.db, payment.connection_id);
  if (connection === undefined) {
    return decide(deps, row, reject('The gateway connection of this payment is gone.'), row.gateway_calls);
  }
  const gateway = gatewayOf(deps, connection);
  const uuid = payment.gateway_payment_uuid;
  const calls = row.gateway_calls + 1;
  let answer: HoldAnswer;
  try {
    const options = { idempotencyKey: holdIdempotencyKey(row) };
    answer = {
      payment:
        row.kind === 'capture'
          ? await gateway.capturePayment(uuid, { amount: amountAmd }, options)
          : await gateway.voidPayment(uuid, options),
    };
  } catch (error) {
    let readBack: GatewayPayment | undefined;
    if (error instanceof Error && 'code' in error && error.code === 'payment_not_authorized') {
      readBack = await gateway.getPayment(uuid).catch(() => undefined);
    }
    answer = { error, readBack };
  }
  const step: HoldStep = row.kind === 'capture' ? captureStep(answer, amountAmd) : voidStep(answer);
  if ('decide' in step) return decide(deps, row, step.decide, calls);
  if ('person' in step) return leaveForPerson(deps, row, calls, step.person);
  await askAgainLater(deps, row, calls, step.later);
}

/** Neither resolving nor rejecting would be true: `failed`, on the connection's health for a person. */
async function leaveForPerson(deps: ConnectorDeps, row: ShopifyHoldSession, calls: number, why: string) {
  await moveHoldSession(deps.db, row.id, ['call_due'], {
    gateway_calls: calls,
    state: 'failed',
    next_attempt_at: null,
    last_error: why.slice(0, 500),
    updated_at: toStoredInstant(deps.clock.nowMs()),
  });
  deps.logger.error(
    { shop: row.shop, session: row.id, kind: row.kind, err: why },
    `the ${row.kind} is left for a person`,
  );
}

/**
 * The outcome is not known yet: the same call (same key) is made again on the decision schedule
 * (1, 5, 30 minutes, 2 and 6 hours, then every 6 hours), for a week; then `failed` for a person.
 */
async function askAgainLater(deps: ConnectorDeps, row: ShopifyHoldSession, calls: number, why: string) {
  const nowMs = deps.clock.nowMs();
  const nextMs = nowMs + decisionRetryDelayMs(calls);
  const gaveUp = nextMs > Date.parse(row.created_at) + FINALIZE_FOR_MS;
  await moveHoldSession(deps.db, row.id, ['call_due'], {
    gateway_calls: calls,
    last_error: why.slice(0, 500),
    updated_at: toStoredInstant(nowMs),
    ...(gaveUp ? { state: 'failed' as const, next_attempt_at: null } : { next_attempt_at: toStoredInstant(nextMs) }),
  });
  const fields = { shop: row.shop, session: row.id, kind: row.kind, gateway_calls: calls, err: why };
  if (gaveUp)
    deps.logger.error(fields, `the gateway's ${row.kind} outcome stayed unknown for a week; a person settles it`);
  else
    deps.logger.warn(fields, `the gateway's ${row.kind} outcome is not known yet; asked again later with the same key`);
}

async function sendHoldDecision(deps: ConnectorDeps, shopify: ShopifyRuntime, row: ShopifyHoldSession): Promise<void> {
  if (!(await claim(deps, row))) return;
  const due = row.state;
  const resolution = JSON.parse(row.resolution ?? '{}') as Resolution;
  const attempts = row.attempts + 1;
  const save = (changes: Parameters<typeof moveHoldSession>[3]) =>
    moveHoldSession(deps.db, row.id, [due], { attempts, updated_at: toStoredInstant(deps.clock.nowMs()), ...changes });
  try {
    const client = await paymentsAppsOf(shopify, row.shop, sessionApiVersion(shopify, row.api_version));
    const reason =
      resolution.action === 'reject' ? { code: resolution.code, merchantMessage: resolution.message } : null;
    const result =
      row.kind === 'capture'
        ? reason === null
          ? await client.mutate('captureSessionResolve', { id: row.gid })
          : await client.mutate('captureSessionReject', { id: row.gid, reason })
        : reason === null
          ? await client.mutate('voidSessionResolve', { id: row.gid })
          : await client.mutate('voidSessionReject', { id: row.gid, reason: { ...reason, code: 'PROCESSING_ERROR' } });
    if (result.ok) {
      await save({ state: reason === null ? 'resolved' : 'rejected', next_attempt_at: null, last_error: null });
      deps.logger.info({ shop: row.shop, session: row.id, kind: row.kind }, `Shopify ${row.kind} session finalized`);
      return;
    }
    const message = result.userErrors.map((e) => e.message).join('; ');
    await save({ state: 'failed', next_attempt_at: null, last_error: message.slice(0, 500) });
    deps.logger.error(
      { shop: row.shop, session: row.id, kind: row.kind, user_errors: message },
      `Shopify refused to finalize the ${row.kind} session`,
    );
  } catch (error) {
    // The capture or void is done (or refused) at the gateway: its decision is sent until Shopify takes it.
    const decidedMs = Date.parse(row.decided_at ?? row.updated_at);
    await failedDecision(
      deps,
      { id: row.id, shop: row.shop },
      attempts,
      error,
      decidedMs + FINALIZE_FOR_MS,
      save,
    ).catch((failure) => deps.logger.warn({ session: row.id, err: errorDetail(failure) }, 'decision retry not saved'));
  }
}
