/**
 * Shared by the benchmark's server processes: announce readiness to the orchestrator (one JSON
 * line on stdout), and stop on SIGTERM/SIGINT or when the orchestrator goes away (IPC channel
 * closed), so no server outlives a benchmark run. Also what the baselines share: their listening
 * and stopping, their SQLite connection, and their insert and read routes.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import SQLite from 'better-sqlite3';
import type Koa from 'koa';
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

/** Listens on PORT and HOST (127.0.0.1), announces readiness with `fields`, stops with `close` after the server. */
export function serveBaseline(app: Koa, close: () => unknown, fields: Record<string, unknown> = {}): void {
  const server = app.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');
  tuneServer(server);
  server.once('listening', () => {
    const { port } = server.address() as AddressInfo;
    announceReady({ url: `http://127.0.0.1:${port}`, ...fields });
  });
  stopOnSignal(async () => {
    await closeServer(server);
    await close();
  });
}

/** The SQLite file of DATABASE_URL, opened as the gateway opens its own (WAL, synchronous=NORMAL). */
export function openBaselineSqlite(): SQLite.Database {
  const url = process.env.DATABASE_URL ?? '';
  if (!url.startsWith('sqlite:')) throw new Error('DATABASE_URL must be sqlite:<path>');
  const sqlite = new SQLite(url.slice('sqlite:'.length));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  return sqlite;
}

/**
 * The insert baselines' route, `POST /payments`: reads and checks the JSON body, `insert`s the row
 * (id, merchant, order id, amount, currency, status, return URL, created at) and answers 201 JSON.
 */
export function insertPaymentRoute(insert: (values: unknown[]) => unknown): Koa.Middleware {
  return async (ctx) => {
    if (ctx.method !== 'POST' || ctx.path !== '/payments') return;
    let body: { order_id?: unknown; amount?: unknown; return_url?: unknown };
    try {
      body = JSON.parse(await readBody(ctx.req)) as typeof body;
    } catch {
      ctx.status = 400;
      ctx.body = { error: 'invalid_json' };
      return;
    }
    if (typeof body.order_id !== 'string' || typeof body.amount !== 'number' || typeof body.return_url !== 'string') {
      ctx.status = 422;
      ctx.body = { error: 'validation_failed' };
      return;
    }
    const id = randomUUID();
    const createdAt = new Date().toISOString();
    const inserted = insert([
      id,
      'merchant-1',
      body.order_id,
      body.amount,
      'AMD',
      'pending',
      body.return_url,
      createdAt,
    ]);
    // A synchronous insert (better-sqlite3) answers in the same turn, as a bare route would.
    if (inserted instanceof Promise) await inserted;
    ctx.status = 201;
    ctx.body = {
      uuid: id,
      order_id: body.order_id,
      amount: body.amount,
      currency: 'AMD',
      status: 'pending',
      created_at: createdAt,
    };
  };
}

/** Where the read baselines answer a row: `GET /payments/<id>`. */
export const READ_PREFIX = '/payments/';

/** The read baselines' route: the row `read` finds for the path's id, as JSON. */
export function readPaymentRoute(read: (id: string) => unknown): Koa.Middleware {
  return async (ctx) => {
    if (ctx.method !== 'GET' || !ctx.path.startsWith(READ_PREFIX)) return;
    const found = read(ctx.path.slice(READ_PREFIX.length));
    const row = found instanceof Promise ? await found : found;
    if (row === undefined) return;
    ctx.body = row;
  };
}
