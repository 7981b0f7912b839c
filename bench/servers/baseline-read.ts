/**
 * Baseline 3: Koa with one route, `GET /payments/:uuid`, that reads one payment-shaped row (the
 * columns the gateway's payment object is built from, see payment-row.ts) by its primary key with
 * a prepared better-sqlite3 statement (WAL, synchronous=NORMAL, like the gateway's SQLite
 * connection) and answers it as JSON. 1,000 rows are seeded first; the ready line names the path of
 * the one to read. The ceiling for get-payment on SQLite.
 */
import Koa from 'koa';
import { openBaselineSqlite, READ_PREFIX, readPaymentRoute, serveBaseline } from './common.js';
import { COLUMN_NAMES, CREATE_READ_TABLE, READ_ROW_INDEX, SEED_ROWS, seedRow } from './payment-row.js';

const sqlite = openBaselineSqlite();
sqlite.exec(CREATE_READ_TABLE);
const seed = sqlite.prepare(
  `INSERT INTO payments (${COLUMN_NAMES.join(', ')}) VALUES (${COLUMN_NAMES.map(() => '?').join(', ')})`,
);
const runTag = Date.now().toString(36);
let readId = '';
sqlite.transaction(() => {
  for (let index = 0; index < SEED_ROWS; index += 1) {
    const values = seedRow(index, runTag);
    seed.run(...values);
    if (index === READ_ROW_INDEX) readId = values[0] as string;
  }
})();
const read = sqlite.prepare(`SELECT ${COLUMN_NAMES.join(', ')} FROM payments WHERE id = ?`);

const app = new Koa();
app.use(readPaymentRoute((id) => read.get(id)));

serveBaseline(app, () => sqlite.close(), { path: `${READ_PREFIX}${readId}` });
