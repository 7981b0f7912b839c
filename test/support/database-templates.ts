/**
 * Migrated databases to copy: the gateway's and the connector's schemas, migrated once per test run
 * (by the global setup) on both dialects, so a test that needs a fresh migrated database gets a copy
 * in milliseconds instead of running every migration again (about a second each time on the
 * project's 2-core machine, more under load, for each of the few hundred servers the suite starts).
 *
 * - SQLite: a migrated file, closed (its write-ahead log folded in), copied per fresh database.
 * - PostgreSQL: a database nobody stays connected to, named as the template of `CREATE DATABASE`.
 *
 * The services still migrate the copy at start: that finds nothing to do. A copy is exactly what
 * migrating an empty database makes, because the migrations write no data of their own on an empty
 * database (their backfills read existing rows), so a test sees no difference.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { ConnectorDatabase } from '../../connector/storage/database.js';
import { migrateConnector } from '../../connector/storage/migrate.js';
import { openDatabase } from '../../storage/connect.js';
import { migrateToLatest } from '../../storage/migrate.js';

/** The schemas a fresh database may start with; `empty` has no tables at all. */
export type Schema = 'empty' | 'gateway' | 'connector';
export type MigratedSchema = Exclude<Schema, 'empty'>;
export const MIGRATED_SCHEMAS: readonly MigratedSchema[] = ['gateway', 'connector'];

/** Where the templates of one run are: a SQLite file and a PostgreSQL database name per schema. */
export interface DatabaseTemplates {
  readonly sqlite: Readonly<Record<MigratedSchema, string>>;
  readonly postgres: Readonly<Record<MigratedSchema, string>>;
}

async function migrate(url: string, schema: MigratedSchema): Promise<void> {
  if (schema === 'gateway') {
    const handle = openDatabase(url);
    try {
      await migrateToLatest(handle.db);
    } finally {
      await handle.close();
    }
    return;
  }
  const handle = openDatabase<ConnectorDatabase>(url);
  try {
    await migrateConnector(handle.db);
  } finally {
    await handle.close();
  }
}

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function onAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Migrates the templates of one run: SQLite files under `dir`, PostgreSQL databases on the server
 * of `adminUrl` (named uniquely, so two runs may share a server). Answers them and how to remove them.
 */
export async function prepareDatabaseTemplates(
  dir: string,
  adminUrl: string,
): Promise<{ templates: DatabaseTemplates; remove: () => Promise<void> }> {
  mkdirSync(dir, { recursive: true });
  const run = randomBytes(4).toString('hex');
  const sqlite = { gateway: join(dir, 'gateway.sqlite'), connector: join(dir, 'connector.sqlite') };
  const postgres = { gateway: `gw_template_gateway_${run}`, connector: `gw_template_connector_${run}` };
  const remove = async () => {
    rmSync(dir, { recursive: true, force: true });
    await onAdmin(adminUrl, async (admin) => {
      for (const name of Object.values(postgres)) {
        await admin.query(`ALTER DATABASE ${name} IS_TEMPLATE false`).catch(() => {});
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      }
    });
  };
  try {
    await Promise.all(
      MIGRATED_SCHEMAS.map(async (schema) => {
        await migrate(`sqlite:${sqlite[schema]}`, schema);
        await onAdmin(adminUrl, (admin) => admin.query(`CREATE DATABASE ${postgres[schema]}`));
        await migrate(databaseUrl(adminUrl, postgres[schema]), schema);
        // Marked a template: only the owner may copy it, and nobody may connect to change it by mistake.
        await onAdmin(adminUrl, (admin) =>
          admin.query(`ALTER DATABASE ${postgres[schema]} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`),
        );
      }),
    );
  } catch (error) {
    await remove().catch(() => {});
    throw error;
  }
  return { templates: { sqlite, postgres }, remove };
}
