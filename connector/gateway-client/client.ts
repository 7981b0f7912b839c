/**
 * A typed client of the gateway's public API, for the connector and for a merchant's own Node
 * backend. It authenticates with a secret key (`X-Service-Key`) or a platform connect token
 * (`X-Service-Connect`), sends idempotency keys where the API takes them, and turns every refusal
 * into a {@link GatewayError} carrying the API's error code.
 *
 * ```ts
 * const gateway = createGatewayClient({ baseUrl: 'https://pay.example.am', apiKey: process.env.GATEWAY_KEY! });
 * const payment = await gateway.createPayment(
 *   { amount: 5000, order_id: 'order-1001', return_url: 'https://shop.example.am/thanks' },
 *   { idempotencyKey: 'order-1001:1' },
 * );
 * // send the buyer to payment.checkout_url; later, when a webhook arrives:
 * const truth = await gateway.getOrderPayment('order-1001');
 * ```
 */
import type { PaymentResponse, PaymentStatus } from '../../gateway/domain/payment.js';

/** The payment object (spec "Payments"), exactly as the gateway answers it. */
export type GatewayPayment = PaymentResponse;
export type { PaymentStatus };

export interface CreatePaymentInput {
  amount: number;
  order_id: string;
  return_url: string;
  cancel_url?: string;
  callback_url?: string;
  currency?: string;
  domain?: string;
  processor?: string;
  redirect_mode?: 'hosted' | 'direct';
  customer_id?: string;
  customer_email?: string;
  customer_name?: string;
  description?: string;
  /**
   * `manual`: the buyer's card is only held (status `authorized`) until {@link GatewayClient.capturePayment}
   * or {@link GatewayClient.voidPayment}; `automatic` (the default) takes the money at once.
   */
  capture_method?: 'automatic' | 'manual';
}

export interface GatewayRefund {
  uuid: string;
  payment_uuid: string;
  amount: number;
  reason: string | null;
  /** `pending`, `succeeded`, `failed` or `unknown`. */
  status: string;
  failure_code: string | null;
  created_at: string;
  completed_at: string | null;
}

export interface RefundResult extends GatewayRefund {
  refunded_amount: number;
  payment_status: PaymentStatus;
}

/** What a connect token is bound to (`GET /api/v1/connect_token`). */
export interface ConnectTokenInfo {
  id: string;
  merchant_id: string;
  domain: string;
  platform: string;
  environment: 'test' | 'live';
  livemode: boolean;
  created_at: string;
  expires_at: string;
  /** The domain's webhook signing secrets: the current one and, during a rotation, the next. */
  webhook_secrets: string[];
}

export interface GatewayClientOptions {
  /** The gateway's origin, e.g. `https://pay.example.am` (a trailing slash is fine). */
  baseUrl: string;
  apiKey?: string;
  connectToken?: string;
  /** Per-request time limit; default 15 s. */
  timeoutMs?: number;
  /** How many times a `429 rate_limited` is waited out (per its Retry-After, at most 60 s); default 2. */
  rateLimitRetries?: number;
  fetch?: typeof fetch;
}

/** A refusal by the gateway, or no answer at all (`status` 0, code `gateway_unavailable`). */
export class GatewayError extends Error {
  override readonly name = 'GatewayError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The whole error body as the API sent it (`errors`, `details`, `request_id` ...). */
    readonly body: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** True when the same call may succeed later: no answer, 429 or 5xx. */
  get retryable(): boolean {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }
}

export interface GatewayClient {
  createPayment(input: CreatePaymentInput, options?: { idempotencyKey?: string }): Promise<GatewayPayment>;
  getPayment(uuid: string): Promise<GatewayPayment>;
  /** Cancels an open payment (`POST /api/v1/payments/{uuid}/cancel`): it expires at once; a paid one is 409. */
  cancelPayment(uuid: string): Promise<GatewayPayment>;
  /** The order's payment (completed/refunded one if any, else the newest); null when the order has none. */
  getOrderPayment(orderId: string): Promise<GatewayPayment | null>;
  refundPayment(
    uuid: string,
    input: { amount?: number; reason?: string },
    options?: { idempotencyKey?: string },
  ): Promise<RefundResult>;
  listRefunds(paymentUuid: string): Promise<GatewayRefund[]>;
  /**
   * Captures an `authorized` payment (`POST /api/v1/payments/{uuid}/capture`): all of the hold, or
   * `amount` of it, once; it is then `completed` for what was captured. A capture whose outcome the
   * processor left unknown is a 409 `capture_outcome_unknown`: ask again with the same idempotency
   * key (or read the payment) later, never a new capture.
   */
  capturePayment(
    uuid: string,
    input?: { amount?: number },
    options?: { idempotencyKey?: string },
  ): Promise<GatewayPayment>;
  /**
   * Releases the hold of an `authorized` payment (`POST /api/v1/payments/{uuid}/void`): it ends
   * `expired` with `failure_code` `voided`. An unknown outcome is a 409 `void_outcome_unknown`.
   */
  voidPayment(uuid: string, options?: { idempotencyKey?: string }): Promise<GatewayPayment>;
  /** Only with a connect token. */
  connectToken(): Promise<ConnectTokenInfo>;
}

const MAX_RATE_LIMIT_WAIT_SECONDS = 60;

export function createGatewayClient(options: GatewayClientOptions): GatewayClient {
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const rateLimitRetries = options.rateLimitRetries ?? 2;
  const credential: Record<string, string> = options.apiKey
    ? { 'X-Service-Key': options.apiKey }
    : options.connectToken
      ? { 'X-Service-Connect': options.connectToken }
      : {};
  if (Object.keys(credential).length === 0) throw new Error('createGatewayClient needs an apiKey or a connectToken');

  async function call<T>(
    method: string,
    path: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<T> {
    for (let attempt = 0; ; attempt += 1) {
      let res: Response;
      try {
        res = await doFetch(`${base}${path}`, {
          method,
          headers: {
            Accept: 'application/json',
            ...credential,
            ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
            ...extraHeaders,
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        throw new GatewayError(
          0,
          'gateway_unavailable',
          `The gateway did not answer ${method} ${path}.`,
          {},
          { cause: error },
        );
      }
      const text = await res.text();
      const parsed = parseJson(text);
      if (res.ok) return parsed as T;
      const retryAfter = Number(res.headers.get('Retry-After'));
      if (
        res.status === 429 &&
        attempt < rateLimitRetries &&
        Number.isFinite(retryAfter) &&
        retryAfter <= MAX_RATE_LIMIT_WAIT_SECONDS
      ) {
        await new Promise((resolve) => setTimeout(resolve, Math.max(retryAfter, 1) * 1000));
        continue;
      }
      const errorBody = isRecord(parsed) ? parsed : {};
      const code = typeof errorBody.error === 'string' ? errorBody.error : `http_${res.status}`;
      const message =
        typeof errorBody.message === 'string'
          ? errorBody.message
          : `The gateway answered ${res.status} to ${method} ${path}.`;
      throw new GatewayError(res.status, code, message, errorBody);
    }
  }

  const idempotency = (key: string | undefined): Record<string, string> => (key ? { 'Idempotency-Key': key } : {});
  const segment = encodeURIComponent;

  return {
    createPayment: (input, opts = {}) => call('POST', '/api/v1/payments', input, idempotency(opts.idempotencyKey)),
    getPayment: (uuid) => call('GET', `/api/v1/payments/${segment(uuid)}`),
    cancelPayment: (uuid) => call('POST', `/api/v1/payments/${segment(uuid)}/cancel`),
    async getOrderPayment(orderId) {
      try {
        return await call<GatewayPayment>('GET', `/api/v1/orders/${segment(orderId)}/payment`);
      } catch (error) {
        if (error instanceof GatewayError && error.code === 'order_not_found') return null;
        throw error;
      }
    },
    refundPayment: (uuid, input, opts = {}) =>
      call('POST', `/api/v1/payments/${segment(uuid)}/refund`, input, idempotency(opts.idempotencyKey)),
    async listRefunds(paymentUuid) {
      const answer = await call<{ data: GatewayRefund[] }>('GET', `/api/v1/payments/${segment(paymentUuid)}/refunds`);
      return answer.data;
    },
    capturePayment: (uuid, input = {}, opts = {}) =>
      call('POST', `/api/v1/payments/${segment(uuid)}/capture`, input, idempotency(opts.idempotencyKey)),
    voidPayment: (uuid, opts = {}) =>
      call('POST', `/api/v1/payments/${segment(uuid)}/void`, undefined, idempotency(opts.idempotencyKey)),
    connectToken: () => call('GET', '/api/v1/connect_token'),
  };
}

function parseJson(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
