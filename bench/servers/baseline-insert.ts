/**
 * Baseline 2: Koa with one route, `POST /payments`, that reads the JSON body, inserts one small
 * payment-shaped row with a prepared better-sqlite3 statement (WAL, synchronous=NORMAL, like the
 * gateway's SQLite connection) and answers 201 with JSON. The ceiling for create-payment.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import SQLite from 'better-sqlite3';
import Koa from 'koa';
import { announceReady, closeServer, readBody, stopOnSignal, tuneServer } from './common.js';

const url = process.env.DATABASE_URL ?? '';
if (!url.startsWith('sqlite:')) throw new Error('DATABASE_URL must be sqlite:<path>');
const sqlite = new SQLite(url.slice('sqlite:'.length));
sqlite.pragma('journal_mode = WAL');
sqlite.pragma('synchronous = NORMAL');
sqlite.exec(`
  CREATE TABLE IF NOT EXISTS payments (
    id TEXT PRIMARY KEY,
    merchant_id TEXT NOT NULL,
    order_id TEXT NOT NULL,
    amount INTEGER NOT NULL,
    currency TEXT NOT NULL,
    status TEXT NOT NULL,
    return_url TEXT NOT NULL,
    created_at TEXT NOT NULL
  )
`);
const insert = sqlite.prepare(
  `INSERT INTO payments (id, merchant_id, order_id, amount, currency, status, return_url, created_at)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
);

const app = new Koa();
app.use(async (ctx) => {
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
  insert.run(id, 'merchant-1', body.order_id, body.amount, 'AMD', 'pending', body.return_url, createdAt);
  ctx.status = 201;
  ctx.body = {
    uuid: id,
    order_id: body.order_id,
    amount: body.amount,
    currency: 'AMD',
    status: 'pending',
    created_at: createdAt,
  };
});

const server = app.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');
tuneServer(server);
server.once('listening', () => {
  const { port } = server.address() as AddressInfo;
  announceReady({ url: `http://127.0.0.1:${port}` });
});
stopOnSignal(async () => {
  await closeServer(server);
  sqlite.close();
});
