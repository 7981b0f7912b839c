/**
 * What the Shopify driver writes on an order: its note, kept under Shopify's length by dropping the
 * oldest lines, and the words that name a gateway refund (in a Shopify refund's note or the order
 * note, and the tag of an order whose refund was written down instead).
 */
import type { GatewayRefund } from '../../connector/platforms/platform.js';

/** The tag on an order whose gateway refund was written down as a note instead of a Shopify refund. */
export const GATEWAY_REFUND_TAG = 'gateway-refund';
/**
 * The longest order note written. Shopify's limit on `Order.note` is not in the Admin API reference;
 * 5000 characters is the limit apps report, so the driver stays under it.
 */
export const MAX_NOTE_LENGTH = 5000;

/** The text naming a gateway refund in a Shopify refund's note (or the order note). */
export function refundMarker(uuid: string): string {
  return `gateway refund ${uuid}`;
}

export function refundNote(refund: GatewayRefund): string {
  const reason = refund.reason?.trim() ?? '';
  return reason === ''
    ? `Refunded at the gateway (${refundMarker(refund.uuid)})`
    : `${reason} (${refundMarker(refund.uuid)})`;
}

/**
 * The order note with `line` appended. When the result would pass {@link MAX_NOTE_LENGTH}, the
 * oldest lines are dropped first (the newest say most about the order now); a single line longer
 * than the limit is cut.
 */
export function appendNoteLine(existing: string | null | undefined, line: string): string {
  const clean = line.replace(/\s*\n\s*/g, ' ').trim();
  const lines = (existing ?? '').split('\n').filter((entry) => entry.trim() !== '');
  lines.push(clean.slice(0, MAX_NOTE_LENGTH));
  while (lines.length > 1 && lines.join('\n').length > MAX_NOTE_LENGTH) lines.shift();
  return lines.join('\n');
}
