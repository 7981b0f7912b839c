/**
 * The checkout iframe and the messages its page sends. A message counts only when it comes from the
 * checkout's origin, from this iframe's window, and carries `source: 'payment-gateway-checkout'`.
 */
import type { ErrorData, SuccessData } from './types.js';

export const MESSAGE_SOURCE = 'payment-gateway-checkout';

const RESULT_STATUSES = ['completed', 'failed', 'expired', 'cancelled'] as const;
type ResultStatus = (typeof RESULT_STATUSES)[number];

const DEFAULT_MESSAGES: Record<Exclude<ResultStatus, 'completed'>, string> = {
  failed: 'The payment failed.',
  expired: 'The payment expired.',
  cancelled: 'The payment was cancelled.',
};

/** Largest height (px) a resize message may set; a guard against absurd values. */
const MAX_HEIGHT = 20000;

export type CheckoutEvent =
  | { readonly kind: 'success'; readonly data: SuccessData }
  | { readonly kind: 'error'; readonly error: ErrorData }
  | { readonly kind: 'resize'; readonly height: number };

/** The iframe's address: the checkout URL plus `embed=1` and `origin=<this page's origin>`. */
export function embedUrl(checkoutUrl: URL, pageOrigin: string): string {
  const url = new URL(checkoutUrl.href);
  if (url.searchParams.has('embed') || url.searchParams.has('origin')) {
    url.searchParams.delete('embed');
    url.searchParams.delete('origin');
  }
  const extra = `embed=1&origin=${encodeURIComponent(pageOrigin)}`;
  const query = url.search.length > 1 ? url.search.slice(1) : '';
  url.search = query === '' ? `?${extra}` : `?${query}&${extra}`;
  return url.href;
}

export function createFrame(src: string): HTMLIFrameElement {
  const frame = document.createElement('iframe');
  frame.setAttribute('src', src);
  frame.setAttribute('title', 'Payment checkout');
  frame.setAttribute('allow', 'payment');
  frame.setAttribute('data-payment-gateway', 'checkout');
  frame.style.setProperty('display', 'block');
  frame.style.setProperty('width', '100%');
  frame.style.setProperty('border', '0');
  frame.style.setProperty('height', '600px');
  return frame;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Reads one accepted message's data; `null` for anything the SDK does not understand. */
export function readMessage(data: unknown): CheckoutEvent | null {
  if (typeof data !== 'object' || data === null) return null;
  const message = data as Record<string, unknown>;
  if (message.source !== MESSAGE_SOURCE) return null;
  if (message.type === 'checkout.resize') {
    const height = Number(message.height);
    if (typeof message.height !== 'number' || !Number.isFinite(height) || height <= 0) return null;
    return { kind: 'resize', height: Math.min(Math.ceil(height), MAX_HEIGHT) };
  }
  if (message.type !== 'checkout.result') return null;
  const status = message.status;
  if (typeof status !== 'string' || !(RESULT_STATUSES as readonly string[]).includes(status)) return null;
  const order_id = text(message.order_id);
  const payment_uuid = text(message.payment_uuid);
  if (status === 'completed') return { kind: 'success', data: { order_id, payment_uuid, status: 'completed' } };
  const code = status as Exclude<ResultStatus, 'completed'>;
  return {
    kind: 'error',
    error: { code, message: text(message.message) || DEFAULT_MESSAGES[code], order_id, payment_uuid },
  };
}

/** Listens for the checkout's messages to this iframe; returns the function that stops listening. */
export function listen(frame: HTMLIFrameElement, checkoutOrigin: string, handle: (event: CheckoutEvent) => void) {
  const onMessage = (event: MessageEvent) => {
    if (event.origin !== checkoutOrigin) return;
    if (event.source === null || event.source !== frame.contentWindow) return;
    const parsed = readMessage(event.data);
    if (parsed !== null) handle(parsed);
  };
  window.addEventListener('message', onMessage);
  return () => window.removeEventListener('message', onMessage);
}
