/**
 * Capturing and voiding a held payment (docs/decisions.md "Holds"): `POST
 * /api/v1/payments/{uuid}/capture` and `/void`, and the same for the dashboard and the connector,
 * which call `capturePayment` and `voidPayment` with their own scope and keys. Like a refund, each
 * runs in three steps, so that it is safe to race and is never sent twice:
 *
 * 1. Reserve, in one transaction: one conditional update gives the payment's hold to a new
 *    operation (`hold_operation_id`, only while the payment is `authorized` and no other operation
 *    has it), the operation is written `pending`, and an `Idempotency-Key` is bound to it.
 * 2. Ask the processor, outside any transaction, exactly once.
 * 3. Settle (./hold-settlement.ts): captured, released, not done, or unknown until a status check
 *    (gateway/jobs/check-holds.ts) settles it.
 */
import type { Executor } from '../../storage/database.js';
import {
  findHoldOperation,
  insertHoldOperation,
  listPaymentHoldOperations,
  reserveHold,
} from '../../storage/hold-operation.repository.js';
import type { HoldOperationRow } from '../../storage/hold-operation.table.js';
import { findPayment, findPaymentRow, type PaymentScope, rowToPayment } from '../../storage/payment.repository.js';
import type { PaymentRow } from '../../storage/payment.table.js';
import { parseCaptureBody, parseVoidBody } from '../api/schemas/hold.schema.js';
import type { Principal } from '../auth/principal.js';
import { toApiInstant, toStoredInstant } from '../domain/clock.js';
import { ApiError, validationFailed } from '../domain/errors.js';
import { AUTHORIZATION_EXPIRED, captureAmountProblem, holdRanOut } from '../domain/holds.js';
import { isUuid } from '../domain/ids.js';
import type { PaymentResponse } from '../domain/payment.js';
import { paymentAnswer } from '../payments/awaiting-reference.js';
import { type CompleteKey, type IdempotencyScope, runIdempotent } from '../payments/idempotency.js';
import { idempotencyScopeOf, scopeOf } from '../payments/payment-scope.js';
import type { Deps } from '../runtime/deps.js';
import { callHoldProcessor, holdingProcessor } from './hold-calls.js';
import { boundKeyBody, holdCheckDelayMs, settleHold } from './hold-settlement.js';

/** The `Idempotency-Key` scopes of captures and voids: a key used for another operation is another key here. */
export const CAPTURE_IDEMPOTENCY_SCOPE = 'payments.capture';
export const VOID_IDEMPOTENCY_SCOPE = 'payments.void';
/** The scopes of captures and voids asked for from the dashboard (its keys are its confirmation forms' own). */
export const DASHBOARD_CAPTURE_IDEMPOTENCY_SCOPE = 'payments.capture@dashboard';
export const DASHBOARD_VOID_IDEMPOTENCY_SCOPE = 'payments.void@dashboard';

/** A capture or release as the API shows it (in `details.operation` of the errors that concern it). */
export interface HoldOperationObject {
  uuid: string;
  payment_uuid: string;
  /** `capture`, or `release` (a void, or the release of a hold that ran out). */
  kind: HoldOperationRow['kind'];
  /** `merchant` (a capture or a void), `expiry` (the gateway released a hold that ran out). */
  reason: HoldOperationRow['reason'];
  amount: number;
  /** `pending`, `succeeded`, `failed` or `unknown`. */
  status: HoldOperationRow['status'];
  failure_code: string | null;
  created_at: string;
  completed_at: string | null;
}

export function toHoldOperationObject(row: HoldOperationRow): HoldOperationObject {
  return {
    uuid: row.id,
    payment_uuid: row.payment_id,
    kind: row.kind,
    reason: row.reason,
    amount: Number(row.amount),
    status: row.status,
    failure_code: row.failure_code,
    created_at: toApiInstant(row.created_at) as string,
    completed_at: toApiInstant(row.completed_at),
  };
}

/**
 * A payment's captures and releases, oldest first, for pages that show what became of its hold
 * (the dashboard's payment page); undefined when the scope does not see the payment.
 */
export async function holdOperationsOf(
  deps: Deps,
  scope: PaymentScope,
  paymentUuid: string,
): Promise<HoldOperationObject[] | undefined> {
  const payment = isUuid(paymentUuid) ? await findPayment(deps.db, scope, paymentUuid) : undefined;
  if (payment === undefined) return undefined;
  return (await listPaymentHoldOperations(deps.db, payment.uuid)).map(toHoldOperationObject);
}

/** A capture or void asked for by any caller: the payments it may see and its keys' scope. */
export interface HoldActionRequest {
  readonly scope: PaymentScope;
  readonly keyScope: IdempotencyScope;
  readonly paymentUuid: string;
  /** The JSON body as sent (`{}` when absent). */
  readonly body: unknown;
  readonly idempotencyKey: string | undefined;
}

export interface HoldActionAnswer {
  readonly status: number;
  /** The payment after it: `completed` after a capture, `expired` after a void. */
  readonly body: PaymentResponse;
  readonly replayed: boolean;
}

/** A capture or void through the API, by an API key or a connect token. */
export interface ApiHoldRequest {
  readonly principal: Principal;
  readonly paymentUuid: string;
  readonly body: unknown;
  readonly idempotencyKey: string | undefined;
}

export function captureFromApi(deps: Deps, request: ApiHoldRequest): Promise<HoldActionAnswer> {
  return capturePayment(deps, {
    scope: scopeOf(request.principal),
    keyScope: idempotencyScopeOf(request.principal, CAPTURE_IDEMPOTENCY_SCOPE),
    paymentUuid: request.paymentUuid,
    body: request.body,
    idempotencyKey: request.idempotencyKey,
  });
}

export function voidFromApi(deps: Deps, request: ApiHoldRequest): Promise<HoldActionAnswer> {
  return voidPayment(deps, {
    scope: scopeOf(request.principal),
    keyScope: idempotencyScopeOf(request.principal, VOID_IDEMPOTENCY_SCOPE),
    paymentUuid: request.paymentUuid,
    body: request.body,
    idempotencyKey: request.idempotencyKey,
  });
}

/** Captures the hold (all of it, or `amount`): the payment becomes `completed` for what was taken. */
export function capturePayment(deps: Deps, request: HoldActionRequest): Promise<HoldActionAnswer> {
  return runHoldAction(deps, request, 'capture');
}

/** Releases the hold: the payment becomes `expired` with `failure_code: voided`. */
export function voidPayment(deps: Deps, request: HoldActionRequest): Promise<HoldActionAnswer> {
  return runHoldAction(deps, request, 'release');
}

async function runHoldAction(
  deps: Deps,
  request: HoldActionRequest,
  kind: HoldOperationRow['kind'],
): Promise<HoldActionAnswer> {
  const { keyScope } = request;
  let reserved: { operation: HoldOperationRow; payment: PaymentRow } | undefined;
  const claimed = await runIdempotent(
    deps,
    keyScope,
    request.idempotencyKey,
    // The payment is part of what the key protects: the same key on another payment is another request.
    { payment_uuid: request.paymentUuid, body: request.body },
    async (complete) => {
      reserved = await reserve(deps, request, kind, complete);
      return { status: 200, body: boundKeyBody(reserved.operation.id) };
    },
  );

  if (claimed.replayed || reserved === undefined) {
    // The key is bound to an operation made before: answer it as it is now; never send it again.
    const operationId = (claimed.body as { operation_uuid?: unknown } | null)?.operation_uuid;
    const operation = typeof operationId === 'string' ? await findHoldOperation(deps.db, operationId) : undefined;
    const payment = operation === undefined ? undefined : await findPaymentRow(deps.db, operation.payment_id);
    if (operation === undefined || payment === undefined) {
      throw new Error(`idempotency key bound to a missing hold operation: ${String(operationId)}`);
    }
    return { status: 200, body: await answerFor(deps, operation, payment), replayed: true };
  }

  const attempt = await callHoldProcessor(deps, reserved.operation, reserved.payment, 'interactive');
  const settled = await settleHold(deps, reserved.operation, {
    source: 'call',
    attempt,
    idempotencyKey:
      request.idempotencyKey === undefined
        ? undefined
        : {
            merchant_id: keyScope.merchantId,
            environment: keyScope.environment,
            scope: keyScope.scope,
            idempotency_key: request.idempotencyKey,
          },
  });
  return { status: 200, body: await answerFor(deps, settled.operation, settled.payment), replayed: false };
}

/** Steps before the processor: find, validate, check, then reserve the hold in one conditional update. */
async function reserve(
  deps: Deps,
  request: HoldActionRequest,
  kind: HoldOperationRow['kind'],
  complete: CompleteKey,
): Promise<{ operation: HoldOperationRow; payment: PaymentRow }> {
  const { paymentUuid } = request;
  const payment = isUuid(paymentUuid) ? await findPayment(deps.db, request.scope, paymentUuid) : undefined;
  if (payment === undefined) throw new ApiError('not_found', `No payment ${paymentUuid} for this key.`);
  let amount: number | undefined;
  if (kind === 'capture') amount = parseCaptureBody(request.body).amount;
  else parseVoidBody(request.body);

  // The conditional update is the guard; a failed one is explained from a fresh read. An operation
  // that ends between the two may leave nothing to explain: then try again (bounded).
  for (let attempt = 0; attempt < 3; attempt++) {
    const done = await deps.transact(async (trx) => {
      const current = await findPaymentRow(trx, payment.uuid);
      if (current === undefined) throw new ApiError('not_found', `No payment ${paymentUuid} for this key.`);
      const nowMs = deps.clock.nowMs();
      await assertHoldActionable(trx, current, kind, amount, nowMs);
      const now = toStoredInstant(nowMs);
      const operationId = deps.ids.uuid(nowMs);
      const held = await reserveHold(trx, current.id, operationId, now);
      if (held === undefined) return undefined;
      const operation: HoldOperationRow = {
        id: operationId,
        payment_id: held.id,
        merchant_id: held.merchant_id,
        environment: held.environment,
        processor: held.processor ?? '',
        kind,
        reason: 'merchant',
        amount: kind === 'capture' ? (amount ?? Number(held.authorized_amount)) : Number(held.authorized_amount),
        status: 'pending',
        failure_code: null,
        processor_reference: null,
        checks: 0,
        // Should this request die before settling, a status check resolves the operation.
        next_check_at: toStoredInstant(nowMs + holdCheckDelayMs(0)),
        created_at: now,
        updated_at: now,
        completed_at: null,
      };
      await insertHoldOperation(trx, operation);
      await complete(trx, { status: 200, body: boundKeyBody(operation.id) });
      return { operation, payment: held };
    });
    if (done !== undefined) return done;
  }
  throw new ApiError(
    'hold_operation_in_progress',
    `Another capture or void of payment ${payment.uuid} is changing it right now. Read the payment back.`,
  );
}

/**
 * Why the payment's hold cannot be captured (or voided) now, in the order the checks are documented.
 * Also the dashboard's check before it asks to confirm a capture or release, so the confirmation
 * never offers what the service would refuse (the service checks again when it is confirmed).
 */
export async function assertHoldActionable(
  trx: Executor,
  row: PaymentRow,
  kind: HoldOperationRow['kind'],
  amount: number | undefined,
  nowMs: number,
): Promise<void> {
  const payment = rowToPayment(row);
  const ranOut = (): ApiError =>
    new ApiError(
      'authorization_expired',
      `The hold of payment ${row.id} ran out at ${toApiInstant(row.capture_before)}; it can no longer be captured and is released.`,
      { details: { capture_before: toApiInstant(row.capture_before) } },
    );
  // Whether the expiry job has released it yet or not, a hold that ran out is answered alike.
  if (row.status === 'expired' && row.failure_code === AUTHORIZATION_EXPIRED) throw ranOut();
  if (row.status !== 'authorized') {
    const what = kind === 'capture' ? 'captured' : 'voided';
    throw new ApiError(
      'payment_not_authorized',
      `Payment ${row.id} is ${row.status}: only an authorized payment (a held card) can be ${what}.`,
      { details: { payment_status: row.status } },
    );
  }
  if (holdRanOut(payment, nowMs)) throw ranOut();
  if (row.hold_operation_id !== null) {
    const running = await findHoldOperation(trx, row.hold_operation_id);
    if (running !== undefined) throw inFlight(running);
  }
  if (kind !== 'capture') return;
  const authorized = Number(row.authorized_amount);
  const processor = holdingProcessor(row);
  const problem = captureAmountProblem(amount, authorized, {
    partial: processor?.holds.partialCapture ?? false,
    converted: row.price_amount !== null,
  });
  switch (problem) {
    case null:
      return;
    case 'exceeds':
      throw new ApiError(
        'amount_exceeds_authorized',
        `The capture amount ${amount} is larger than the ${authorized} AMD the card holds.`,
        { details: { authorized_amount: authorized } },
      );
    case 'converted':
      throw validationFailed({
        amount: [`must be left out (or be ${authorized}): a payment priced in ${row.price_currency} is captured whole`],
      });
    case 'partial_not_supported':
      throw validationFailed({
        amount: [`must be left out (or be ${authorized}): ${row.processor} captures the whole hold only`],
      });
  }
}

function inFlight(operation: HoldOperationRow): ApiError {
  const details = { operation: toHoldOperationObject(operation) };
  const what = operation.kind === 'capture' ? 'capture' : 'void';
  if (operation.status === 'unknown') {
    return new ApiError(
      operation.kind === 'capture' ? 'capture_outcome_unknown' : 'void_outcome_unknown',
      `The processor did not answer the ${what} ${operation.id} of payment ${operation.payment_id}; it is never sent again, and a status check settles it. Read the payment back.`,
      { details },
    );
  }
  return new ApiError(
    'hold_operation_in_progress',
    `The ${what} ${operation.id} of payment ${operation.payment_id} is still being sent. Read the payment back in a moment.`,
    { details },
  );
}

/**
 * The answer for an operation in its current state: the payment after it when it succeeded, else
 * the error that says why it did not (yet).
 */
async function answerFor(deps: Deps, operation: HoldOperationRow, payment: PaymentRow): Promise<PaymentResponse> {
  const details = { operation: toHoldOperationObject(operation) };
  const capture = operation.kind === 'capture';
  switch (operation.status) {
    case 'succeeded':
      return paymentAnswer(deps, rowToPayment(payment));
    case 'pending':
    case 'unknown':
      throw inFlight(operation);
    case 'failed':
      break;
  }
  switch (operation.failure_code) {
    case 'processor_unavailable':
      throw new ApiError(
        'processor_unavailable',
        `The processor could not be reached; nothing was sent and the hold is unchanged. Retry later (the same Idempotency-Key may be reused).`,
        { details },
      );
    case 'hold_released':
      throw new ApiError(
        'authorization_expired',
        `The processor no longer holds payment ${operation.payment_id}: the hold was released, nothing was taken.`,
        { details },
      );
    case 'not_made':
      throw new ApiError(
        capture ? 'capture_declined' : 'void_declined',
        `A status check with the processor found the ${capture ? 'capture' : 'void'} was not made: nothing changed and the hold stands.`,
        { details },
      );
    case 'hold_captured':
      // A void that found the hold captured outside the gateway: the payment is completed.
      throw new ApiError(
        'payment_not_authorized',
        `Payment ${operation.payment_id} was captured at the processor; nothing was released. Refund it instead.`,
        { details: { ...details, payment_status: payment.status } },
      );
    default:
      throw new ApiError(
        capture ? 'capture_declined' : 'void_declined',
        capture
          ? 'The processor declined the capture; nothing was taken and the hold stands.'
          : 'The processor declined to release the hold; the payment stays authorized until its hold runs out.',
        { details },
      );
  }
}
