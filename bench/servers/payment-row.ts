/**
 * The payment-shaped rows of the read baselines (baseline-read.ts on SQLite, baseline-pg-read.ts on
 * PostgreSQL): the columns of the gateway's `payments` table (storage/migrations/0001-core.ts and
 * later) that the API's payment object is built from (gateway/domain/payment.ts
 * `toPaymentResponse`), with the same names and types, and the seed rows both baselines load.
 */
import { randomUUID } from 'node:crypto';

/** Rows seeded before the server announces itself; one of them is read by every request. */
export const SEED_ROWS = 1_000;
/** Which seeded row the orchestrator asks for. */
export const READ_ROW_INDEX = 500;

export const READ_COLUMNS = [
  ['id', 'text primary key'],
  ['merchant_id', 'text not null'],
  ['environment', 'text not null'],
  ['sandbox', 'integer not null'],
  ['order_id', 'text not null'],
  ['amount', 'bigint not null'],
  ['refunded_amount', 'bigint not null'],
  ['currency', 'text not null'],
  ['charge', 'text'],
  ['customer_id', 'text'],
  ['status', 'text not null'],
  ['processor', 'text'],
  ['payment_flow', 'text not null'],
  ['qr_code', 'text'],
  ['rrn', 'text'],
  ['description', 'text'],
  ['failure_code', 'text'],
  ['capture_method', 'text not null'],
  ['authorized_amount', 'bigint'],
  ['capture_before', 'text'],
  ['checkout_token', 'text not null'],
  ['created_at', 'text not null'],
  ['completed_at', 'text'],
  ['refunded_at', 'text'],
] as const;

export const COLUMN_NAMES = READ_COLUMNS.map(([name]) => name);

/** `CREATE TABLE` for both databases (the types above mean the same on SQLite and PostgreSQL). */
export const CREATE_READ_TABLE = `CREATE TABLE IF NOT EXISTS payments (${READ_COLUMNS.map(([name, type]) => `${name} ${type}`).join(', ')})`;

/** The values of seed row `index`, in `COLUMN_NAMES` order; every other row completed with an RRN. */
export function seedRow(index: number, runTag: string): unknown[] {
  const created = new Date(Date.UTC(2026, 0, 1) + index * 60_000).toISOString();
  const completed = index % 2 === 0;
  return [
    randomUUID(),
    'merchant-1',
    'test',
    1,
    `bench-${runTag}-${index}`,
    5000 + index,
    0,
    'AMD',
    null,
    null,
    completed ? 'completed' : 'pending',
    'idram',
    'redirect',
    null,
    completed ? `rrn-${100_000 + index}` : null,
    'Benchmark order',
    null,
    'automatic',
    null,
    null,
    randomUUID().replaceAll('-', ''),
    created,
    completed ? created : null,
    null,
  ];
}
