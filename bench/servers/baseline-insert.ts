/**
 * Baseline 2: Koa with one route, `POST /payments`, that reads the JSON body, inserts one small
 * payment-shaped row with a prepared better-sqlite3 statement (WAL, synchronous=NORMAL, like the
 * gateway's SQLite connection) and answers 201 with JSON. The ceiling for create-payment.
 */
import Koa from 'koa';
import { insertPaymentRoute, openBaselineSqlite, serveBaseline } from './common.js';

const sqlite = openBaselineSqlite();
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
app.use(insertPaymentRoute((values) => insert.run(...values)));

serveBaseline(app, () => sqlite.close());
