/**
 * Sends one signed webhook over HTTP (spec "Delivery rules" 2–3): POST with the JSON body, waits at
 * most 10 seconds for the answer, never follows a redirect (a 3xx is a failure), and refuses
 * private addresses on the address actually connected to, through the guarded agents of
 * gateway/outbound (the connector's store calls use the same ones). Connections are kept alive
 * between deliveries.
 *
 * An outcome is data: the dispatcher decides about retries.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { maskedUrl } from '../domain/masked-url.js';
import { createGuardedAgents } from '../outbound/guarded-agents.js';

export type DeliveryOutcome = (
  | { readonly delivered: true; readonly statusCode: number }
  | { readonly delivered: false; readonly statusCode: number | null; readonly error: string }
) & {
  /** The start of the receiver's answer, when `keepAnswerBytes` asked for it (UTF-8, possibly cut). */
  readonly answer?: string;
};

export interface SendOptions {
  /** Keep this many bytes of the answer's body in `answer` (a test event shows them to the merchant). */
  readonly keepAnswerBytes?: number;
}

export interface WebhookSender {
  send(
    url: string,
    body: string,
    headers: Readonly<Record<string, string>>,
    options?: SendOptions,
  ): Promise<DeliveryOutcome>;
  /** Closes kept-alive connections. */
  close(): void;
}

export interface WebhookSenderOptions {
  /** `GATEWAY_ALLOW_PRIVATE_WEBHOOKS=1`: development only, lets webhooks reach loopback and private networks. */
  readonly allowPrivate: boolean;
  /** How long to wait for the answer; the spec's 10 seconds unless a test says otherwise. */
  readonly timeoutMs?: number;
  /** Name resolution (the system resolver unless a test injects one). */
  readonly lookup?: LookupFunction;
  /** Connections kept per receiver host. */
  readonly maxSocketsPerHost?: number;
}

export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Bytes of an answer read before the connection is dropped: receivers answer with a status, not content. */
const MAX_ANSWER_BYTES = 64 * 1024;
const USER_AGENT = 'PaymentGateway-Webhooks/1.0';

function describeError(error: unknown, timeoutMs: number): string {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  switch (code) {
    case 'WEBHOOK_TIMEOUT':
      return `no answer within ${timeoutMs / 1000} s`;
    case 'PRIVATE_ADDRESS':
      return `refused: ${message}`;
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset by the receiver';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host name not found';
    case 'CERT_HAS_EXPIRED':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `TLS certificate not accepted (${code})`;
    default:
      return code === undefined ? message : `${message} (${code})`;
  }
}

function timeoutError(): Error {
  return Object.assign(new Error('no answer in time'), { code: 'WEBHOOK_TIMEOUT' });
}

export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const agents = createGuardedAgents({
    allowPrivate: options.allowPrivate,
    ...(options.lookup ? { lookup: options.lookup } : {}),
    maxSocketsPerHost: options.maxSocketsPerHost ?? 64,
  });

  function send(
    url: string,
    body: string,
    headers: Readonly<Record<string, string>>,
    options: SendOptions = {},
  ): Promise<DeliveryOutcome> {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return Promise.resolve({ delivered: false, statusCode: null, error: 'not a valid URL' });
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') {
      return Promise.resolve({ delivered: false, statusCode: null, error: `unsupported scheme ${target.protocol}` });
    }
    return new Promise<DeliveryOutcome>((resolve) => {
      let settled = false;
      /** What every outcome carries besides its own fields (the kept answer). */
      let settle: { answer?: string } = {};
      const finish = (outcome: DeliveryOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...outcome, ...settle });
      };
      const payload = Buffer.from(body);
      const transport = target.protocol === 'https:' ? https : http;
      const request = transport.request(target, {
        method: 'POST',
        agent: target.protocol === 'https:' ? agents.https : agents.http,
        headers: {
          ...headers,
          'Content-Type': 'application/json',
          'Content-Length': String(payload.length),
          'User-Agent': USER_AGENT,
        },
      });
      const timer = setTimeout(() => request.destroy(timeoutError()), timeoutMs);
      request.on('error', (error) =>
        finish({ delivered: false, statusCode: null, error: describeError(error, timeoutMs) }),
      );
      request.on('response', (response) => {
        const status = response.statusCode ?? 0;
        // Read (and drop) a bounded answer so the connection can be reused; a receiver that keeps
        // sending is cut off by the size cap or by the timer.
        let received = 0;
        const keep = Math.min(options.keepAnswerBytes ?? 0, MAX_ANSWER_BYTES);
        const kept: Buffer[] = [];
        response.on('data', (chunk: Buffer) => {
          if (received < keep) kept.push(chunk.subarray(0, keep - received));
          received += chunk.length;
          if (received > MAX_ANSWER_BYTES) response.destroy();
        });
        response.on('error', () => {});
        const answered = () => {
          if (keep > 0) settle = { answer: Buffer.concat(kept).toString('utf8') };
          if (status >= 200 && status < 300) finish({ delivered: true, statusCode: status });
          else if (status >= 300 && status < 400) {
            // The location is stored and mailed to the merchant: it may carry a token too.
            const location = response.headers.location;
            const shown = location === undefined ? null : maskedUrl(location, target);
            finish({
              delivered: false,
              statusCode: status,
              error: `redirect (${status}${shown ? ` to ${shown}` : ''}) not followed`,
            });
          } else finish({ delivered: false, statusCode: status, error: `HTTP ${status}` });
        };
        response.on('end', answered);
        response.on('close', answered);
      });
      request.end(payload);
    });
  }

  return {
    send,
    close() {
      agents.destroy();
    },
  };
}
