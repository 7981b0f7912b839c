/**
 * Paying a sandbox payment with a test card: the one code path behind both the test payment page
 * and `POST /api/v1/test_helpers/payments/{uuid}/pay`. The card number is read, used to pick the
 * outcome and forgotten; only its last four digits reach the payment.
 */
import type { Payment } from '../domain/payment.js';
import { chargeTestCard } from '../processors/sandbox/adapter.js';
import { readCardNumber } from '../processors/sandbox/map.js';
import type { Deps } from '../runtime/deps.js';
import { applyProviderResult, expireIfDueNow, startProcessing } from './lifecycle.service.js';

export type TestCardPayment =
  | { readonly ok: true; readonly payment: Payment }
  | { readonly ok: false; readonly reason: string };

export async function payWithTestCard(deps: Deps, payment: Payment, cardNumber: unknown): Promise<TestCardPayment> {
  const card = readCardNumber(cardNumber);
  if (!card.ok) return { ok: false, reason: card.reason };
  // A live payment is never paid by a test card, whatever its status (docs/decisions.md "Live and test payments").
  if (!payment.sandbox) return { ok: true, payment };
  let current = payment;
  if (current.status === 'pending') current = await startProcessing(deps, current.uuid, 'sandbox');
  if (current.status !== 'processing' || current.processor !== 'sandbox') {
    // Final, expired, or waiting at another processor: nothing is charged.
    return { ok: true, payment: current };
  }
  const expired = await expireIfDueNow(deps, current.uuid);
  if (expired !== undefined) return { ok: true, payment: expired };
  const result = chargeTestCard(deps.ids, card.digits, current.captureMethod);
  return { ok: true, payment: await applyProviderResult(deps, current.uuid, result) };
}
