/**
 * The one HTTP client adapters call processors with. Every call has a timeout the adapter names
 * (documented per operation in docs/processors.md), reads at most `MAX_PROCESSOR_ANSWER_BYTES`, and
 * goes through the outbound guard (gateway/outbound/): a processor's address comes from a domain's
 * settings (ArCa banks' hosts), so a merchant must not be able to point it into a private network.
 * `GATEWAY_ALLOW_PRIVATE_WEBHOOKS=1` (development only) lets it reach local fakes.
 *
 * A failed call says whether the request may have reached the processor: `reached: false` only
 * when no byte of it was sent (refused address, DNS failure, connection refused), so that a refund
 * that failed that way is known not to have been made, and any other failure is an unknown outcome.
 */
import http from 'node:http';
import https from 'node:https';
import type { TLSSocket } from 'node:tls';
import { createGuardedAgents, type GuardedAgents } from '../outbound/guarded-agents.js';

/** Bytes of a processor's answer read before the call fails: their answers are a few KiB. */
export const MAX_PROCESSOR_ANSWER_BYTES = 1024 * 1024;

export interface ProcessorRequest {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** How long to wait for the whole answer. */
  readonly timeoutMs: number;
  /** Bytes of the answer read before the call fails (default `MAX_PROCESSOR_ANSWER_BYTES`). */
  readonly maxAnswerBytes?: number;
  /**
   * Mutual TLS (the e-HDM fiscal system): the client certificate and key (PEM) or a PKCS#12
   * bundle, and the certificate authority of the server when it is not publicly trusted.
   */
  readonly tls?: ClientTls;
}

export interface ClientTls {
  readonly cert?: string;
  readonly key?: string;
  readonly pfx?: Buffer;
  readonly passphrase?: string;
  readonly ca?: string;
}

export interface ProcessorReply {
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * A call that got no answer. `reached` is false only when nothing of the request was sent. `code`
 * says what happened when it is known: `TIMEOUT`, `TOO_LARGE`, or the system's error code
 * (`PRIVATE_ADDRESS`, `ECONNREFUSED`, a TLS code such as `CERT_HAS_EXPIRED`...).
 */
export class ProcessorCallError extends Error {
  override readonly name = 'ProcessorCallError';
  constructor(
    message: string,
    readonly reached: boolean,
    readonly code?: string,
  ) {
    super(message);
  }
}

export interface ProcessorHttp {
  /** The processor's answer, whatever its status; throws `ProcessorCallError` when there is none. */
  request(request: ProcessorRequest): Promise<ProcessorReply>;
  close(): void;
}

export interface ProcessorHttpOptions {
  /** Development only: processors on loopback and private networks may be reached (local fakes). */
  readonly allowPrivate: boolean;
  readonly agents?: GuardedAgents;
}

const USER_AGENT = 'PaymentGateway-Processors/1.0';

export function createProcessorHttp(options: ProcessorHttpOptions): ProcessorHttp {
  const agents = options.agents ?? createGuardedAgents({ allowPrivate: options.allowPrivate, keepAlive: true });

  function request(call: ProcessorRequest): Promise<ProcessorReply> {
    return new Promise((resolve, reject) => {
      let url: URL;
      try {
        url = new URL(call.url);
      } catch {
        reject(new ProcessorCallError('the processor address is not a URL', false));
        return;
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:') {
        reject(new ProcessorCallError('the processor address is not http(s)', false));
        return;
      }
      const secure = url.protocol === 'https:';
      const body = call.body === undefined ? undefined : Buffer.from(call.body, 'utf8');
      const headers: Record<string, string> = {
        'User-Agent': USER_AGENT,
        Accept: 'application/json, text/plain, */*',
        ...call.headers,
        ...(body === undefined ? {} : { 'Content-Length': String(body.length) }),
      };
      let sent = false;
      let settled = false;
      const maxBytes = call.maxAnswerBytes ?? MAX_PROCESSOR_ANSWER_BYTES;
      const fail = (message: string, code?: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(new ProcessorCallError(message, sent, code));
      };
      const outgoing = (secure ? https : http).request(
        url,
        {
          method: call.method,
          headers,
          agent: secure ? agents.https : agents.http,
          // The agent keeps connections of different client certificates apart.
          ...(secure && call.tls !== undefined ? call.tls : {}),
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) {
              outgoing.destroy();
              fail(`the answer is larger than ${maxBytes} bytes`, 'TOO_LARGE');
              return;
            }
            chunks.push(chunk);
          });
          response.on('end', () => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            const replyHeaders: Record<string, string> = {};
            for (const [name, value] of Object.entries(response.headers)) {
              if (value !== undefined) replyHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
            }
            resolve({
              status: response.statusCode ?? 0,
              headers: replyHeaders,
              body: Buffer.concat(chunks).toString('utf8'),
            });
          });
          response.on('error', () => fail('the answer was cut off'));
        },
      );
      // Once a connection is made (for https, once TLS is agreed: a refused client certificate
      // means nothing was received), the processor may act on what it receives.
      outgoing.on('socket', (socket) => {
        const ready = secure ? 'secureConnect' : 'connect';
        if (!socket.connecting && (!secure || (socket as TLSSocket).encrypted === true)) sent = true;
        else socket.once(ready, () => (sent = true));
      });
      const timer = setTimeout(() => {
        fail(`no answer within ${call.timeoutMs} ms`, 'TIMEOUT');
        outgoing.destroy();
      }, call.timeoutMs);
      outgoing.on('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        // The guard checks the connected address before a byte is written.
        if (error.code === 'PRIVATE_ADDRESS') sent = false;
        // The server refused the TLS session (a client certificate it does not accept): with TLS
        // 1.3 its alert comes after the client's handshake ended, but no request was processed.
        if (error.code?.startsWith('ERR_SSL_') === true && error.code.includes('ALERT')) sent = false;
        fail(describe(error), error.code);
      });
      outgoing.end(body);
    });
  }

  return { request, close: () => agents.destroy() };
}

function describe(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'PRIVATE_ADDRESS':
      return `refused: ${error.message}`;
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host name not found';
    default:
      return error.code === undefined ? error.message : `${error.code}: ${error.message}`;
  }
}
