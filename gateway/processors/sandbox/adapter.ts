/**
 * The sandbox processor: no bank, no money. The buyer pays on our own test payment page, whose card
 * number decides the outcome (./map.ts). Only the last four digits are kept.
 */
import type { IdGenerator } from '../../domain/ids.js';
import type { ProviderResult } from '../../domain/payment-lifecycle.js';
import type { Processor } from '../processor.js';
import { sandboxOutcome } from './map.js';

export const sandboxProcessor: Processor = {
  slug: 'sandbox',
  displayName: 'Test card (sandbox)',
  paymentPageUrl: (payment, publicUrl) => `${publicUrl}/checkout/${payment.checkoutToken}/sandbox`,
};

/** A 12-digit retrieval reference number, as Armenian processors issue them. */
export function sandboxRrn(ids: IdGenerator): string {
  const bytes = Buffer.from(ids.token(12), 'base64url');
  let rrn = '';
  for (let i = 0; i < 12; i++) rrn += String((bytes[i] as number) % 10);
  return rrn;
}

/** Charges a (validated, 16-digit) test card. */
export function chargeTestCard(ids: IdGenerator, digits: string): ProviderResult {
  const outcome = sandboxOutcome(digits);
  const cardLast4 = digits.slice(-4);
  switch (outcome.kind) {
    case 'approved':
      return { kind: 'paid', rrn: sandboxRrn(ids), cardLast4, processor: 'sandbox' };
    case 'declined':
      return { kind: 'declined', failureCode: outcome.failureCode, cardLast4 };
    case 'no_answer':
      return { kind: 'pending', failureCode: outcome.failureCode, cardLast4 };
  }
}
