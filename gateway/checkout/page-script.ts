/**
 * The one inline script of the checkout's pages (under the page's nonce): what an embedded
 * checkout tells the page that embeds it, and what a page not embedded does by itself.
 */
import { scriptJson } from './html.js';

/** The message an embedded checkout posts to the page that embeds it when the payment ends. */
export interface ResultMessage {
  readonly status: 'completed' | 'failed' | 'expired' | 'cancelled';
  readonly payment_uuid: string;
  readonly order_id: string;
  readonly message: string;
}

export interface ScriptConfig {
  /** The embedding page's origin (embedded mode), else null. */
  readonly origin: string | null;
  readonly result: ResultMessage | null;
  /** Not embedded: where to go by itself after `leaveAfterMs`. */
  readonly leaveTo: string | null;
  readonly leaveAfterMs: number;
  /** The test page's "Use" buttons fill in the card number. */
  readonly cardFill: boolean;
  /** Not embedded: follow the page's `#go` link or submit its `#go` form at once (the processor handoff). */
  readonly handoff: boolean;
}

/** How long the "payment received" page stays before it takes the buyer back to the shop. */
export const LEAVE_AFTER_MS = 3000;

/**
 * The one inline script: in embedded mode it posts `checkout.resize` whenever the page's height
 * changes and, on a final page, `checkout.result` once, both to the embedding origin only; not
 * embedded, the final page goes back to the shop after a moment. Messages are exactly
 * `{source, version, type, ...}` as the browser SDK reads them.
 */
export function pageScript(config: ScriptConfig): string {
  return `(function (c) {
  var root = document.getElementById('page');
  var base = { source: 'payment-gateway-checkout', version: 1 };
  if (c.origin) {
    var send = function (fields) {
      var message = {};
      var key;
      for (key in base) message[key] = base[key];
      for (key in fields) message[key] = fields[key];
      window.parent.postMessage(message, c.origin);
    };
    var last = 0;
    var measure = function () {
      var height = Math.ceil(root.getBoundingClientRect().height);
      if (height > 0 && height !== last) {
        last = height;
        send({ type: 'checkout.resize', height: height });
      }
    };
    if (typeof ResizeObserver === 'function') new ResizeObserver(measure).observe(root);
    window.addEventListener('load', measure);
    measure();
    if (c.result) {
      send({ type: 'checkout.result', status: c.result.status, payment_uuid: c.result.payment_uuid,
        order_id: c.result.order_id, message: c.result.message });
    }
  } else if (c.leaveTo) {
    setTimeout(function () { window.location.replace(c.leaveTo); }, c.leaveAfterMs);
  }
  if (c.handoff && !c.origin) {
    var go = document.getElementById('go');
    if (go && go.tagName === 'FORM') go.submit();
    else if (go) window.location.replace(go.href);
  }
  if (c.cardFill) {
    var input = document.getElementById('card_number');
    var buttons = document.querySelectorAll('[data-card]');
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].addEventListener('click', function (event) {
        input.value = event.currentTarget.getAttribute('data-card');
        input.focus();
      });
    }
  }
})(${scriptJson(config)});`;
}
