/**
 * What each credential may do (spec "Authentication", rule 4; DESIGN "connect tokens"): full-access
 * keys everything, payments-only keys create and read payments and payment links, connect tokens
 * create, read and refund payments. Written out as a table so a change to any cell fails a test.
 */
import { describe, expect, it } from 'vitest';
import { type CredentialKind, mayPerform, OPERATIONS, type Operation } from '../../../gateway/domain/access.js';

const FULL: CredentialKind = { kind: 'api_key', access: 'full' };
const PAYMENTS_ONLY: CredentialKind = { kind: 'api_key', access: 'payments' };
const CONNECT_TOKEN: CredentialKind = { kind: 'connect_token' };

/** operation -> [full-access key, payments-only key, connect token] */
const EXPECTED: Record<Operation, [boolean, boolean, boolean]> = {
  'payments.create': [true, true, true],
  'payments.read': [true, true, true],
  'payment_links.manage': [true, true, false],
  'refunds.create': [true, false, true],
  'payments.capture': [true, true, true],
  'billing.read': [true, false, false],
  'billing.purchase': [true, false, false],
  'billing.configure': [true, false, false],
  'receipts.create': [true, false, false],
  'receipts.read': [true, false, false],
  'webhooks.resend': [true, false, false],
  'payments.settle': [true, false, false],
  'test_helpers.use': [true, true, false],
  'customers.read': [true, false, false],
};

describe('mayPerform', () => {
  it('the table below covers every operation there is', () => {
    expect([...OPERATIONS].sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  describe.each(OPERATIONS)('%s', (operation) => {
    const [full, paymentsOnly, connect] = EXPECTED[operation];

    it(`full-access key: ${full ? 'allowed' : 'refused'}`, () => {
      expect(mayPerform(FULL, operation)).toBe(full);
    });

    it(`payments-only key: ${paymentsOnly ? 'allowed' : 'refused'}`, () => {
      expect(mayPerform(PAYMENTS_ONLY, operation)).toBe(paymentsOnly);
    });

    it(`connect token: ${connect ? 'allowed' : 'refused'}`, () => {
      expect(mayPerform(CONNECT_TOKEN, operation)).toBe(connect);
    });
  });

  it('a payments-only key may neither refund nor buy units (spec wording)', () => {
    expect(mayPerform(PAYMENTS_ONLY, 'refunds.create')).toBe(false);
    expect(mayPerform(PAYMENTS_ONLY, 'billing.purchase')).toBe(false);
  });
});
