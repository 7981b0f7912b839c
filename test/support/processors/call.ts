/**
 * What adapter tests give an adapter: a `ProcessorCall` built as the core builds it (real HTTP
 * client, guard open to loopback for local fakes) and a payment as the core passes it.
 */
import type { Payment } from '../../../gateway/domain/payment.js';
import { createProcessorHttp, type ProcessorHttp } from '../../../gateway/processors/http.js';
import type { ProcessorCall, ProcessorSession } from '../../../gateway/processors/processor.js';

export const TEST_PUBLIC_URL = 'https://pay.example.am';

/** One HTTP client for a test file; close it in afterAll. */
export function loopbackHttp(): ProcessorHttp {
  return createProcessorHttp({ allowPrivate: true });
}

export function testCall<C>(
  config: C,
  http: ProcessorHttp,
  overrides: Partial<Omit<ProcessorCall<C>, 'config' | 'http'>> = {},
): ProcessorCall<C> {
  return {
    config,
    http,
    returnUrl: `${TEST_PUBLIC_URL}/checkout/tok_test/return`,
    callbackUrl: `${TEST_PUBLIC_URL}/processors/test/callback`,
    language: 'hy',
    secondsLeft: 1200,
    sequence: memorySequence(),
    ...overrides,
  };
}

/** A counter that answers as the core's does (`ProcessorCall.sequence`), kept in memory. */
export function memorySequence(): ProcessorCall<unknown>['sequence'] {
  let last = 0;
  return async ({ min, max }) => {
    const next = Math.max(last + 1, min);
    if (next > max) return null;
    last = next;
    return next;
  };
}

export function testPayment(overrides: Partial<Payment> = {}): Payment {
  return {
    uuid: '0192f5a4-7b1c-7d2e-9f00-1234567890ab',
    merchantId: 'mch_test',
    environment: 'live',
    sandbox: false,
    domainId: 'dom_test',
    orderId: 'order-1001',
    amount: 1500,
    refundedAmount: 0,
    currency: 'AMD',
    price: null,
    charge: null,
    status: 'processing',
    captureMethod: 'automatic',
    authorizedAmount: null,
    captureBefore: null,
    processor: null,
    redirectMode: 'hosted',
    paymentFlow: 'redirect',
    qrCode: null,
    rrn: null,
    failureCode: null,
    customerId: null,
    customerEmail: null,
    customerName: null,
    description: 'Order 1001',
    items: null,
    returnUrl: 'https://shop.example.am/thanks',
    cancelUrl: null,
    callbackUrl: null,
    checkoutToken: 'tok_test',
    cardLast4: null,
    reconciliationFlag: null,
    createdAt: '2026-11-23T10:00:00.000Z',
    updatedAt: '2026-11-23T10:00:00.000Z',
    expiresAt: '2026-11-23T10:20:00.000Z',
    completedAt: null,
    refundedAt: null,
    ...overrides,
  };
}

export function testSession(overrides: Partial<ProcessorSession> = {}): ProcessorSession {
  return {
    paymentId: '0192f5a4-7b1c-7d2e-9f00-1234567890ab',
    processor: 'test',
    orderNumber: '0192f5a47b1c7d2e9f001234567890ab',
    reference: null,
    ...overrides,
  };
}
