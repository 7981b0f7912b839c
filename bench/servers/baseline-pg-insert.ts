/**
 * Baseline 2 on PostgreSQL: as baseline-insert.ts (Koa, `POST /payments`, the JSON body read, one
 * small payment-shaped row inserted, 201 with JSON), the insert a parameterised named prepared
 * statement through a `pg` Pool of 10. The ceiling for create-payment on PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { announceReady, closeServer, readBody, stopOnSignal, tuneServer } from './common.js';
import { openBaselinePool } from './pg-pool.js';

const pool = openBaselinePool();
await pool.query(`
  CREATE TABLE IF NOT EXISTS payments (
    id TEXT PRIMARY KEY,
    merchant_id TEXT NOT NULL,
    order_id TEXT NOT NULL,
    amount BIGINT NOT NULL,
    currency TEXT NOT NULL,
    status TEXT NOT NULL,
    return_url TEXT NOT NULL,
    created_at TEXT NOT NULL
  )
`);
const INSERT = {
  name: 'insert_payment',
  text: `INSERT INTO payments (id, merchant_id, order_id, amount, currency, status, return_url, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
};

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
  await pool.query({
    ...INSERT,
    values: [id, 'merchant-1', body.order_id, body.amount, 'AMD', 'pending', body.return_url, createdAt],
  });
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
  await pool.end();
});
