/** The public shapes of the SDK: what a merchant passes to `PaymentGateway.open` and gets back. */

export type Mode = 'inline' | 'modal' | 'redirect';

export const MODES: readonly Mode[] = ['inline', 'modal', 'redirect'];

/** The mode used when `mode` is not given. */
export const DEFAULT_MODE: Mode = 'modal';

export interface SuccessData {
  readonly order_id: string;
  readonly payment_uuid: string;
  readonly status: 'completed';
}

/**
 * `code`: `invalid_options` (a bad option), `failed`, `expired`, `cancelled` (a result of the checkout,
 * or the buyer closed the modal), `sdk_error` (something unexpected in the browser).
 */
export interface ErrorData {
  readonly code: string;
  readonly message: string;
  readonly order_id?: string;
  readonly payment_uuid?: string;
}

export interface OpenOptions {
  readonly checkoutUrl: string;
  readonly mode?: Mode;
  /** A CSS selector (or an element); required for `inline`. */
  readonly container?: string | Element;
  readonly onSuccess?: (data: SuccessData) => void;
  readonly onError?: (error: ErrorData) => void;
}

export interface Handle {
  /** Removes the checkout (iframe or modal). No callback fires after it. */
  close(): void;
}
