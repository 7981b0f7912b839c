/**
 * Words for the shop owner about a payment its payment system never confirmed to the gateway, and
 * that the gateway cannot ask about (the gateway's `awaiting_processor_reference`): Telcell names
 * its invoice only in its notice, and reads an invoice only by that number. The buyer may have
 * paid; a person settles it with the invoice number from the payment system's merchant cabinet, on
 * the payment's page in the gateway dashboard. Used by the order's expiry note and by the
 * reconciliation's `awaiting_processor_reference` finding.
 */
import type { GatewayPayment } from '../gateway-client/client.js';

/** The payment systems whose notice alone names their id of the order, by the names shop owners know. */
const PAYMENT_SYSTEM_NAMES: Readonly<Record<string, string>> = { telcell: 'Telcell' };

export function paymentSystemName(slug: string | null): string {
  if (slug === null) return 'The payment system';
  return Object.hasOwn(PAYMENT_SYSTEM_NAMES, slug) ? (PAYMENT_SYSTEM_NAMES[slug] as string) : slug;
}

/** What the shop owner does about such a payment. */
export const SETTLE_ADVICE =
  "Look the order up in the merchant cabinet of the payment system named here: if the buyer paid, enter the invoice number on this payment's page in the gateway dashboard, and the gateway checks it and completes the payment (the order is then marked paid); if the buyer did not pay, nothing is owed. You may also wait: a late notice from the payment system completes the payment by itself.";

/** Why the gateway cannot find out by itself, naming the payment system. */
export function whyUnconfirmed(payment: GatewayPayment): string {
  const name = paymentSystemName(payment.processor);
  return `${name} has not told the gateway whether the buyer paid, and the gateway cannot ask ${name} without the invoice number that only ${name}'s notice carries.`;
}

/** The order note's end for such a payment once it expired (after "Gateway payment <uuid> "). */
export function unconfirmedExpiry(payment: GatewayPayment): string {
  return `expired without a confirmation from ${paymentSystemName(payment.processor)}; the buyer may have paid. ${whyUnconfirmed(payment)} ${SETTLE_ADVICE}`;
}
