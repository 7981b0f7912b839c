/**
 * A real HTTP server on 127.0.0.1 that plays a merchant's webhook endpoint: it records every
 * request's raw bytes and headers, and answers as the test tells it: a status, slowly, with a
 * redirect, by hanging up, or never.
 */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ReceivedWebhook {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly raw: Buffer;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever the gateway sent
  readonly json: any;
}

export type Reply =
  | {
      readonly status: number;
      readonly headers?: Record<string, string>;
      readonly delayMs?: number;
      /** The answer's body (default `ok`). */
      readonly body?: string;
    }
  /** Accept the request and never answer. */
  | { readonly hang: true }
  /** Close the connection without an answer. */
  | { readonly hangUp: true };

/** Sees every request a receiver records (the contract check of the webhooks, test/support/contract-setup.ts). */
export type WebhookObserver = (request: ReceivedWebhook) => void;

let observer: WebhookObserver | undefined;

export function observeWebhooks(next: WebhookObserver | undefined): void {
  observer = next;
}

export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  readonly #waiters: Array<() => void> = [];
  #reply: (request: ReceivedWebhook, index: number) => Reply = () => ({ status: 200 });
  url = '';

  private constructor() {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        let json: unknown = null;
        try {
          json = JSON.parse(raw.toString('utf8'));
        } catch {
          json = null;
        }
        const request: ReceivedWebhook = { path: req.url ?? '/', headers: req.headers, raw, json };
        observer?.(request);
        const index = this.received.push(request) - 1;
        for (const wake of this.#waiters.splice(0)) wake();
        this.#answer(res, this.#reply(request, index));
      });
    });
    this.#server.on('connection', (socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
  }

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    receiver.#server.listen(0, '127.0.0.1');
    await once(receiver.#server, 'listening');
    receiver.url = `http://127.0.0.1:${(receiver.#server.address() as AddressInfo).port}`;
    return receiver;
  }

  /** How to answer from now on (by default 200). */
  replyWith(reply: Reply | ((request: ReceivedWebhook, index: number) => Reply)): void {
    this.#reply = typeof reply === 'function' ? reply : () => reply;
  }

  /** Waits (real time) until `count` requests have arrived in total. */
  async waitFor(count: number, timeoutMs = 5_000): Promise<ReceivedWebhook[]> {
    const deadline = performance.now() + timeoutMs;
    while (this.received.length < count) {
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(`expected ${count} webhook(s), received ${this.received.length}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.received.slice(0, count);
  }

  #answer(res: ServerResponse, reply: Reply): void {
    if ('hang' in reply) return;
    if ('hangUp' in reply) {
      res.socket?.destroy();
      return;
    }
    const send = () => {
      if (res.destroyed) return;
      res.writeHead(reply.status, reply.headers);
      res.end(reply.body ?? 'ok');
    };
    if (reply.delayMs === undefined) send();
    else setTimeout(send, reply.delayMs).unref();
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
