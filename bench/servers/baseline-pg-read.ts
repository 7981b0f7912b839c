/**
 * Baseline 3 on PostgreSQL: as baseline-read.ts (Koa, `GET /payments/:uuid`, one payment-shaped row
 * by its primary key, answered as JSON, 1,000 rows seeded first), the read a named prepared
 * statement through a `pg` Pool of 10. The ceiling for get-payment on PostgreSQL.
 */
import Koa from 'koa';
import { READ_PREFIX, readPaymentRoute, serveBaseline } from './common.js';
import { COLUMN_NAMES, CREATE_READ_TABLE, READ_ROW_INDEX, SEED_ROWS, seedRow } from './payment-row.js';
import { openBaselinePool } from './pg-pool.js';

const pool = openBaselinePool();
await pool.query(CREATE_READ_TABLE);
const runTag = Date.now().toString(36);
const rows = Array.from({ length: SEED_ROWS }, (_, index) => seedRow(index, runTag));
const width = COLUMN_NAMES.length;
// One multi-row insert per 100 rows (24 columns x 100 = 2,400 parameters, well under the limit).
for (let start = 0; start < rows.length; start += 100) {
  const batch = rows.slice(start, start + 100);
  const placeholders = batch.map((_, r) => `(${COLUMN_NAMES.map((_, c) => `$${r * width + c + 1}`).join(', ')})`);
  await pool.query(`INSERT INTO payments (${COLUMN_NAMES.join(', ')}) VALUES ${placeholders.join(', ')}`, batch.flat());
}
await pool.query('ANALYZE payments');
const readId = rows[READ_ROW_INDEX]?.[0] as string;
const READ = { name: 'read_payment', text: `SELECT ${COLUMN_NAMES.join(', ')} FROM payments WHERE id = $1` };

const app = new Koa();
app.use(
  readPaymentRoute(
    async (id) => (await pool.query({ ...READ, values: [id] })).rows[0] as Record<string, unknown> | undefined,
  ),
);

serveBaseline(app, () => pool.end(), { path: `${READ_PREFIX}${readId}` });
