/**
 * Shared by the benchmark's server processes: announce readiness to the orchestrator (one JSON
 * line on stdout), and stop on SIGTERM/SIGINT or when the orchestrator goes away (IPC channel
 * closed), so no server outlives a benchmark run.
 */
import type { Server } from 'node:http';
import { HTTP_TIMEOUTS } from '../../gateway/runtime/http-timeouts.js';

/** The same socket settings the gateway uses (gateway/runtime/start.ts). */
export function tuneServer(server: Server): void {
  server.keepAliveTimeout = HTTP_TIMEOUTS.keepAliveMs;
  server.requestTimeout = HTTP_TIMEOUTS.requestMs;
  server.headersTimeout = HTTP_TIMEOUTS.headersMs;
}

/** Prints `{"bench_ready":true,...}` as one line; the orchestrator waits for it. */
export function announceReady(fields: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ bench_ready: true, pid: process.pid, ...fields })}\n`);
}

/** Runs `close` once on SIGTERM, SIGINT or loss of the orchestrator, then exits. */
export function stopOnSignal(close: () => Promise<void>): void {
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    // Never hang: a server that cannot close within 3 s exits anyway.
    setTimeout(() => process.exit(1), 3_000).unref();
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`close failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  process.once('disconnect', stop);
}

/** The request body as text, at most `limit` bytes (the gateway's body limit); used by the POST baselines. */
export async function readBody(req: NodeJS.ReadableStream, limit = 64 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) throw new Error('body too large');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

/** Serves until stopped; used by the baselines. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}
