/**
 * The sandbox processor: no bank, no money. The buyer pays on our own test payment page, whose card
 * number decides the outcome (./map.ts). Only the last four digits are kept. Refunds are answered
 * at once; the card that paid decides their outcome (`SANDBOX_REFUND_CARDS` in ./map.ts). A
 * `manual` payment is authorized instead of paid, held for `SANDBOX_HOLD_MS`; its capture and
 * release are answered at once, as the card that authorized it decides (`SANDBOX_HOLD_CARDS`).
 */
import { DAY_MS } from '../../domain/clock.js';
import type { IdGenerator } from '../../domain/ids.js';
import type { CaptureMethod } from '../../domain/payment.js';
import type { ProviderResult } from '../../domain/payment-lifecycle.js';
import type { HoldAttempt, HoldFinding, HoldRequest, Processor, RefundAttempt, RefundRequest } from '../processor.js';
import { sandboxHoldOutcome, sandboxOutcome, sandboxRefundOutcome } from './map.js';

/** How long a sandbox hold may be captured: 7 days, as card holds commonly last. */
export const SANDBOX_HOLD_MS = 7 * DAY_MS;

/** The sandbox's reference for a capture or release: derived from the operation's id, so a status check finds the same one. */
export function sandboxHoldReference(operationId: string): string {
  return `sbx_hd_${operationId.replaceAll('-', '')}`;
}

/** What capturing or releasing a sandbox hold answers, by the card that authorized it. */
export function sandboxHoldAttempt(request: HoldRequest): HoldAttempt {
  const outcome = sandboxHoldOutcome(request.payment.cardLast4);
  switch (outcome.kind) {
    case 'approved':
    case 'expired_hold':
      return { kind: 'done', reference: sandboxHoldReference(request.operationId) };
    case 'capture_declined':
      return request.kind === 'capture'
        ? { kind: 'declined', code: 'capture_declined' }
        : { kind: 'done', reference: sandboxHoldReference(request.operationId) };
    case 'no_answer':
      return { kind: 'unknown' };
  }
}

/**
 * What reading a sandbox hold back finds. The sandbox keeps no state: an operation that got no
 * answer (or was left pending by a crash) is found done; a declined capture leaves the hold held.
 */
export function sandboxHoldStatus(request: HoldRequest): HoldFinding {
  const outcome = sandboxHoldOutcome(request.payment.cardLast4);
  if (request.kind === 'capture' && outcome.kind === 'capture_declined') return { kind: 'held' };
  return request.kind === 'capture'
    ? { kind: 'captured', amount: request.amount, reference: sandboxHoldReference(request.operationId) }
    : { kind: 'released' };
}

/** The sandbox's reference for a refund: derived from the refund's uuid, so a status check finds the same one. */
export function sandboxRefundReference(refundId: string): string {
  return `sbx_rf_${refundId.replaceAll('-', '')}`;
}

/** What refunding a sandbox payment answers, by the card that paid it. */
export function sandboxRefund(request: RefundRequest): RefundAttempt {
  const outcome = sandboxRefundOutcome(request.payment.cardLast4);
  switch (outcome.kind) {
    case 'refunded':
      return { kind: 'refunded', reference: sandboxRefundReference(request.refundId) };
    case 'declined':
      return { kind: 'declined', code: 'refund_declined' };
    case 'unavailable':
      return { kind: 'unavailable' };
    case 'no_answer':
      return { kind: 'unknown' };
    case 'not_supported':
      // Not reached through the API (canRefund answers false first); refusing is the safe answer.
      return { kind: 'declined', code: 'refund_not_supported' };
  }
}

/**
 * What a status check of a sandbox refund finds. The sandbox keeps no state: a refund that got no
 * answer (and any refund left pending by a crash) is found refunded; a declined card stays declined;
 * the processor that is unavailable for refunds cannot be asked either.
 */
export function sandboxRefundStatus(request: RefundRequest): RefundAttempt {
  const outcome = sandboxRefundOutcome(request.payment.cardLast4);
  switch (outcome.kind) {
    case 'refunded':
    case 'no_answer':
      return { kind: 'refunded', reference: sandboxRefundReference(request.refundId) };
    case 'declined':
    case 'not_supported':
      return { kind: 'declined', code: 'refund_declined' };
    case 'unavailable':
      return { kind: 'unavailable' };
  }
}

/** A card outline with a flask: a test card. */
const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 32" width="48" height="32" aria-hidden="true">' +
  '<rect x="1" y="3" width="46" height="26" rx="4" fill="none" stroke="currentColor" stroke-width="2"/>' +
  '<rect x="1" y="9" width="46" height="5" fill="currentColor"/>' +
  '<path d="M30 17h6M31.5 17v3.5l-3.5 6h10l-3.5-6V17" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linejoin="round"/>' +
  '</svg>';

export const sandboxProcessor: Processor<null> = {
  slug: 'sandbox',
  displayName: 'Test card (sandbox)',
  logoSvg: LOGO_SVG,
  configSchema: null,
  paymentPageUrl: (payment, publicUrl) => `${publicUrl}/checkout/${payment.checkoutToken}/sandbox`,
  refund: async (_call, request) => sandboxRefund(request),
  refundStatus: async (_call, request) => sandboxRefundStatus(request),
  canRefund: (payment) => sandboxRefundOutcome(payment.cardLast4).kind !== 'not_supported',
  holds: {
    windowMs: SANDBOX_HOLD_MS,
    partialCapture: true,
    capture: async (_call, request) => sandboxHoldAttempt(request),
    release: async (_call, request) => sandboxHoldAttempt(request),
    status: async (_call, request) => sandboxHoldStatus(request),
  },
};

/** A 12-digit retrieval reference number, as Armenian processors issue them. */
export function sandboxRrn(ids: IdGenerator): string {
  const bytes = Buffer.from(ids.token(12), 'base64url');
  let rrn = '';
  for (let i = 0; i < 12; i++) rrn += String((bytes[i] as number) % 10);
  return rrn;
}

/**
 * Charges a (validated, 16-digit) test card; for a `manual` payment, an approved card is held
 * instead (for `SANDBOX_HOLD_MS`, or not at all for the expired-hold card).
 */
export function chargeTestCard(
  ids: IdGenerator,
  digits: string,
  captureMethod: CaptureMethod = 'automatic',
): ProviderResult {
  const outcome = sandboxOutcome(digits);
  const cardLast4 = digits.slice(-4);
  switch (outcome.kind) {
    case 'approved':
      if (captureMethod === 'manual') {
        const holdMs = sandboxHoldOutcome(cardLast4).kind === 'expired_hold' ? 0 : SANDBOX_HOLD_MS;
        return { kind: 'authorized', rrn: sandboxRrn(ids), cardLast4, holdMs, processor: 'sandbox' };
      }
      return { kind: 'paid', rrn: sandboxRrn(ids), cardLast4, processor: 'sandbox' };
    case 'declined':
      return { kind: 'declined', failureCode: outcome.failureCode, cardLast4 };
    case 'no_answer':
      return { kind: 'pending', failureCode: outcome.failureCode, cardLast4 };
  }
}
