/**
 * Runs the connector's migrations. Its migration bookkeeping tables are named apart from the
 * gateway's, so both services may share one PostgreSQL database.
 */
import type { Kysely, Migration } from 'kysely';
import { missingMigrations, runMigrations } from '../../storage/migrate.js';
import type { ConnectorDatabase } from './database.js';
import * as connector from './migrations/0001-connector.js';
import * as reconciliationBackoff from './migrations/0002-reconciliation-backoff.js';
import * as connectionHealth from './migrations/0003-connection-health.js';
import * as shopify from './migrations/0004-shopify.js';
import * as shopifyPaymentSessions from './migrations/0005-shopify-payment-sessions.js';
import * as shopifyDomainVerification from './migrations/0006-shopify-domain-verification.js';
import * as shopifyVersionsAndConfiguration from './migrations/0007-shopify-versions-and-configuration.js';
import * as storeIdentity from './migrations/0008-store-identity.js';
import * as refundOutcomes from './migrations/0009-refund-outcomes.js';
import * as storeSyncLease from './migrations/0010-store-sync-lease.js';
import * as storeKeyChecks from './migrations/0011-store-key-checks.js';
import * as shopifyHoldSessions from './migrations/0012-shopify-hold-sessions.js';
import * as orderHolds from './migrations/0013-order-holds.js';

export const CONNECTOR_MIGRATIONS: Record<string, Migration> = {
  '0001-connector': connector,
  '0002-reconciliation-backoff': reconciliationBackoff,
  '0003-connection-health': connectionHealth,
  '0004-shopify': shopify,
  '0005-shopify-payment-sessions': shopifyPaymentSessions,
  '0006-shopify-domain-verification': shopifyDomainVerification,
  '0007-shopify-versions-and-configuration': shopifyVersionsAndConfiguration,
  '0008-store-identity': storeIdentity,
  '0009-refund-outcomes': refundOutcomes,
  '0010-store-sync-lease': storeSyncLease,
  '0011-store-key-checks': storeKeyChecks,
  '0012-shopify-hold-sessions': shopifyHoldSessions,
  '0013-order-holds': orderHolds,
};

const MIGRATION_TABLE = 'connector_migration';

export function migrateConnector(db: Kysely<ConnectorDatabase>): Promise<string[]> {
  return runMigrations(db, CONNECTOR_MIGRATIONS, {
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: 'connector_migration_lock',
  });
}

/** The connector's migrations its database has not applied (throws when it cannot be reached). */
export function missingConnectorMigrations(db: Kysely<ConnectorDatabase>): Promise<string[]> {
  return missingMigrations(db, CONNECTOR_MIGRATIONS, MIGRATION_TABLE);
}
