/**
 * The limits a payment must fit (docs/decisions.md, "Payment limits"): a domain's own values or the
 * service defaults, who the buyer is, and when one more payment fits.
 */
import { describe, expect, it } from 'vitest';
import { buyerKey, effectiveLimits, velocityRetryAfterSeconds } from '../../../gateway/domain/payment-limits.js';

const DEFAULTS = { maxPaymentAmount: 5_000_000, velocityLimit: 10, velocityWindowMinutes: 60 };
const UNSET = { maxPaymentAmount: null, velocityLimit: null, velocityWindowMinutes: null };
const LIVE = { sandbox: false };
const SANDBOX = { sandbox: true };

describe('effectiveLimits', () => {
  it('follows the defaults where the domain set nothing', () => {
    expect(effectiveLimits(UNSET, DEFAULTS, LIVE)).toEqual({
      maxAmount: 5_000_000,
      velocityLimit: 10,
      velocityWindowMinutes: 60,
    });
  });

  it("takes the domain's own values, 0 turning velocity off", () => {
    expect(
      effectiveLimits({ maxPaymentAmount: 20_000, velocityLimit: 0, velocityWindowMinutes: 5 }, DEFAULTS, LIVE),
    ).toEqual({ maxAmount: 20_000, velocityLimit: 0, velocityWindowMinutes: 5 });
    expect(effectiveLimits({ ...UNSET, velocityLimit: 3 }, DEFAULTS, LIVE)).toMatchObject({
      velocityLimit: 3,
      velocityWindowMinutes: 60,
    });
  });

  it('spares sandbox payments the default velocity limit, not a limit their domain set', () => {
    expect(effectiveLimits(UNSET, DEFAULTS, SANDBOX)).toMatchObject({ velocityLimit: 0, maxAmount: 5_000_000 });
    expect(effectiveLimits({ ...UNSET, velocityLimit: 3 }, DEFAULTS, SANDBOX)).toMatchObject({ velocityLimit: 3 });
  });

  it('never lets a domain exceed a service-wide maximum that was lowered after it was set', () => {
    expect(
      effectiveLimits({ ...UNSET, maxPaymentAmount: 900_000 }, { ...DEFAULTS, maxPaymentAmount: 100_000 }, LIVE),
    ).toMatchObject({ maxAmount: 100_000 });
  });
});

describe('buyerKey', () => {
  it("prefers the merchant's customer_id, as sent", () => {
    expect(buyerKey({ customerId: 'Cust-7', customerEmail: 'a@b.am' })).toBe('customer:Cust-7');
  });

  it('else the email, trimmed and in lower case', () => {
    expect(buyerKey({ customerId: null, customerEmail: ' Anna.B@Example.AM ' })).toBe('email:anna.b@example.am');
  });

  it('is unknown without either', () => {
    expect(buyerKey({ customerId: null, customerEmail: null })).toBeNull();
  });

  it('keeps customer ids and emails apart', () => {
    expect(buyerKey({ customerId: 'a@b.am', customerEmail: null })).not.toBe(
      buyerKey({ customerId: null, customerEmail: 'a@b.am' }),
    );
  });
});

describe('velocityRetryAfterSeconds', () => {
  const created = Date.UTC(2026, 10, 21, 10, 0, 0);
  it('counts to the moment the counted payment leaves the window, rounded up', () => {
    expect(velocityRetryAfterSeconds(created, 60, created + 10 * 60_000)).toBe(50 * 60);
    expect(velocityRetryAfterSeconds(created, 60, created + 60 * 60_000 - 1500)).toBe(2);
  });

  it('is at least one second', () => {
    expect(velocityRetryAfterSeconds(created, 60, created + 60 * 60_000)).toBe(1);
  });
});
