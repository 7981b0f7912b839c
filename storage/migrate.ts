/**
 * Runs the migrations in `storage/migrations/` in order. Called at start and by `gateway migrate`;
 * Kysely's migrator takes a lock, so several instances starting together migrate once.
 */
import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import * as core from './migrations/0001-core.js';
import * as lifecycle from './migrations/0002-lifecycle.js';
import * as webhooksRefunds from './migrations/0003-webhooks-refunds.js';
import * as billing from './migrations/0004-billing.js';
import * as connectTokens from './migrations/0005-connect-tokens.js';
import * as accountVersion from './migrations/0006-account-version.js';
import * as processorSessions from './migrations/0007-processor-sessions.js';
import * as limitsFx from './migrations/0008-limits-fx.js';
import * as paymentItems from './migrations/0009-payment-items.js';
import * as receipts from './migrations/0010-receipts.js';
import * as domainVerification from './migrations/0011-domain-verification.js';
import * as dashboardAccounts from './migrations/0012-dashboard-accounts.js';
import * as dashboardAudit from './migrations/0013-dashboard-audit.js';
import * as businessVerification from './migrations/0014-business-verification.js';
import * as keyLastUse from './migrations/0015-key-last-use.js';
import * as dashboardTotp from './migrations/0016-dashboard-totp.js';
import * as dashboardInvitations from './migrations/0017-dashboard-invitations.js';
import * as paymentLinks from './migrations/0018-payment-links.js';
import * as customerTotals from './migrations/0019-customer-totals.js';
import * as paymentCounts from './migrations/0020-payment-counts.js';
import * as paymentSearch from './migrations/0021-payment-search.js';
import * as webhookDeliveryAttempts from './migrations/0022-webhook-delivery-attempts.js';
import * as dashboardMailSends from './migrations/0023-dashboard-mail-sends.js';
import * as merchantLanguage from './migrations/0024-merchant-language.js';
import * as sandboxPaymentsAreTest from './migrations/0025-sandbox-payments-are-test.js';
import * as testClock from './migrations/0026-test-clock.js';
import * as paymentPrefixSearch from './migrations/0027-payment-prefix-search.js';
import * as paymentHolds from './migrations/0028-payment-holds.js';
import * as paymentCountShards from './migrations/0029-payment-count-shards.js';
import * as unloggedRateLimits from './migrations/0030-unlogged-rate-limits.js';
import * as partialPaymentIndexes from './migrations/0031-partial-payment-indexes.js';

export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001-core': core,
  '0002-lifecycle': lifecycle,
  '0003-webhooks-refunds': webhooksRefunds,
  '0004-billing': billing,
  '0005-connect-tokens': connectTokens,
  '0006-account-version': accountVersion,
  '0007-processor-sessions': processorSessions,
  '0008-limits-fx': limitsFx,
  '0009-payment-items': paymentItems,
  '0010-receipts': receipts,
  '0011-domain-verification': domainVerification,
  '0012-dashboard-accounts': dashboardAccounts,
  '0013-dashboard-audit': dashboardAudit,
  '0014-business-verification': businessVerification,
  '0015-key-last-use': keyLastUse,
  '0016-dashboard-totp': dashboardTotp,
  '0017-dashboard-invitations': dashboardInvitations,
  '0018-payment-links': paymentLinks,
  '0019-customer-totals': customerTotals,
  '0020-payment-counts': paymentCounts,
  '0021-payment-search': paymentSearch,
  '0022-webhook-delivery-attempts': webhookDeliveryAttempts,
  '0023-dashboard-mail-sends': dashboardMailSends,
  '0024-merchant-language': merchantLanguage,
  '0025-sandbox-payments-are-test': sandboxPaymentsAreTest,
  '0026-test-clock': testClock,
  '0027-payment-prefix-search': paymentPrefixSearch,
  '0028-payment-holds': paymentHolds,
  '0029-payment-count-shards': paymentCountShards,
  '0030-unlogged-rate-limits': unloggedRateLimits,
  '0031-partial-payment-indexes': partialPaymentIndexes,
};

// biome-ignore lint/suspicious/noExplicitAny: the migrator works on any schema
export function missingGatewayMigrations(db: Kysely<any>): Promise<string[]> {
  return missingMigrations(db, MIGRATIONS);
}

/** Where Kysely's migrator records what it applied, unless told another name (the gateway's). */
const DEFAULT_MIGRATION_TABLE = 'kysely_migration';

/**
 * The names of `migrations` the database has not applied, in order (all of them when the
 * bookkeeping table does not exist yet). Throws when the database cannot be reached. For readiness
 * checks: an instance of older code beside a newer schema still counts as ready (extra rows).
 */
export async function missingMigrations(
  // biome-ignore lint/suspicious/noExplicitAny: any schema's bookkeeping table
  db: Kysely<any>,
  migrations: Record<string, Migration>,
  table = DEFAULT_MIGRATION_TABLE,
): Promise<string[]> {
  await sql`select 1`.execute(db);
  let applied: ReadonlySet<string>;
  try {
    const rows: Array<{ name: string }> = await db.selectFrom(table).select('name').execute();
    applied = new Set(rows.map((row) => row.name));
  } catch {
    applied = new Set();
  }
  return Object.keys(migrations)
    .sort()
    .filter((name) => !applied.has(name));
}

// biome-ignore lint/suspicious/noExplicitAny: the migrator works on any schema
export function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  return runMigrations(db, MIGRATIONS);
}

/**
 * Applies `migrations` in name order; answers the names applied now. `tables` names the migrator's
 * bookkeeping tables, so that two services (the gateway and the connector) may share one database.
 */
export async function runMigrations(
  // biome-ignore lint/suspicious/noExplicitAny: the migrator works on any schema
  db: Kysely<any>,
  migrations: Record<string, Migration>,
  tables: { migrationTableName?: string; migrationLockTableName?: string } = {},
): Promise<string[]> {
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  // Numbers are reserved ahead for work in progress: a database may already have a later
  // migration than one added since (0020 before 0019). Pending ones still run in name order.
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true, ...tables });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`migration ${failed ?? '(unknown)'} failed: ${String((error as Error).message ?? error)}`, {
      cause: error,
    });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
