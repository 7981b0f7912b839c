/**
 * The browser SDK, served at `{base_url}/sdk/v1/`: one global, `PaymentGateway`, whose `open()` shows
 * a payment's hosted checkout inline (iframe in a container), in a modal, or by redirecting. The
 * checkout page reports the outcome with `postMessage`; see `frame.ts` for what is accepted.
 * Nothing here throws into the page: bad options and surprises reach `onError` (else `console.error`).
 */
import { type CheckoutEvent, createFrame, embedUrl, listen } from './frame.js';
import { type Modal, openModal } from './modal.js';
import { checkOptions, errorCallback } from './options.js';
import type { ErrorData, Handle, OpenOptions, SuccessData } from './types.js';

export const VERSION = '1.0.0';

const NOOP_HANDLE: Handle = Object.freeze({ close() {} });

/** The one modal on the page; opening another closes it first. */
let activeModal: { close(): void } | null = null;

/** Calls merchant code; an exception there surfaces as an uncaught error without breaking the SDK. */
function invoke<T>(callback: (value: T) => void, value: T): void {
  try {
    callback(value);
  } catch (error) {
    setTimeout(() => {
      throw error;
    }, 0);
  }
}

/** Reports a problem to `onError`, else to the console, always after `open()` has returned. */
function report(onError: ((error: ErrorData) => void) | undefined, error: ErrorData): void {
  setTimeout(() => {
    if (onError) invoke(onError, error);
    else console.error(`[PaymentGateway] ${error.code}: ${error.message}`);
  }, 0);
}

function open(input: OpenOptions): Handle {
  let onError: ((error: ErrorData) => void) | undefined;
  try {
    onError = errorCallback(input);
    const checked = checkOptions(input);
    if (!checked.ok) {
      report(onError, { code: 'invalid_options', message: checked.message });
      return NOOP_HANDLE;
    }
    const options = checked.options;

    if (options.mode === 'redirect') {
      window.location.assign(options.checkoutUrl.href);
      return NOOP_HANDLE;
    }

    if (options.mode === 'modal' && !document.body) {
      report(onError, { code: 'sdk_error', message: 'Call PaymentGateway.open() once the page has a <body>.' });
      return NOOP_HANDLE;
    }

    const frame = createFrame(embedUrl(options.checkoutUrl, window.location.origin));
    let closed = false;
    let succeeded = false;
    let failed = false;
    let modal: Modal | null = null;
    let stopListening = () => {};

    const teardown = () => {
      if (closed) return;
      closed = true;
      stopListening();
      if (modal !== null) {
        modal.remove();
        if (activeModal === handle) activeModal = null;
      } else {
        frame.remove();
      }
    };

    // onSuccess at most once and nothing after it; onError at most once (a late confirmation may
    // still turn a failed payment into a success, so onSuccess may follow onError inline).
    const succeed = (data: SuccessData) => {
      if (closed || succeeded) return;
      succeeded = true;
      if (modal !== null) teardown();
      if (options.onSuccess) invoke(options.onSuccess, data);
    };
    const fail = (error: ErrorData) => {
      if (closed || succeeded || failed) return;
      failed = true;
      if (modal !== null) teardown();
      if (options.onError) invoke(options.onError, error);
    };

    const onEvent = (event: CheckoutEvent) => {
      if (closed) return;
      if (event.kind === 'resize') {
        if (modal !== null) modal.setHeight(event.height);
        else frame.style.setProperty('height', `${event.height}px`);
      } else if (event.kind === 'success') {
        succeed(event.data);
      } else {
        fail(event.error);
      }
    };

    const handle: Handle = { close: teardown };
    stopListening = listen(frame, options.checkoutUrl.origin, onEvent);

    if (options.mode === 'inline') {
      options.container?.appendChild(frame);
    } else {
      activeModal?.close();
      modal = openModal(frame, () =>
        fail({ code: 'cancelled', message: 'The buyer closed the checkout before paying.' }),
      );
      activeModal = handle;
    }
    return handle;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    report(onError, { code: 'sdk_error', message: `The checkout could not be opened: ${message}` });
    return NOOP_HANDLE;
  }
}

const PaymentGateway = Object.freeze({ version: VERSION, open });

(window as unknown as { PaymentGateway: typeof PaymentGateway }).PaymentGateway = PaymentGateway;
