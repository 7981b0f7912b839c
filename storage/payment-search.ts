/**
 * The dashboard's payment search (migrations 0021 and 0026): the payments of one merchant and
 * environment whose uuid, order id or customer email begins with the searched text, ignoring case,
 * or whose RRN is the text.
 *
 * Each prefix is an index range on the lowered key, `key >= prefix and key < nextPrefix(prefix)`,
 * never a LIKE pattern: a `%` or `_` typed into the search is a character like any other, and
 * every key is read from an index of its own whatever the number of payments. The range holds
 * exactly the keys that begin with the prefix in code point order, which is SQLite's default and
 * PostgreSQL's "C" collation; PostgreSQL compares (and its indexes sort) in "C" for that.
 */
import { type Expression, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { Environment } from '../gateway/domain/payment.js';
import type { Database, DialectName, Executor } from './database.js';

/** What the dashboard searched for, and the database it searches (which names the collation). */
export interface PaymentSearch {
  readonly text: string;
  readonly dialect: DialectName;
}

/**
 * The smallest text above every text that begins with `prefix`, in code point order (`ab-100` ->
 * `ab-101`); undefined when there is none (only U+10FFFF characters, or nothing).
 */
export function nextPrefix(prefix: string): string | undefined {
  const points = [...prefix].map((c) => c.codePointAt(0) as number);
  while (points.length > 0) {
    const last = points.pop() as number;
    // The next code point, stepping over the surrogates, which no text holds alone.
    const next = last === 0xd7ff ? 0xe000 : last + 1;
    if (next <= 0x10ffff) return String.fromCodePoint(...points, next);
  }
  return undefined;
}

interface SearchScope {
  readonly merchantId: string;
  readonly environment: Environment;
  readonly domainId?: string;
}

type Ids = SelectQueryBuilder<Database, 'payments', { id: string }>;

/** The ids of the scope's payments that the search finds: one index range or lookup per key, united. */
export function searchedIds(db: Executor, scope: SearchScope, search: PaymentSearch): Ids {
  const within = (): Ids => {
    let query = db
      .selectFrom('payments')
      .select('id')
      .where('merchant_id', '=', scope.merchantId)
      .where('environment', '=', scope.environment);
    if (scope.domainId !== undefined) query = query.where('domain_id', '=', scope.domainId);
    return query;
  };
  const prefix = search.text.toLowerCase();
  const upper = nextPrefix(prefix);
  const ordered = (key: RawBuilder<string>): Expression<string> =>
    search.dialect === 'postgres' ? sql<string>`${key} collate "C"` : key;
  const beginsWith = (key: RawBuilder<string>): Ids => {
    const query = within().where(ordered(key), '>=', prefix);
    return upper === undefined ? query : query.where(ordered(key), '<', upper);
  };
  // Only payments with an email are in its index (migration 0031); saying so lets it be used.
  const emails = beginsWith(sql<string>`lower(customer_email)`).where('customer_email', 'is not', null);
  return beginsWith(sql<string>`id`)
    .union(beginsWith(sql<string>`lower(order_id)`))
    .union(emails)
    .union(within().where('rrn', '=', search.text));
}
