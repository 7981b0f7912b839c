/**
 * What the checkout needs from a processor. Each processor lives in its own folder beside this
 * file: `adapter.ts` (HTTP and auth with the remote), `wire.ts` (the remote's exact shapes),
 * `map.ts` (pure mapping to the core's types), and `webhook.ts` where the remote calls back.
 */
import type { Payment } from '../domain/payment.js';

export interface Processor {
  readonly slug: string;
  /** The name the buyer sees on the checkout's list of methods. */
  readonly displayName: string;
  /** Where the buyer goes to pay once this processor is chosen for the payment. */
  paymentPageUrl(payment: Payment, publicUrl: string): string;
}
