/**
 * A real HTTP server that plays the connector's plugin-facing API (docs/connector.md, and the
 * additions of /work's connector <-> plugin contract) exactly, for the WordPress plugin's tests: the
 * PHP harness (`wordpress-plugin.test.ts`) and the admin pages in Chromium
 * (`wordpress-admin-browser.test.ts`). A test overrides one route with `answer()`; reconciliation runs
 * are kept, so a run started with `wait: false` reads `running` first and `finished` afterwards.
 * A connector that misbehaves: `silence()` (takes every request and never answers), an answer with
 * `delayMs` (answers late) or `raw` (answers bytes that are not the contract's JSON).
 */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a shop owner pastes; it must never reach a notice, a log line or a page. */
export const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzaG9wLnRlc3QifQ.c2VjcmV0LWNvbm5lY3QtdG9rZW4';
export const PAYMENT_UUID = '9b2f6a3e-4c1d-4e8f-9a7b-2d5c8e1f0a36';
export const SECOND_PAYMENT_UUID = '5d1c7e2a-8b3f-4a6d-9e0c-1f2a3b4c5d6e';
export const CHECKOUT_URL = `https://gateway.example/checkout/${PAYMENT_UUID}?sig=abc`;
export const CALLBACK_URL = 'https://connector.example/woocommerce/auth/callback';
export const LAST_WEBHOOK_AT = '2026-11-23T10:05:00.000Z';

export function authorizeUrl(storeUrl = 'http://shop.test'): string {
  return `${storeUrl}/wc-auth/v1/authorize?app_name=Armenian%20Payment%20Gateway&scope=read_write&user_id=u-1&return_url=x&callback_url=y`;
}

export interface ConnectorRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
}

export interface Answer {
  readonly status: number;
  readonly body: unknown;
  /** Answer this late. */
  readonly delayMs?: number;
  /** Answer these bytes instead of `body` as JSON. */
  readonly raw?: string;
}

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies of the contract, read field by field in tests.
export type Json = Record<string, any>;

export function refusal(status: number, error: string, message: string): Answer {
  return { status, body: { error, message, request_id: 'req-1' } };
}

/** The connection object (`POST /v1/connections`), before the health fields. */
export function connection(overrides: Json = {}): Json {
  return {
    connection_id: '0f5c2d1e-7a8b-4c9d-8e0f-1a2b3c4d5e6f',
    platform: 'woocommerce',
    store_url: 'http://shop.test',
    domain: 'shop.test',
    environment: 'test',
    status: 'awaiting_keys',
    authorize_url: authorizeUrl(),
    ...overrides,
  };
}

/** `GET /v1/connection`: the connection, asked of the gateway, with its health and key exchange. */
export function connectionState(overrides: Json = {}, health: Json = {}, problems: string[] = []): Json {
  const { authorize_url: _, ...active } = connection({ status: 'active' });
  return {
    ...active,
    last_webhook_at: LAST_WEBHOOK_AT,
    health: {
      gateway: 'ok',
      store: 'ok',
      store_error: null,
      webhooks: 'ok',
      last_missed_webhook_at: null,
      problems: [],
      ...health,
    },
    key_exchange: { callback_url: CALLBACK_URL, problems },
    ...overrides,
  };
}

/** `GET /v1/orders/{id}/payment` with every field of the order panel. */
export function paymentState(orderId: string, overrides: Json = {}): Json {
  return {
    order_id: orderId,
    payment_uuid: PAYMENT_UUID,
    status: 'completed',
    paid: true,
    amount: 1500,
    currency: 'AMD',
    rrn: '123456789012',
    processor: 'sandbox',
    environment: 'test',
    refunded_amount: 500,
    refunds: [
      {
        uuid: 'r-5e6f7a8b',
        amount: 500,
        status: 'succeeded',
        reason: 'Damaged in transit',
        created_at: '2026-11-23T12:00:00.000Z',
      },
    ],
    store_sync: 'done',
    flag: null,
    last_webhook_at: LAST_WEBHOOK_AT,
    repaired: false,
    ...overrides,
  };
}

export interface Run {
  id: string;
  connection_id: string;
  from: string;
  to: string;
  repair: boolean;
  trigger: 'scheduled' | 'plugin' | 'cli';
  status: 'running' | 'finished' | 'failed';
  error: string | null;
  orders_checked: number;
  started_at: string;
  finished_at: string | null;
  findings: Json[];
}

/** The findings every finished run of the fake has: one safe to repair, one for a person. */
export function findings(repair: boolean): Json[] {
  return [
    {
      kind: 'paid_at_gateway_unpaid_in_store',
      store_order_id: '123',
      order_number: '1042',
      payment_uuid: PAYMENT_UUID,
      detail: `Payment ${PAYMENT_UUID} completed at the gateway but order 1042 is unpaid in the store.${repair ? ' Marked paid.' : ''}`,
      action: repair ? 'repaired' : 'flagged',
      repairable: true,
      advice: 'Mark the order paid: the gateway confirmed the payment.',
    },
    {
      kind: 'paid_twice',
      store_order_id: '124',
      order_number: '1043',
      payment_uuid: SECOND_PAYMENT_UUID,
      detail: `Order 1043 was paid twice: refund payment ${SECOND_PAYMENT_UUID} (1400 AMD).`,
      action: 'flagged',
      repairable: false,
      advice: `Refund payment ${SECOND_PAYMENT_UUID} from the order screen.`,
    },
  ];
}

export const SCHEDULED_RUN: Run = {
  id: 'run-scheduled-1',
  connection_id: '0f5c2d1e-7a8b-4c9d-8e0f-1a2b3c4d5e6f',
  from: '2026-11-22T09:00:00.000Z',
  to: '2026-11-23T09:00:00.000Z',
  repair: true,
  trigger: 'scheduled',
  status: 'finished',
  error: null,
  orders_checked: 14,
  started_at: '2026-11-23T09:00:00.000Z',
  finished_at: '2026-11-23T09:00:02.000Z',
  findings: [findings(true)[1] as Json],
};

function isHttpUrl(value: unknown): boolean {
  return typeof value === 'string' && /^https?:\/\//.test(value);
}

function isIsoInstant(value: unknown): boolean {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(value);
}

/** The errors of the `order` snapshot of `POST /v1/orders/{id}/payment`, under `order.<field>`. */
function snapshotErrors(order: unknown): Record<string, string[]> {
  if (order === undefined) return {};
  if (typeof order !== 'object' || order === null) return { order: ['must be an object'] };
  const o = order as Json;
  const errors: Record<string, string[]> = {};
  const nullableString = (value: unknown) => value === null || (typeof value === 'string' && value !== '');
  if (typeof o.number !== 'string' || o.number === '') errors['order.number'] = ['required'];
  if (typeof o.total !== 'string' || !/^\d+(\.\d+)?$/.test(o.total)) errors['order.total'] = ['a decimal string'];
  if (typeof o.currency !== 'string' || !/^[A-Z]{3}$/.test(o.currency)) errors['order.currency'] = ['ISO 4217'];
  if (typeof o.status !== 'string' || o.status === '') errors['order.status'] = ['required'];
  if (!isIsoInstant(o.created_at)) errors['order.created_at'] = ['ISO 8601 UTC'];
  if (!nullableString(o.customer_email)) errors['order.customer_email'] = ['string or null'];
  if (!nullableString(o.customer_name)) errors['order.customer_name'] = ['string or null'];
  if (typeof o.payment_method !== 'string' || o.payment_method === '') errors['order.payment_method'] = ['required'];
  return errors;
}

/** Reconciliation runs the fake keeps, and how many reads of a run still answer `running`. */
export class RunBook {
  readonly runs = new Map<string, Run>();
  readonly #reads = new Map<string, number>();
  /** Reads of a `wait: false` run that answer `running` before it is finished. */
  runningReads = 1;
  #next = 1;

  start(body: Json, wait: boolean): Run {
    const id = `run-${this.#next++}`;
    const run: Run = {
      id,
      connection_id: SCHEDULED_RUN.connection_id,
      from: body.from,
      to: body.to,
      repair: body.repair === true,
      trigger: 'plugin',
      status: wait ? 'finished' : 'running',
      error: null,
      orders_checked: 12,
      started_at: '2026-11-23T10:30:00.000Z',
      finished_at: wait ? '2026-11-23T10:30:03.000Z' : null,
      findings: wait ? findings(body.repair === true) : [],
    };
    this.runs.set(id, run);
    this.#reads.set(id, 0);
    return run;
  }

  read(id: string): Run | undefined {
    const run = this.runs.get(id);
    if (run === undefined) return undefined;
    const reads = (this.#reads.get(id) ?? 0) + 1;
    this.#reads.set(id, reads);
    if (run.status === 'running' && reads > this.runningReads) {
      run.status = 'finished';
      run.finished_at = '2026-11-23T10:30:03.000Z';
      run.findings = findings(run.repair);
    }
    return run;
  }
}

/** The connector's default answers; a test overrides one route with `FakeConnector.answer()`. */
export function contractAnswer(method: string, path: string, body: unknown, runs = new RunBook()): Answer {
  const fields = (typeof body === 'object' && body !== null ? body : {}) as Json;
  const url = new URL(path, 'http://connector.test');
  const order = /^\/v1\/orders\/([^/]+)\/(payment|refunds|cancel|capture)$/.exec(url.pathname);
  if (method === 'POST' && path === '/v1/connections') {
    if (!isHttpUrl(fields.store_url)) {
      return { status: 422, body: { error: 'validation_failed', message: 'Invalid', errors: { store_url: ['bad'] } } };
    }
    return {
      status: 201,
      body: connection({ store_url: fields.store_url, authorize_url: authorizeUrl(fields.store_url) }),
    };
  }
  if (method === 'GET' && path === '/v1/connection') return { status: 200, body: connectionState() };
  if (method === 'POST' && path === '/v1/connection/reconnect') {
    return { status: 200, body: { ...connectionState({ status: 'awaiting_keys' }), authorize_url: authorizeUrl() } };
  }
  if (method === 'POST' && path === '/v1/connection/credentials') {
    if (typeof fields.consumer_key !== 'string' || !fields.consumer_key.startsWith('ck_')) {
      return {
        status: 422,
        body: { error: 'validation_failed', message: 'Invalid', errors: { consumer_key: ['ck_'] } },
      };
    }
    if (fields.consumer_secret !== 'cs_good_secret') {
      return refusal(
        422,
        'store_credentials_refused',
        'WooCommerce refused the key (401): the key is wrong or was deleted. Create a new Read/Write key and paste it again.',
      );
    }
    return { status: 200, body: connectionState() };
  }
  if (method === 'DELETE' && path === '/v1/connection') {
    return { status: 200, body: { connection_id: SCHEDULED_RUN.connection_id, status: 'removed' } };
  }
  if (order?.[2] === 'payment' && method === 'POST') {
    const errors: Record<string, string[]> = { ...snapshotErrors(fields.order) };
    if (!isHttpUrl(fields.return_url)) errors.return_url = ['must be an http(s) URL'];
    if (!isHttpUrl(fields.cancel_url)) errors.cancel_url = ['must be an http(s) URL'];
    if (fields.capture_method !== undefined && !['automatic', 'manual'].includes(fields.capture_method)) {
      errors.capture_method = ['must be automatic or manual'];
    }
    if (Object.keys(errors).length > 0) {
      return { status: 422, body: { error: 'validation_failed', message: 'Some fields are invalid.', errors } };
    }
    return {
      status: 201,
      body: {
        order_id: order[1],
        gateway_order_id: `wc-0f5c-${order[1]}`,
        payment_uuid: PAYMENT_UUID,
        status: 'pending',
        amount: 1500,
        currency: 'AMD',
        checkout_url: CHECKOUT_URL,
      },
    };
  }
  if (order?.[2] === 'payment' && method === 'GET') return { status: 200, body: paymentState(order[1] as string) };
  if (order?.[2] === 'cancel' && method === 'POST') {
    return {
      status: 200,
      body: { order_id: order[1], payment_uuid: PAYMENT_UUID, status: 'expired', cancelled: true },
    };
  }
  if (order?.[2] === 'capture' && method === 'POST') {
    if (fields.amount !== undefined && (!Number.isInteger(fields.amount) || (fields.amount as number) <= 0)) {
      return {
        status: 422,
        body: { error: 'validation_failed', message: 'Invalid', errors: { amount: ['must be whole AMD'] } },
      };
    }
    return {
      status: 200,
      body: {
        order_id: order[1],
        payment_uuid: PAYMENT_UUID,
        capture: 'captured',
        captured_amount: fields.amount ?? 1500,
        authorized_amount: 1500,
        status: 'completed',
      },
    };
  }
  if (order?.[2] === 'refunds' && method === 'POST') {
    if (!Number.isInteger(fields.amount) || (fields.amount as number) <= 0) {
      return {
        status: 422,
        body: { error: 'validation_failed', message: 'Invalid', errors: { amount: ['whole AMD'] } },
      };
    }
    return {
      status: 201,
      body: {
        refund_uuid: 'r-5e6f7a8b',
        payment_uuid: PAYMENT_UUID,
        amount: fields.amount,
        status: 'completed',
        refunded_amount: fields.amount,
      },
    };
  }
  if (method === 'POST' && url.pathname === '/v1/reconciliation') {
    if (!isIsoInstant(fields.from) || !isIsoInstant(fields.to)) {
      return { status: 422, body: { error: 'validation_failed', message: 'Invalid', errors: { from: ['ISO 8601'] } } };
    }
    const wait = fields.wait !== false;
    return { status: wait ? 201 : 202, body: runs.start(fields, wait) };
  }
  if (method === 'GET' && url.pathname === '/v1/reconciliation') {
    const trigger = url.searchParams.get('trigger');
    const limit = Number(url.searchParams.get('limit') ?? '10');
    const all = [...runs.runs.values(), SCHEDULED_RUN].filter((run) => trigger === null || run.trigger === trigger);
    return { status: 200, body: { data: all.slice(0, limit) } };
  }
  const runPath = /^\/v1\/reconciliation\/([^/]+)$/.exec(url.pathname);
  if (method === 'GET' && runPath) {
    const run = runPath[1] === SCHEDULED_RUN.id ? SCHEDULED_RUN : runs.read(runPath[1] as string);
    return run ? { status: 200, body: run } : refusal(404, 'not_found', 'No such reconciliation run.');
  }
  return refusal(404, 'not_found', 'No such route.');
}

export class FakeConnector {
  readonly requests: ConnectorRequest[] = [];
  runs = new RunBook();
  readonly #answers = new Map<string, Answer>();
  readonly #server: Server;
  readonly #pending = new Set<ServerResponse>();
  #silent = false;
  url = '';

  constructor() {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let body: unknown = null;
        try {
          body = raw === '' ? null : JSON.parse(raw);
        } catch {
          body = raw;
        }
        const method = req.method ?? 'GET';
        const path = req.url ?? '/';
        this.requests.push({ method, path, headers: req.headers, body });
        if (this.#silent) {
          // Takes the request and never answers (until reset or close).
          this.#pending.add(res);
          res.on('close', () => this.#pending.delete(res));
          return;
        }
        const answer: Answer =
          req.headers['x-service-connect'] !== TOKEN
            ? refusal(401, 'invalid_connect_token', 'The connect token is missing or not accepted.')
            : (this.#answers.get(`${method} ${path}`) ?? contractAnswer(method, path, body, this.runs));
        const send = () => {
          if (res.destroyed) return;
          res.writeHead(answer.status, { 'content-type': 'application/json' });
          res.end(answer.raw ?? JSON.stringify(answer.body));
        };
        if (answer.delayMs === undefined) {
          send();
        } else {
          this.#pending.add(res);
          res.on('close', () => this.#pending.delete(res));
          setTimeout(send, answer.delayMs);
        }
      });
    });
  }

  async start(): Promise<void> {
    this.#server.listen(0, '127.0.0.1');
    await once(this.#server, 'listening');
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  answer(route: string, answer: Answer): void {
    this.#answers.set(route, answer);
  }

  /** From now on, takes every request and never answers it. */
  silence(): void {
    this.#silent = true;
  }

  reset(): void {
    this.requests.length = 0;
    this.#answers.clear();
    this.runs = new RunBook();
    this.#silent = false;
    for (const res of this.#pending) res.destroy();
    this.#pending.clear();
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
