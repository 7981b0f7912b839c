/** Checks the options of `open()`; a bad option becomes an `invalid_options` error, never a throw. */
import { DEFAULT_MODE, type ErrorData, MODES, type Mode, type SuccessData } from './types.js';

export interface ValidOptions {
  readonly checkoutUrl: URL;
  readonly mode: Mode;
  /** The element the inline iframe goes into (`null` for the other modes). */
  readonly container: Element | null;
  readonly onSuccess: ((data: SuccessData) => void) | undefined;
  readonly onError: ((error: ErrorData) => void) | undefined;
}

export type Checked =
  | { readonly ok: true; readonly options: ValidOptions }
  | { readonly ok: false; readonly message: string };

function fail(message: string): Checked {
  return { ok: false, message };
}

function isFunction(value: unknown): value is (arg: never) => void {
  return typeof value === 'function';
}

/** The `onError` to report to, when it is usable, even if other options are bad. */
export function errorCallback(input: unknown): ((error: ErrorData) => void) | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const onError = (input as { onError?: unknown }).onError;
  return isFunction(onError) ? (onError as (error: ErrorData) => void) : undefined;
}

export function checkOptions(input: unknown): Checked {
  if (typeof input !== 'object' || input === null) {
    return fail('PaymentGateway.open() needs an options object: {checkoutUrl, mode, container, onSuccess, onError}.');
  }
  const raw = input as Record<string, unknown>;

  if (raw.onError !== undefined && !isFunction(raw.onError)) return fail('onError must be a function.');
  if (raw.onSuccess !== undefined && !isFunction(raw.onSuccess)) return fail('onSuccess must be a function.');

  const href = raw.checkoutUrl;
  if (typeof href !== 'string' || href.trim() === '') {
    return fail('checkoutUrl is required: pass the checkout_url of the payment.');
  }
  let checkoutUrl: URL;
  try {
    checkoutUrl = new URL(href.trim());
  } catch {
    return fail('checkoutUrl must be an absolute URL (the checkout_url of the payment).');
  }
  if (checkoutUrl.protocol !== 'https:' && checkoutUrl.protocol !== 'http:') {
    return fail('checkoutUrl must be an http(s) URL.');
  }

  const modeValue = raw.mode === undefined || raw.mode === null ? DEFAULT_MODE : raw.mode;
  if (typeof modeValue !== 'string' || !(MODES as readonly string[]).includes(modeValue)) {
    return fail(`Unknown mode ${JSON.stringify(modeValue)}: use "inline", "modal" or "redirect".`);
  }
  const mode = modeValue as Mode;

  let container: Element | null = null;
  if (mode === 'inline') {
    const selector = raw.container;
    if (typeof Element !== 'undefined' && selector instanceof Element) {
      container = selector;
    } else if (typeof selector !== 'string' || selector.trim() === '') {
      return fail('container is required for mode "inline": a CSS selector of the element to show the checkout in.');
    } else {
      try {
        container = document.querySelector(selector);
      } catch {
        return fail(`container ${JSON.stringify(selector)} is not a valid CSS selector.`);
      }
      if (container === null) return fail(`No element matches container ${JSON.stringify(selector)}.`);
    }
  }

  return {
    ok: true,
    options: {
      checkoutUrl,
      mode,
      container,
      onSuccess: raw.onSuccess as ValidOptions['onSuccess'],
      onError: raw.onError as ValidOptions['onError'],
    },
  };
}
