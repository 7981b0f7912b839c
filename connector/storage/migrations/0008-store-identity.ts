/**
 * A store is one store for ever (docs/decisions.md "Connector: a store keeps its connection"): one
 * connection per platform, store URL, gateway domain and environment, whatever token reaches it.
 *
 * Before this, a new connect token for a known store (a replaced token, or a store connected again
 * after a removal) made a second connection, and the store's earlier orders stayed with the first:
 * not refundable, not visible, reported as "paid in the store, not at the gateway". This merges each
 * store's connections into one, its newest connection that has not ended (else its newest):
 *
 * - The other connections' rows move to it: order links (their gateway order ids unchanged), refund
 *   records, handled webhooks, reconciliation runs and notes, Shopify shops and sessions. Where both
 *   have a link for one store order, the one that paid it stays and the other goes with its unpaid
 *   attempts; paid under both, the older stays with both payments, flagged `paid_twice` for a person.
 * - `connection_aliases` keeps each merged connection's id: the webhook address and the gateway
 *   order ids of its payments name it, and still lead to the store.
 * - A unique index then keeps one connection per store.
 */
import { type Kysely, sql } from 'kysely';

/** The tables whose rows belong to a connection (and can simply move). */
const MOVABLE: ReadonlyArray<string> = [
  'refund_records',
  'webhook_receipts',
  'reconciliation_runs',
  'shopify_shops',
  'shopify_payment_sessions',
];

interface ConnectionRow {
  id: string;
  platform: string;
  store_url: string;
  domain: string;
  environment: string;
  status: string;
  created_at: string;
}

interface LinkRow {
  id: string;
  store_order_id: string;
  paid_payment_uuid: string | null;
  created_at: string;
  updated_at: string;
}

const ENDED = new Set(['removed', 'uninstalled']);

// biome-ignore lint/suspicious/noExplicitAny: a migration works on the schema as it is at its step
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('connection_aliases')
    .addColumn('alias_id', 'text', (c) => c.primaryKey())
    .addColumn('connection_id', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('connection_aliases_connection')
    .on('connection_aliases')
    .column('connection_id')
    .execute();

  const connections: ConnectionRow[] = await db
    .selectFrom('store_connections')
    .select(['id', 'platform', 'store_url', 'domain', 'environment', 'status', 'created_at'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const stores = new Map<string, ConnectionRow[]>();
  for (const row of connections) {
    const key = [row.platform, row.store_url, row.domain, row.environment].join('\u0000');
    stores.set(key, [...(stores.get(key) ?? []), row]);
  }
  for (const rows of stores.values()) {
    if (rows.length < 2) continue;
    const open = rows.filter((r) => !ENDED.has(r.status));
    const keep = (open.length > 0 ? open : rows).at(-1) as ConnectionRow;
    for (const merged of rows) {
      if (merged.id !== keep.id) await mergeInto(db, merged.id, keep.id);
    }
  }

  await db.schema
    .createIndex('store_connections_store')
    .on('store_connections')
    .columns(['platform', 'store_url', 'domain', 'environment'])
    .unique()
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
async function mergeInto(db: Kysely<any>, from: string, to: string): Promise<void> {
  const links: LinkRow[] = await db
    .selectFrom('order_links')
    .select(['id', 'store_order_id', 'paid_payment_uuid', 'created_at', 'updated_at'])
    .where('connection_id', '=', from)
    .execute();
  for (const link of links) {
    const other: LinkRow | undefined = await db
      .selectFrom('order_links')
      .select(['id', 'store_order_id', 'paid_payment_uuid', 'created_at', 'updated_at'])
      .where('connection_id', '=', to)
      .where('store_order_id', '=', link.store_order_id)
      .executeTakeFirst();
    if (other === undefined) {
      await db.updateTable('order_links').set({ connection_id: to }).where('id', '=', link.id).execute();
      continue;
    }
    const [stays, goes] = chooseLink(link, other);
    if (goes.paid_payment_uuid !== null) {
      // Paid under both: the payments of the other link are kept on the staying one (they stay
      // known), and the flag asks a person to refund one.
      await db.updateTable('order_links').set({ flag: 'paid_twice' }).where('id', '=', stays.id).execute();
      await db.updateTable('order_payments').set({ link_id: stays.id }).where('link_id', '=', goes.id).execute();
    } else {
      await db.deleteFrom('order_payments').where('link_id', '=', goes.id).execute();
    }
    await db.updateTable('refund_records').set({ link_id: stays.id }).where('link_id', '=', goes.id).execute();
    await db.deleteFrom('order_links').where('id', '=', goes.id).execute();
    if (stays.id === link.id) {
      await db.updateTable('order_links').set({ connection_id: to }).where('id', '=', link.id).execute();
    }
  }
  for (const table of MOVABLE) {
    await db.updateTable(table).set({ connection_id: to }).where('connection_id', '=', from).execute();
  }
  // Notes already written stay written once: the kept connection's row wins.
  await sql`
    update reconciliation_notes set connection_id = ${to}
    where connection_id = ${from}
      and not exists (
        select 1 from reconciliation_notes kept
        where kept.connection_id = ${to} and kept.store_order_id = reconciliation_notes.store_order_id
          and kept.kind = reconciliation_notes.kind and kept.payment_key = reconciliation_notes.payment_key
      )`.execute(db);
  await db.deleteFrom('reconciliation_notes').where('connection_id', '=', from).execute();
  await db.deleteFrom('reconciliation_backoff').where('connection_id', '=', from).execute();
  await db.updateTable('connection_aliases').set({ connection_id: to }).where('connection_id', '=', from).execute();
  await db.insertInto('connection_aliases').values({ alias_id: from, connection_id: to }).execute();
  await db.deleteFrom('store_connections').where('id', '=', from).execute();
}

/** Of two links of one store order: the one that stays (the paying one, else the newer), then the other. */
function chooseLink(a: LinkRow, b: LinkRow): [LinkRow, LinkRow] {
  const older = a.created_at <= b.created_at ? a : b;
  const newer = older === a ? b : a;
  if (a.paid_payment_uuid !== null && b.paid_payment_uuid !== null) return [older, newer];
  if (a.paid_payment_uuid !== null) return [a, b];
  if (b.paid_payment_uuid !== null) return [b, a];
  return a.updated_at >= b.updated_at ? [a, b] : [b, a];
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('store_connections_store').execute();
  await db.schema.dropTable('connection_aliases').execute();
}
