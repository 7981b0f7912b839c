/**
 * How long a client may take over a request on the gateway's HTTP server (docs/decisions.md
 * "HTTP server"). Its own module, so the benchmark's servers use the same values.
 */
import { createServer, type RequestListener, type Server } from 'node:http';

export interface HttpTimeouts {
  /** From a request's first byte to the end of its headers. */
  readonly headersMs: number;
  /** From a request's first byte to the end of its body; at least `headersMs`. */
  readonly requestMs: number;
  /** How often requests are checked against both: each may last up to this much longer. */
  readonly checkIntervalMs: number;
  /** An idle keep-alive connection is closed after this long. */
  readonly keepAliveMs: number;
}

/**
 * Bodies are at most 64 KiB, so 20 seconds for a whole request is generous even on a poor mobile
 * link; a client that dribbles bytes holds a connection for at most about 21 seconds. Idle
 * keep-alive outlasts the 60 seconds of common load balancers, so they close first.
 */
export const HTTP_TIMEOUTS: HttpTimeouts = {
  headersMs: 10_000,
  requestMs: 20_000,
  checkIntervalMs: 1_000,
  keepAliveMs: 65_000,
};

/**
 * An HTTP server held to `timeouts`. Given at creation, Node checks that the headers' timeout is
 * within the request's. The gateway and the connector both serve through this.
 */
export function createBoundedServer(handler: RequestListener, timeouts: HttpTimeouts = HTTP_TIMEOUTS): Server {
  const server = createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: timeouts.checkIntervalMs,
    },
    handler,
  );
  server.keepAliveTimeout = timeouts.keepAliveMs;
  return server;
}
