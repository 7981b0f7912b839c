/**
 * The rules of plugins/shopify/payments-app/hold-outcomes.ts on their own: which gateway answers to
 * a capture or a void decide the Shopify session (and how), and which leave it to be asked again
 * with the same key because the outcome is not known.
 */
import { describe, expect, it } from 'vitest';
import { ConnectorError } from '../../../connector/errors.js';
import { GatewayError, type GatewayPayment } from '../../../connector/gateway-client/client.js';
import { captureStep, outcomeNotKnown, voidStep } from '../../../plugins/shopify/payments-app/hold-outcomes.js';

const payment = (overrides: Partial<GatewayPayment>): GatewayPayment =>
  ({ uuid: 'p', status: 'authorized', amount: 1500, failure_code: null, ...overrides }) as GatewayPayment;
const refusal = (status: number, code: string) => new GatewayError(status, code, `the gateway said ${code}`);

describe('capture and void outcomes', () => {
  it('asks again (never decides) while the outcome is not known', () => {
    for (const error of [
      refusal(0, 'gateway_unavailable'),
      refusal(429, 'rate_limited'),
      refusal(503, 'http_503'),
      refusal(409, 'capture_outcome_unknown'),
      refusal(409, 'void_outcome_unknown'),
      refusal(409, 'hold_operation_in_progress'),
      refusal(409, 'processor_unavailable'),
      refusal(409, 'conflict'),
      new Error('socket hang up'),
    ]) {
      expect(outcomeNotKnown(error), String(error)).toBe(true);
      expect('later' in captureStep({ error }, 1500)).toBe(true);
      expect('later' in voidStep({ error })).toBe(true);
    }
    expect(outcomeNotKnown(new ConnectorError(409, 'shop_not_connected', 'gone'))).toBe(false);
    expect(outcomeNotKnown(refusal(409, 'capture_declined'))).toBe(false);
  });

  it('capture: completed resolves; a hold that ran out is AUTHORIZATION_EXPIRED; other refusals PROCESSING_ERROR', () => {
    expect(captureStep({ payment: payment({ status: 'completed' }) }, 1500)).toEqual({ decide: { action: 'resolve' } });
    expect(captureStep({ payment: payment({ status: 'authorized' }) }, 1500)).toHaveProperty('later');
    const expired = captureStep({ error: refusal(409, 'authorization_expired') }, 1500);
    expect(expired).toMatchObject({ decide: { action: 'reject', code: 'AUTHORIZATION_EXPIRED' } });
    for (const code of ['capture_declined', 'amount_exceeds_authorized', 'validation_failed', 'not_found']) {
      expect(captureStep({ error: refusal(code === 'validation_failed' ? 422 : 409, code) }, 1500)).toMatchObject({
        decide: { action: 'reject', code: 'PROCESSING_ERROR' },
      });
    }
  });

  it('capture of a payment no longer authorized: resolved when captured for the amount asked, left for a person when for another', () => {
    const error = refusal(409, 'payment_not_authorized');
    expect(captureStep({ error, readBack: payment({ status: 'completed', amount: 1500 }) }, 1500)).toEqual({
      decide: { action: 'resolve' },
    });
    // Captured for another amount elsewhere: neither answer is true, a person settles it.
    const other = captureStep({ error, readBack: payment({ status: 'completed', amount: 1000 }) }, 1500);
    expect(other).toEqual({ person: expect.stringContaining('captured for 1000 AMD') });
    expect(captureStep({ error, readBack: payment({ status: 'refunded', amount: 1000 }) }, 1500)).toHaveProperty(
      'person',
    );
    expect(
      captureStep({ error, readBack: payment({ status: 'expired', failure_code: 'authorization_expired' }) }, 1500),
    ).toMatchObject({ decide: { action: 'reject', code: 'AUTHORIZATION_EXPIRED' } });
    expect(captureStep({ error }, 1500)).toMatchObject({ decide: { action: 'reject', code: 'PROCESSING_ERROR' } });
  });

  it('void: released (or run out) resolves; declined or captured is rejected with PROCESSING_ERROR', () => {
    expect(voidStep({ payment: payment({ status: 'expired', failure_code: 'voided' }) })).toEqual({
      decide: { action: 'resolve' },
    });
    expect(voidStep({ error: refusal(409, 'authorization_expired') })).toEqual({ decide: { action: 'resolve' } });
    const notHeld = refusal(409, 'payment_not_authorized');
    expect(voidStep({ error: notHeld, readBack: payment({ status: 'expired' }) })).toEqual({
      decide: { action: 'resolve' },
    });
    const captured = voidStep({ error: notHeld, readBack: payment({ status: 'completed' }) });
    expect(captured).toMatchObject({ decide: { action: 'reject', code: 'PROCESSING_ERROR' } });
    expect(JSON.stringify(captured)).toContain('refund it instead');
    expect(voidStep({ error: refusal(409, 'void_declined') })).toMatchObject({
      decide: { action: 'reject', code: 'PROCESSING_ERROR' },
    });
  });
});
