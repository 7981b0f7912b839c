/**
 * The PostgreSQL baselines' pool: `pg` with 10 connections (the gateway's default, storage/connect.ts)
 * on `DATABASE_URL`, int8 parsed to numbers as the gateway does.
 */
import pg from 'pg';

export const BASELINE_POOL_SIZE = 10;
const INT8_OID = 20;

export function openBaselinePool(): pg.Pool {
  const url = process.env.DATABASE_URL ?? '';
  if (!url.startsWith('postgres://') && !url.startsWith('postgresql://')) {
    throw new Error('DATABASE_URL must be postgres://...');
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: BASELINE_POOL_SIZE,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  pool.on('error', () => {});
  return pool;
}
