/**
 * A fresh database of either dialect for one test file: empty, or already migrated to the gateway's
 * or the connector's schema (a copy of the run's template, see `database-templates.ts`). Tests loop
 * over `DIALECTS` so every storage and API test runs on SQLite and on a real PostgreSQL.
 */
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import type { DialectName } from '../../storage/database.js';
import type { Schema } from './database-templates.js';

export const DIALECTS: readonly DialectName[] = ['sqlite', 'postgres'];

/**
 * The database the browser tests' servers run on. A page's server side (its queries, forms and
 * answers) is tested on both dialects by the HTTP tests beside it (`payment-detail.test.ts` for
 * `payment-detail-browser.test.ts`, ...); what a browser test adds (rendering, script, focus,
 * accessibility) is the same whatever stores the rows, so it runs once.
 */
export const BROWSER_DIALECTS: readonly DialectName[] = ['sqlite'];

export interface TestDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

/**
 * `schema`: `empty` (the default) has no tables; `gateway` and `connector` are migrated to that
 * service's latest schema, as the service would migrate an empty one at start.
 */
export async function freshDatabase(dialect: DialectName, schema: Schema = 'empty'): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'gateway-sqlite-'));
    const path = join(dir, 'gateway.sqlite');
    if (schema !== 'empty') copyFileSync(inject('databaseTemplates').sqlite[schema], path);
    return {
      url: `sqlite:${path}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const adminUrl = inject('postgresAdminUrl');
  const name = `gw_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(
      schema === 'empty'
        ? `CREATE DATABASE ${name}`
        : `CREATE DATABASE ${name} TEMPLATE ${inject('databaseTemplates').postgres[schema]}`,
    );
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
