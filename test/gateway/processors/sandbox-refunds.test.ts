/**
 * Sandbox refunds: the refund test cards (approved for payment like any number outside the spec's
 * table, special only when refunded), the outcome a refund and a later status check answer by the
 * last four digits of the card that paid, and which payments the sandbox can refund at all.
 */
import { describe, expect, it } from 'vitest';
import type { Payment } from '../../../gateway/domain/payment.js';
import type { ProcessorCall, RefundRequest } from '../../../gateway/processors/processor.js';
import { processorFor } from '../../../gateway/processors/registry.js';
import {
  chargeTestCard,
  sandboxProcessor,
  sandboxRefund,
  sandboxRefundReference,
  sandboxRefundStatus,
} from '../../../gateway/processors/sandbox/adapter.js';
import {
  SANDBOX_CARDS,
  SANDBOX_REFUND_CARDS,
  sandboxOutcome,
  sandboxRefundOutcome,
} from '../../../gateway/processors/sandbox/map.js';
import { randomIds } from '../../../gateway/runtime/system.js';

const REFUND_ID = '01937a4e-5c1d-7abc-8def-0123456789ab';

/** The refund cards as the docs print them, with what a refund and a status check answer. */
const REFUND_TABLE: Array<[card: string, outcome: string, refund: unknown, status: unknown, canRefund: boolean]> = [
  [
    '4000 0000 0000 5126',
    'refund declined',
    { kind: 'declined', code: 'refund_declined' },
    { kind: 'declined', code: 'refund_declined' },
    true,
  ],
  ['4000 0000 0000 5134', 'processor unavailable for refunds', { kind: 'unavailable' }, { kind: 'unavailable' }, true],
  [
    '4000 0000 0000 5142',
    'no answer, later found refunded',
    { kind: 'unknown' },
    { kind: 'refunded', reference: sandboxRefundReference(REFUND_ID) },
    true,
  ],
  [
    '4000 0000 0000 5159',
    'method that cannot refund',
    { kind: 'declined', code: 'refund_not_supported' },
    { kind: 'declined', code: 'refund_declined' },
    false,
  ],
];

const digitsOf = (card: string) => card.replaceAll(' ', '');

/** The sandbox takes no settings and calls nothing: its calls carry nothing it reads. */
const NO_CALL = {} as ProcessorCall<null>;

function request(cardLast4: string | null): RefundRequest {
  return {
    refundId: REFUND_ID,
    payment: { cardLast4, processor: 'sandbox' } as Payment,
    session: null,
    amount: 1000,
    reason: null,
  };
}

describe('SANDBOX_REFUND_CARDS', () => {
  it('lists exactly the four refund cards, 16 digits starting 4000 0000 0000', () => {
    expect(Object.keys(SANDBOX_REFUND_CARDS).sort()).toEqual(REFUND_TABLE.map(([card]) => digitsOf(card)).sort());
    for (const digits of Object.keys(SANDBOX_REFUND_CARDS)) expect(digits).toMatch(/^400000000000\d{4}$/);
  });

  it("shares neither a number nor last four digits with the spec's card table", () => {
    const specLast4 = new Set(Object.keys(SANDBOX_CARDS).map((d) => d.slice(-4)));
    for (const digits of Object.keys(SANDBOX_REFUND_CARDS)) {
      expect(SANDBOX_CARDS[digits]).toBeUndefined();
      expect(specLast4.has(digits.slice(-4))).toBe(false);
    }
  });

  it.each(REFUND_TABLE)('%s (%s) is approved for payment, keeping its last four digits', (card) => {
    const digits = digitsOf(card);
    expect(sandboxOutcome(digits)).toEqual({ kind: 'approved' });
    expect(chargeTestCard(randomIds, digits)).toMatchObject({ kind: 'paid', cardLast4: digits.slice(-4) });
  });
});

describe('sandboxRefundOutcome', () => {
  it.each([
    ['5126', 'declined'],
    ['5134', 'unavailable'],
    ['5142', 'no_answer'],
    ['5159', 'not_supported'],
  ])('last four %s -> %s', (last4, kind) => {
    expect(sandboxRefundOutcome(last4)).toEqual({ kind });
  });

  it.each([['1111'], ['4444'], ['0002'], ['0309'], ['5127'], ['1265'], [null]])(
    'anything else refunds normally: %s',
    (last4) => {
      expect(sandboxRefundOutcome(last4)).toEqual({ kind: 'refunded' });
    },
  );
});

describe('sandboxRefund and sandboxRefundStatus', () => {
  it.each(REFUND_TABLE)('%s (%s)', (card, _label, refund, status) => {
    const last4 = digitsOf(card).slice(-4);
    expect(sandboxRefund(request(last4))).toEqual(refund);
    expect(sandboxRefundStatus(request(last4))).toEqual(status);
  });

  it('refunds a normal card (and a payment confirmed without a card) at once, with a reference from the refund id', () => {
    for (const last4 of ['1111', null]) {
      expect(sandboxRefund(request(last4))).toEqual({
        kind: 'refunded',
        reference: 'sbx_rf_01937a4e5c1d7abc8def0123456789ab',
      });
      expect(sandboxRefundStatus(request(last4))).toEqual({
        kind: 'refunded',
        reference: 'sbx_rf_01937a4e5c1d7abc8def0123456789ab',
      });
    }
  });

  it('the reference differs per refund', () => {
    expect(sandboxRefundReference('00000000-0000-7000-8000-000000000001')).not.toBe(
      sandboxRefundReference('00000000-0000-7000-8000-000000000002'),
    );
  });
});

describe('sandboxProcessor refunds', () => {
  it('is the registered sandbox, with refund, refundStatus and canRefund', async () => {
    expect(processorFor('sandbox')).toBe(sandboxProcessor);
    expect(typeof sandboxProcessor.refund).toBe('function');
    expect(typeof sandboxProcessor.refundStatus).toBe('function');
    await expect(sandboxProcessor.refund?.(NO_CALL, request('5126'))).resolves.toEqual({
      kind: 'declined',
      code: 'refund_declined',
    });
    await expect(
      sandboxProcessor.refundStatus?.(NO_CALL, { ...request('5142'), processorReference: null }),
    ).resolves.toEqual({
      kind: 'refunded',
      reference: sandboxRefundReference(REFUND_ID),
    });
  });

  it.each(REFUND_TABLE)('%s (%s): canRefund', (card, _label, _refund, _status, canRefund) => {
    const payment = { cardLast4: digitsOf(card).slice(-4) } as Payment;
    expect(sandboxProcessor.canRefund?.(payment)).toBe(canRefund);
  });

  it('can refund a payment paid by any other card, or without a card', () => {
    expect(sandboxProcessor.canRefund?.({ cardLast4: '1111' } as Payment)).toBe(true);
    expect(sandboxProcessor.canRefund?.({ cardLast4: null } as Payment)).toBe(true);
  });
});
