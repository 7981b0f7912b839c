/**
 * Baseline 3: Koa with one route, `GET /payments/:uuid`, that reads one payment-shaped row (the
 * columns the gateway's payment object is built from, see payment-row.ts) by its primary key with
 * a prepared better-sqlite3 statement (WAL, synchronous=NORMAL, like the gateway's SQLite
 * connection) and answers it as JSON. 1,000 rows are seeded first; the ready line names the path of
 * the one to read. The ceiling for get-payment on SQLite.
 */
import type { AddressInfo } from 'node:net';
import SQLite from 'better-sqlite3';
import Koa from 'koa';
import { announceReady, closeServer, stopOnSignal, tuneServer } from './common.js';
import { COLUMN_NAMES, CREATE_READ_TABLE, READ_ROW_INDEX, SEED_ROWS, seedRow } from './payment-row.js';

const url = process.env.DATABASE_URL ?? '';
if (!url.startsWith('sqlite:')) throw new Error('DATABASE_URL must be sqlite:<path>');
const sqlite = new SQLite(url.slice('sqlite:'.length));
sqlite.pragma('journal_mode = WAL');
sqlite.pragma('synchronous = NORMAL');
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

const PREFIX = '/payments/';
const app = new Koa();
app.use((ctx) => {
  if (ctx.method !== 'GET' || !ctx.path.startsWith(PREFIX)) return;
  const row = read.get(ctx.path.slice(PREFIX.length));
  if (row === undefined) return;
  ctx.body = row;
});

const server = app.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');
tuneServer(server);
server.once('listening', () => {
  const { port } = server.address() as AddressInfo;
  announceReady({ url: `http://127.0.0.1:${port}`, path: `${PREFIX}${readId}` });
});
stopOnSignal(async () => {
  await closeServer(server);
  sqlite.close();
});
