/**
 * Connector migration 0008 on both databases: a store that a replaced token (or a connection made
 * again after a removal) split over several connections becomes one connection again. Its orders,
 * refunds and handled webhooks move to the store's newest open connection; a store order linked
 * under both keeps the link that paid it; the merged connection's id stays an alias of the store's;
 * and the store can no longer get a second connection.
 */
import type { Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { findConnectionOrAlias } from '../../connector/storage/connection.repository.js';
import type { StoreConnectionTable } from '../../connector/storage/connection.table.js';
import type { ConnectorDatabase } from '../../connector/storage/database.js';
import { CONNECTOR_MIGRATIONS, migrateConnector } from '../../connector/storage/migrate.js';
import type { OrderLinkTable } from '../../connector/storage/order-link.table.js';
import type { RefundRecordTable } from '../../connector/storage/refund-record.table.js';
import { type DatabaseHandle, openDatabase } from '../../storage/connect.js';
import { runMigrations } from '../../storage/migrate.js';
import { DIALECTS, freshDatabase, type TestDatabase } from '../support/databases.js';

/** The columns migration 0013 adds to the order links. */
type OrderHoldColumns = Pick<
  OrderLinkTable,
  | 'hold_payment_uuid'
  | 'authorized_amount'
  | 'capture_before'
  | 'hold_state'
  | 'capture_amount'
  | 'capture_attempt'
  | 'hold_check_at'
  | 'hold_checks'
  | 'hold_noted_at'
>;

/** The tables as they are before migration 0008 (later migrations add columns). */
type BeforeStoreIdentity = Omit<ConnectorDatabase, 'store_connections' | 'order_links' | 'refund_records'> & {
  store_connections: Omit<StoreConnectionTable, 'store_checked_at'>;
  order_links: Omit<OrderLinkTable, 'sync_lease_until' | keyof OrderHoldColumns>;
  refund_records: Omit<RefundRecordTable, 'status' | 'reason' | 'next_check_at' | 'checks'>;
};

const T0 = '2026-11-01T10:00:00.000Z';
const T1 = '2026-11-20T10:00:00.000Z';
const STORE = {
  platform: 'woocommerce',
  store_url: 'https://tea.example.am',
  domain: 'tea.example.am',
  environment: 'live',
} as const;

function connection(
  id: string,
  overrides: Partial<StoreConnectionTable> = {},
): BeforeStoreIdentity['store_connections'] {
  return {
    id,
    ...STORE,
    token_id: `token-${id}`,
    token_hash: `hash-${id}`,
    token_ciphertext: 'sealed',
    credentials_ciphertext: 'sealed',
    webhook_secrets_ciphertext: 'sealed',
    secrets_refreshed_at: T0,
    key_exchange_hash: null,
    key_exchange_ciphertext: null,
    status: 'active',
    last_webhook_at: null,
    created_at: T0,
    updated_at: T0,
    store_state: null,
    store_error_at: null,
    store_error_message: null,
    last_missed_webhook_at: null,
    ...overrides,
  };
}

function link(
  id: string,
  connectionId: string,
  storeOrderId: string,
  overrides: Partial<OrderLinkTable> = {},
): BeforeStoreIdentity['order_links'] {
  return {
    id,
    connection_id: connectionId,
    store_order_id: storeOrderId,
    gateway_order_id: `wc-${connectionId}-${storeOrderId}`,
    amount: 1000,
    currency: 'AMD',
    gateway_status: 'pending',
    paid_payment_uuid: null,
    store_sync: 'none',
    sync_attempts: 0,
    next_sync_at: null,
    last_sync_error: null,
    flag: null,
    next_poll_at: null,
    created_at: T0,
    updated_at: T0,
    poll_failures: 0,
    last_webhook_at: null,
    ...overrides,
  };
}

describe.each(DIALECTS)('connector migration 0008, one connection per store (%s)', (dialect) => {
  const opened: Array<{ database: TestDatabase; handle: DatabaseHandle }> = [];
  afterAll(async () => {
    for (const { database, handle } of opened) {
      await handle.close();
      await database.drop();
    }
  });

  async function atStep7(): Promise<Kysely<BeforeStoreIdentity>> {
    const database = await freshDatabase(dialect);
    const handle = openDatabase(database.url);
    opened.push({ database, handle });
    const db = handle.db as unknown as Kysely<BeforeStoreIdentity>;
    const before = Object.fromEntries(Object.entries(CONNECTOR_MIGRATIONS).filter(([name]) => name < '0008'));
    await runMigrations(db, before, {
      migrationTableName: 'connector_migration',
      migrationLockTableName: 'connector_migration_lock',
    });
    return db;
  }

  it('merges a split store into its newest open connection, keeping every order and the old id as an alias', async () => {
    const db = await atStep7();
    // The first token's connection (revoked), the second token's (active), and another store.
    await db
      .insertInto('store_connections')
      .values([
        connection('old', { status: 'token_revoked' }),
        connection('new', { created_at: T1, updated_at: T1 }),
        connection('other', { store_url: 'https://books.example.am', domain: 'books.example.am' }),
      ])
      .execute();
    await db
      .insertInto('order_links')
      .values([
        // Paid under the old connection; the new one linked it again when the owner looked.
        link('old-35', 'old', '35', { paid_payment_uuid: 'pay-35', gateway_status: 'completed', store_sync: 'done' }),
        link('new-35', 'new', '35', { created_at: T1 }),
        // Only under the old connection.
        link('old-36', 'old', '36', { paid_payment_uuid: 'pay-36', gateway_status: 'completed', store_sync: 'done' }),
        // Unpaid under both: the newer attempt stays.
        link('old-37', 'old', '37'),
        link('new-37', 'new', '37', { created_at: T1, updated_at: T1 }),
        link('other-35', 'other', '35'),
      ])
      .execute();
    await db
      .insertInto('order_payments')
      .values([
        {
          uuid: 'pay-35',
          link_id: 'old-35',
          status: 'completed',
          amount: 1000,
          currency: 'AMD',
          noted_status: 'completed',
          created_at: T0,
          updated_at: T0,
        },
        {
          uuid: 'try-35',
          link_id: 'new-35',
          status: 'expired',
          amount: 1000,
          currency: 'AMD',
          noted_status: null,
          created_at: T1,
          updated_at: T1,
        },
        {
          uuid: 'try-37',
          link_id: 'old-37',
          status: 'expired',
          amount: 1000,
          currency: 'AMD',
          noted_status: null,
          created_at: T0,
          updated_at: T0,
        },
      ])
      .execute();
    await db
      .insertInto('refund_records')
      .values({
        id: 'refund-36',
        connection_id: 'old',
        link_id: 'old-36',
        gateway_refund_uuid: 'gw-refund-36',
        store_refund_id: '77',
        amount: 300,
        origin: 'store',
        created_at: T0,
        updated_at: T0,
      })
      .execute();
    await db
      .insertInto('webhook_receipts')
      .values({
        delivery_id: 'd-1',
        connection_id: 'old',
        event: 'transaction.status.updated',
        payment_uuid: 'pay-35',
        received_at: T0,
      })
      .execute();

    const migrated = db as unknown as Kysely<ConnectorDatabase>;
    expect((await migrateConnector(migrated))[0]).toBe('0008-store-identity');

    const connections = await db.selectFrom('store_connections').select('id').orderBy('id').execute();
    expect(connections.map((c) => c.id)).toEqual(['new', 'other']);
    const links = await db
      .selectFrom('order_links')
      .select(['id', 'connection_id', 'store_order_id', 'gateway_order_id', 'paid_payment_uuid', 'flag'])
      .orderBy('id')
      .execute();
    expect(links).toEqual([
      {
        id: 'new-37',
        connection_id: 'new',
        store_order_id: '37',
        gateway_order_id: 'wc-new-37',
        paid_payment_uuid: null,
        flag: null,
      },
      {
        id: 'old-35',
        connection_id: 'new',
        store_order_id: '35',
        gateway_order_id: 'wc-old-35',
        paid_payment_uuid: 'pay-35',
        flag: null,
      },
      {
        id: 'old-36',
        connection_id: 'new',
        store_order_id: '36',
        gateway_order_id: 'wc-old-36',
        paid_payment_uuid: 'pay-36',
        flag: null,
      },
      {
        id: 'other-35',
        connection_id: 'other',
        store_order_id: '35',
        gateway_order_id: 'wc-other-35',
        paid_payment_uuid: null,
        flag: null,
      },
    ]);
    const payments = await db.selectFrom('order_payments').select(['uuid', 'link_id']).orderBy('uuid').execute();
    expect(payments).toEqual([{ uuid: 'pay-35', link_id: 'old-35' }]);
    expect(await db.selectFrom('refund_records').select(['connection_id', 'link_id']).execute()).toEqual([
      { connection_id: 'new', link_id: 'old-36' },
    ]);
    expect(await db.selectFrom('webhook_receipts').select('connection_id').execute()).toEqual([
      { connection_id: 'new' },
    ]);

    // The old webhook address still leads to the store.
    expect((await findConnectionOrAlias(migrated, 'old'))?.id).toBe('new');
    expect((await findConnectionOrAlias(migrated, 'new'))?.id).toBe('new');
    expect(await findConnectionOrAlias(migrated, 'nothing')).toBeUndefined();

    // One connection per store from now on.
    await expect(
      db
        .insertInto('store_connections')
        .values(connection('third', { token_hash: 'hash-third' }))
        .execute(),
    ).rejects.toThrow();
  });

  it('keeps both payments of an order paid under two connections, on the older link, flagged', async () => {
    const db = await atStep7();
    await db
      .insertInto('store_connections')
      .values([connection('a', { status: 'removed', token_hash: 'removed:a' }), connection('b', { created_at: T1 })])
      .execute();
    await db
      .insertInto('order_links')
      .values([
        link('a-9', 'a', '9', { paid_payment_uuid: 'pay-a', gateway_status: 'completed' }),
        link('b-9', 'b', '9', { paid_payment_uuid: 'pay-b', gateway_status: 'completed', created_at: T1 }),
      ])
      .execute();
    await db
      .insertInto('order_payments')
      .values([
        {
          uuid: 'pay-a',
          link_id: 'a-9',
          status: 'completed',
          amount: 1000,
          currency: 'AMD',
          noted_status: 'completed',
          created_at: T0,
          updated_at: T0,
        },
        {
          uuid: 'pay-b',
          link_id: 'b-9',
          status: 'completed',
          amount: 1000,
          currency: 'AMD',
          noted_status: 'completed',
          created_at: T1,
          updated_at: T1,
        },
      ])
      .execute();

    await migrateConnector(db as unknown as Kysely<ConnectorDatabase>);

    expect(await db.selectFrom('order_links').select(['id', 'connection_id', 'flag']).execute()).toEqual([
      { id: 'a-9', connection_id: 'b', flag: 'paid_twice' },
    ]);
    const payments = await db.selectFrom('order_payments').select(['uuid', 'link_id']).orderBy('uuid').execute();
    expect(payments).toEqual([
      { uuid: 'pay-a', link_id: 'a-9' },
      { uuid: 'pay-b', link_id: 'a-9' },
    ]);
  });
});
