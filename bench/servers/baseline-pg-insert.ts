/**
 * Baseline 2 on PostgreSQL: as baseline-insert.ts (Koa, `POST /payments`, the JSON body read, one
 * small payment-shaped row inserted, 201 with JSON), the insert a parameterised named prepared
 * statement through a `pg` Pool of 10. The ceiling for create-payment on PostgreSQL.
 */
import Koa from 'koa';
import { insertPaymentRoute, serveBaseline } from './common.js';
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
app.use(insertPaymentRoute((values) => pool.query({ ...INSERT, values })));

serveBaseline(app, () => pool.end());
