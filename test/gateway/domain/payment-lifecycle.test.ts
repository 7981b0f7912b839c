/**
 * The payment state machine (spec "States and transitions"): which transition may start from which
 * status, which statuses are final and emit `transaction.status.updated`, which statuses hold the
 * order, and the failure codes a payment may record. Written out as tables so a change to any cell
 * fails a test.
 */
import { describe, expect, it } from 'vitest';
import { PAYMENT_STATUSES, type PaymentStatus } from '../../../gateway/domain/payment.js';
import {
  canApply,
  FAILURE_CODES,
  FINAL_STATUSES,
  holdsOrder,
  TRANSITIONS,
  type Transition,
} from '../../../gateway/domain/payment-lifecycle.js';

/** transition -> [statuses it starts from, status it leads to] */
const EXPECTED: Record<Transition, [PaymentStatus[], PaymentStatus]> = {
  start_processing: [['pending'], 'processing'],
  complete: [['processing'], 'completed'],
  fail: [['processing'], 'failed'],
  expire: [['pending', 'processing'], 'expired'],
  confirm_late: [['failed', 'expired'], 'completed'],
  authorize: [['processing'], 'authorized'],
  authorize_late: [['failed', 'expired'], 'authorized'],
  capture: [['authorized'], 'completed'],
  release: [['authorized'], 'expired'],
};

const TRANSITION_NAMES = Object.keys(EXPECTED) as Transition[];

describe('TRANSITIONS', () => {
  it('has exactly the transitions of the spec', () => {
    expect(Object.keys(TRANSITIONS).sort()).toEqual([...TRANSITION_NAMES].sort());
  });

  describe.each(TRANSITION_NAMES)('%s', (transition) => {
    const [from, to] = EXPECTED[transition];

    it(`leads from ${from.join(' or ')} to ${to}`, () => {
      expect([...TRANSITIONS[transition].from].sort()).toEqual([...from].sort());
      expect(TRANSITIONS[transition].to).toBe(to);
    });

    it.each(PAYMENT_STATUSES)('canApply from %s', (status) => {
      expect(canApply(transition, status)).toBe(from.includes(status));
    });
  });

  it('nothing leaves completed or refunded: a paid payment never expires or fails', () => {
    for (const transition of TRANSITION_NAMES) {
      expect(canApply(transition, 'completed')).toBe(false);
      expect(canApply(transition, 'refunded')).toBe(false);
    }
  });

  it('only completed (or authorized, for a hold) is reachable from failed or expired (late confirmation)', () => {
    for (const status of ['failed', 'expired'] as const) {
      const reachable = TRANSITION_NAMES.filter((t) => canApply(t, status)).map((t) => TRANSITIONS[t].to);
      expect(reachable.sort()).toEqual(['authorized', 'completed']);
    }
  });

  it('an authorized payment only ends captured (completed) or released (expired)', () => {
    const reachable = TRANSITION_NAMES.filter((t) => canApply(t, 'authorized')).map((t) => TRANSITIONS[t].to);
    expect(reachable.sort()).toEqual(['completed', 'expired']);
  });
});

describe('FINAL_STATUSES', () => {
  it('are the statuses that emit transaction.status.updated: completed, failed, expired', () => {
    expect([...FINAL_STATUSES].sort()).toEqual(['completed', 'expired', 'failed']);
  });
});

describe('holdsOrder', () => {
  const HOLDS: Record<PaymentStatus, boolean> = {
    pending: true,
    processing: true,
    authorized: true,
    completed: true,
    refunded: true,
    failed: false,
    expired: false,
  };

  it('the table covers every status there is', () => {
    expect(Object.keys(HOLDS).sort()).toEqual([...PAYMENT_STATUSES].sort());
  });

  it.each(PAYMENT_STATUSES)('%s', (status) => {
    expect(holdsOrder(status)).toBe(HOLDS[status]);
  });
});

describe('FAILURE_CODES', () => {
  it('are the issue\'s codes, one per sandbox outcome that is not "approved"', () => {
    expect([...FAILURE_CODES].sort()).toEqual(
      [
        '3ds_failed',
        'amount_limit_exceeded',
        'declined',
        'duplicate_transaction',
        'general_failure',
        'insufficient_funds',
        'processor_timeout',
        'processor_unavailable',
        'transaction_expired',
      ].sort(),
    );
  });
});
