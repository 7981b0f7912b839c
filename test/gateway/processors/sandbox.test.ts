/**
 * The sandbox processor (spec "Sandbox card outcomes"): the card table as the spec prints it, how a
 * typed card number is read (spaces and dashes accepted, exactly 16 digits), what charging a card
 * answers (the outcome, the last four digits, a 12-digit rrn for an approval), and where the buyer
 * is sent to pay.
 */
import { describe, expect, it } from 'vitest';
import type { IdGenerator } from '../../../gateway/domain/ids.js';
import type { Payment } from '../../../gateway/domain/payment.js';
import { chargeTestCard, sandboxProcessor, sandboxRrn } from '../../../gateway/processors/sandbox/adapter.js';
import { readCardNumber, SANDBOX_CARDS, sandboxOutcome } from '../../../gateway/processors/sandbox/map.js';
import { randomIds } from '../../../gateway/runtime/system.js';

/** The spec's table, card numbers written as the spec writes them, with the failure code we record. */
const SPEC_TABLE: Array<[card: string, outcome: string, failureCode: string | null]> = [
  ['4111 1111 1111 1111', 'Approved', null],
  ['4000 0000 0000 0002', 'Declined by issuer', 'declined'],
  ['4000 0000 0000 0069', 'Insufficient funds', 'insufficient_funds'],
  ['4000 0000 0000 0119', 'Processor timeout', 'processor_timeout'],
  ['4000 0000 0000 0101', '3-D Secure failed', '3ds_failed'],
  ['4000 0000 0000 0127', 'Amount limit exceeded', 'amount_limit_exceeded'],
  ['4000 0000 0000 0200', 'Duplicate transaction', 'duplicate_transaction'],
  ['4000 0000 0000 0259', 'Transaction expired', 'transaction_expired'],
  ['4000 0000 0000 0309', 'Processor unavailable', 'processor_unavailable'],
  ['4000 0000 0000 0341', 'General failure', 'general_failure'],
];

const digitsOf = (card: string) => card.replaceAll(' ', '');

/** An id generator whose tokens are fixed bytes, so the rrn they make is known. */
function fixedTokenIds(bytes: number[]): IdGenerator & { requested: number[] } {
  const requested: number[] = [];
  return {
    requested,
    uuid: () => '00000000-0000-7000-8000-000000000000',
    token: (size) => {
      requested.push(size);
      return Buffer.from(bytes.slice(0, size)).toString('base64url');
    },
  };
}

describe('SANDBOX_CARDS', () => {
  it('lists exactly the cards of the spec', () => {
    expect(Object.keys(SANDBOX_CARDS).sort()).toEqual(SPEC_TABLE.map(([card]) => digitsOf(card)).sort());
  });

  it.each(SPEC_TABLE)('%s (%s)', (card, _outcome, failureCode) => {
    const outcome = sandboxOutcome(digitsOf(card));
    if (failureCode === null) expect(outcome).toEqual({ kind: 'approved' });
    else if (failureCode === 'processor_timeout') expect(outcome).toEqual({ kind: 'no_answer', failureCode });
    else expect(outcome).toEqual({ kind: 'declined', failureCode });
  });

  it.each(['4242424242424242', '5555555555554444', '4000000000000010', '0000000000000000', '9999999999999999'])(
    'any other 16-digit number is approved: %s',
    (digits) => {
      expect(sandboxOutcome(digits)).toEqual({ kind: 'approved' });
    },
  );
});

describe('readCardNumber', () => {
  it.each([
    ['4111111111111111', '4111111111111111'],
    ['4111 1111 1111 1111', '4111111111111111'],
    ['4000-0000-0000-0002', '4000000000000002'],
    ['  4000 0000-0000 0069  ', '4000000000000069'],
    ['4000\t0000\t0000\t0119', '4000000000000119'],
    ['4 0 0 0 0 0 0 0 0 0 0 0 0 1 0 1', '4000000000000101'],
  ])('accepts %j as %s', (input, digits) => {
    expect(readCardNumber(input)).toEqual({ ok: true, digits });
  });

  it.each([
    ['', 'empty'],
    ['411111111111111', '15 digits'],
    ['41111111111111111', '17 digits'],
    ['4111 1111 1111 111', '15 digits with spaces'],
    ['4111 1111 1111 1111 1', '17 digits with spaces'],
    ['4111 1111 1111 111a', 'a letter'],
    ['4111.1111.1111.1111', 'dots between groups'],
    ['4111/1111/1111/1111', 'slashes between groups'],
    ['٤١١١١١١١١١١١١١١١', 'Arabic-Indic digits'],
    ['+411111111111111', 'a sign'],
  ])('refuses %j (%s)', (input, _label) => {
    const check = readCardNumber(input);
    expect(check).toEqual({ ok: false, reason: 'The card number must have 16 digits.' });
  });

  it.each([
    [4111111111111111, 'a JSON number'],
    [null, 'null'],
    [undefined, 'missing'],
    [['4111111111111111'], 'an array'],
    [{ number: '4111111111111111' }, 'an object'],
  ])('refuses %j (%s): the number must be a string', (input, _label) => {
    expect(readCardNumber(input)).toEqual({ ok: false, reason: 'Enter the 16-digit card number.' });
  });
});

describe('chargeTestCard', () => {
  it.each(SPEC_TABLE)('%s (%s) keeps only the last four digits', (card, _outcome, failureCode) => {
    const digits = digitsOf(card);
    const result = chargeTestCard(randomIds, digits);
    const last4 = digits.slice(-4);
    if (failureCode === null) {
      expect(result).toEqual({
        kind: 'paid',
        rrn: expect.stringMatching(/^\d{12}$/),
        cardLast4: last4,
        processor: 'sandbox',
      });
    } else if (failureCode === 'processor_timeout') {
      expect(result).toEqual({ kind: 'pending', failureCode, cardLast4: last4 });
    } else {
      expect(result).toEqual({ kind: 'declined', failureCode, cardLast4: last4 });
    }
    expect(JSON.stringify(result)).not.toContain(digits);
  });

  it('approves any other 16-digit number with its last four digits', () => {
    expect(chargeTestCard(randomIds, '5555555555554444')).toEqual({
      kind: 'paid',
      rrn: expect.stringMatching(/^\d{12}$/),
      cardLast4: '4444',
      processor: 'sandbox',
    });
  });
});

describe('sandboxRrn', () => {
  it('is 12 decimal digits taken from 12 random bytes, each byte modulo 10', () => {
    const ids = fixedTokenIds([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 255]);
    expect(sandboxRrn(ids)).toBe('012345678905');
    expect(ids.requested).toEqual([12]);
  });

  it('keeps leading zeros', () => {
    expect(sandboxRrn(fixedTokenIds(Array(12).fill(0)))).toBe('000000000000');
  });

  it('differs between payments', () => {
    const rrns = Array.from({ length: 200 }, () => sandboxRrn(randomIds));
    for (const rrn of rrns) expect(rrn).toMatch(/^\d{12}$/);
    expect(new Set(rrns).size).toBe(rrns.length);
  });
});

describe('sandboxProcessor', () => {
  it('is the processor "sandbox", paid on the test payment page of the checkout', () => {
    expect(sandboxProcessor.slug).toBe('sandbox');
    expect(sandboxProcessor.displayName).toBe('Test card (sandbox)');
    const payment = { checkoutToken: 'tok_abc' } as Payment;
    expect(sandboxProcessor.paymentPageUrl?.(payment, 'http://gateway.test')).toBe(
      'http://gateway.test/checkout/tok_abc/sandbox',
    );
  });
});
