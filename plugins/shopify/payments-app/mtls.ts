/**
 * Shopify authenticates its calls to the payments app (payment, refund, capture, void sessions) with
 * a client certificate issued by its own Payments Platform CA. Two ways to check it:
 *
 * - in-process (`SHOPIFY_PAYMENTS_MTLS_CA`, `_CERT`, `_KEY`, `_PORT`): the connector also serves on a
 *   TLS port with `requestCert: true`, `rejectUnauthorized: true` and only that CA bundle, so a client
 *   without a certificate from it does not get past the handshake; the session routes answer only
 *   requests that arrived over that listener, authorized;
 * - a proxy that checks the certificate (`SHOPIFY_PAYMENTS_TRUST_PROXY=1`): the session routes then
 *   trust requests from a loopback or private address only (the proxy on a private listener).
 *
 * Neither configured: the session routes answer 401 (nobody can start a payment).
 * Each of the PEM variables holds the PEM text itself or a path to a file holding it.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, RequestListener } from 'node:http';
import { createServer as createHttpsServer, type Server } from 'node:https';
import { isIP } from 'node:net';
import { TLSSocket } from 'node:tls';
import { HTTP_TIMEOUTS } from '../../../gateway/runtime/http-timeouts.js';

export type PaymentsAppTransport =
  | { mode: 'mtls'; ca: string; cert: string; key: string; port: number }
  | { mode: 'proxy' }
  | { mode: 'off' };

export function paymentsAppTransport(env: Record<string, string | undefined>): PaymentsAppTransport {
  const ca = env.SHOPIFY_PAYMENTS_MTLS_CA?.trim() ?? '';
  if (ca !== '') {
    const cert = env.SHOPIFY_PAYMENTS_MTLS_CERT?.trim() ?? '';
    const key = env.SHOPIFY_PAYMENTS_MTLS_KEY?.trim() ?? '';
    const port = Number(env.SHOPIFY_PAYMENTS_MTLS_PORT ?? '8443');
    if (cert === '' || key === '') {
      throw new Error(
        'SHOPIFY_PAYMENTS_MTLS_CA needs SHOPIFY_PAYMENTS_MTLS_CERT and SHOPIFY_PAYMENTS_MTLS_KEY (the server certificate)',
      );
    }
    if (!Number.isInteger(port) || port < 0 || port > 65_535)
      throw new Error('SHOPIFY_PAYMENTS_MTLS_PORT must be a port number');
    return { mode: 'mtls', ca: pem(ca), cert: pem(cert), key: pem(key), port };
  }
  const proxy = env.SHOPIFY_PAYMENTS_TRUST_PROXY;
  return proxy === '1' || proxy === 'true' ? { mode: 'proxy' } : { mode: 'off' };
}

function pem(value: string): string {
  return value.startsWith('-----BEGIN') ? value : readFileSync(value, 'utf8');
}

/** The TLS listener for Shopify's calls (the whole app is served; only Shopify can connect). */
export function createMtlsServer(
  transport: Extract<PaymentsAppTransport, { mode: 'mtls' }>,
  handler: RequestListener,
): Server {
  const server = createHttpsServer(
    {
      ca: transport.ca,
      cert: transport.cert,
      key: transport.key,
      requestCert: true,
      rejectUnauthorized: true,
      headersTimeout: HTTP_TIMEOUTS.headersMs,
      requestTimeout: HTTP_TIMEOUTS.requestMs,
    },
    handler,
  );
  server.keepAliveTimeout = HTTP_TIMEOUTS.keepAliveMs;
  return server;
}

/** Whether this request comes from Shopify as the transport can tell. */
export function isShopifyCaller(req: IncomingMessage, transport: PaymentsAppTransport): boolean {
  const socket = req.socket;
  if (transport.mode === 'mtls') {
    return socket instanceof TLSSocket && socket.authorized && socket.localPort === transportPort(socket, transport);
  }
  if (transport.mode === 'proxy') return isPrivateAddress(socket.remoteAddress ?? '');
  return false;
}

function transportPort(socket: TLSSocket, transport: { port: number }): number {
  // Port 0 (tests) is whatever was bound: any authorized TLS socket is that listener's.
  return transport.port === 0 ? (socket.localPort ?? -1) : transport.port;
}

export function isPrivateAddress(address: string): boolean {
  const ip = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(ip) === 4) {
    const [a = 0, b = 0] = ip.split('.').map(Number);
    return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
  }
  if (isIP(ip) === 6) return ip === '::1' || /^f[cd]/i.test(ip);
  return false;
}
