/**
 * The ledger as CSV (RFC 4180, CRLF lines), produced page by page with the API's own ledger read
 * and cursor, so an export of any length is never held whole in memory: the response streams
 * while the next page is read.
 *
 * Text cells are quoted when they hold a quote, comma or line break, and a text cell starting with
 * `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'` so a spreadsheet never runs it
 * as a formula. Numbers (ids, changes, balances) are written as numbers: a negative change stays
 * `-1`.
 */
import { type LedgerEntry, readLedgerPage } from '../../billing/billing.service.js';
import type { Counter } from '../../domain/billing.js';
import type { Deps } from '../../runtime/deps.js';

/** Rows read per page (the API's largest page). */
export const LEDGER_CSV_PAGE = 100;

export const LEDGER_CSV_COLUMNS = [
  'id',
  'created_at',
  'counter',
  'event_type',
  'delta',
  'balance_after',
  'ref_type',
  'ref_id',
  'note',
] as const satisfies ReadonlyArray<keyof LedgerEntry>;

/** One CSV cell: numbers as they are, text quoted when needed and guarded against formulas. */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const guarded = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(guarded) ? `"${guarded.replaceAll('"', '""')}"` : guarded;
}

export function csvLine(cells: ReadonlyArray<string | number | null>): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

export async function* ledgerCsv(
  deps: Deps,
  merchantId: string,
  counter: Counter | undefined,
  perPage: number,
): AsyncGenerator<string> {
  yield csvLine(LEDGER_CSV_COLUMNS);
  let cursor: string | undefined;
  do {
    const page = await readLedgerPage(deps, deps.secret, merchantId, {
      per_page: perPage,
      ...(counter === undefined ? {} : { counter }),
      ...(cursor === undefined ? {} : { cursor }),
    });
    if (page.data.length > 0) {
      yield page.data.map((entry) => csvLine(LEDGER_CSV_COLUMNS.map((column) => entry[column]))).join('');
    }
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
}
