/**
 * The payments list and its CSV export, for every member (viewers too: both only read).
 *
 * - `GET /dashboard/payments?env=&q=&status=&processor=&order_id=&from=&to=[&after=|&before=]`:
 *   25 payments a page, newest first, keyset-paged (`after`/`before` are `<created_at>|<uuid>` of
 *   the last/first payment shown; a malformed one is a 400). Without `env`, the live payments when
 *   the account has any, else the test ones. Bad filters: 422 with the fields named. The
 *   Uncaptured filter is `status=authorized` (payments whose card holds the amount).
 * - `GET /dashboard/payments/export.csv?<same filters>`: the matching payments as CSV, streamed
 *   (docs/dashboard.md "Payments"); `X-Row-Count` says how many rows to expect. Audited.
 *
 * Filters are the API's (`listPaymentsSchema`, `paymentListFilter`) and the list is the API's
 * repository (storage/payment.repository.ts); the search is the dashboard's addition to it.
 */
import { Readable } from 'node:stream';
import type { DialectName } from '../../../storage/database.js';
import { hasPayments } from '../../../storage/payment.repository.js';
import {
  countPayments,
  listPaymentsByKey,
  type PaymentCursor,
  type PaymentListFilter,
} from '../../../storage/payment-list.repository.js';
import type { GatewayContext } from '../../api/context.js';
import { listPaymentsSchema } from '../../api/schemas/payment.schema.js';
import { newNonce, setPageHeaders } from '../../checkout/security.js';
import type { Environment } from '../../domain/payment.js';
import { paymentListFilter } from '../../payments/payment-reads.service.js';
import { PROCESSOR_SLUGS } from '../../processors/registry.js';
import { parseAuditCursor } from '../audit/audit.routes.js';
import type { SectionRoutes, SignedInVisit } from '../kit.js';
import { messagePage } from '../pages.js';
import { PAYMENTS_MESSAGES } from './messages.js';
import { paymentsCsv } from './payments.csv.js';
import { FILTER_FIELDS, type FilterField, paymentsListPage } from './payments.pages.js';

export const PAGE_SIZE = 25;
const SEARCH_MAX = 255;

interface ListRequest {
  readonly env: Environment;
  readonly values: Record<FilterField, string>;
  readonly problems: Partial<Record<FilterField, string>>;
  readonly filter: PaymentListFilter;
}

/** The filters of the query; `filter` is meaningful only without problems. */
async function readRequest(
  ctx: GatewayContext,
  visit: SignedInVisit,
  db: Parameters<typeof hasPayments>[0],
  dialect: DialectName,
) {
  const p = PAYMENTS_MESSAGES[visit.shell.lang];
  const raw = (name: string): string => {
    const value = ctx.query[name];
    return typeof value === 'string' ? value.trim() : '';
  };
  const values = Object.fromEntries(FILTER_FIELDS.map((name) => [name, raw(name)])) as Record<FilterField, string>;
  const askedEnv = raw('env');
  const env: Environment =
    askedEnv === 'live' || askedEnv === 'test'
      ? askedEnv
      : (await hasPayments(db, visit.merchantId, 'live'))
        ? 'live'
        : 'test';
  const problems: Partial<Record<FilterField, string>> = {};
  if (values.q.length > SEARCH_MAX) problems.q = p.badSearch;
  const given = Object.fromEntries(
    (['status', 'processor', 'order_id', 'from', 'to'] as const)
      .filter((name) => values[name] !== '')
      .map((name) => [name, values[name]]),
  );
  const parsed = listPaymentsSchema.safeParse(given);
  let filter: PaymentListFilter = {};
  if (parsed.success) {
    filter = { ...paymentListFilter(parsed.data), ...(values.q === '' ? {} : { search: { text: values.q, dialect } }) };
  } else {
    for (const issue of parsed.error.issues) {
      const name = issue.path[0];
      if (name === 'from' || name === 'to') {
        problems[name] = issue.code === 'custom' ? p.toBeforeFrom : p.badDate;
      } else if (name === 'status') {
        problems.status = p.badStatus;
      } else if (name === 'processor' || name === 'order_id') {
        problems[name] = p.badSearch;
      }
    }
  }
  return { env, values, problems, filter } satisfies ListRequest;
}

/** The list's address with the request's filters and `changes` (empty values left out). */
function listHref(path: string, request: ListRequest, changes: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  const all: Record<string, string> = { env: request.env, ...request.values, ...changes };
  for (const [name, value] of Object.entries(all)) if (value !== '') params.set(name, value);
  return `${path}?${params.toString()}`;
}

function cursorOf(payment: { createdAt: string; uuid: string }): string {
  return `${payment.createdAt}|${payment.uuid}`;
}

export const paymentsRoutes: SectionRoutes = (router, kit) => {
  const db = kit.deps.db;

  router.get('/dashboard/payments', async (ctx) => {
    const visit = await kit.signedIn(ctx, 'payments');
    if (!visit) return;
    const p = PAYMENTS_MESSAGES[visit.shell.lang];
    const request = await readRequest(ctx, visit, db, kit.deps.dialect);
    const cursors: { after?: PaymentCursor; before?: PaymentCursor } = {};
    for (const side of ['after', 'before'] as const) {
      const raw = kit.query(ctx, side);
      if (raw === undefined) continue;
      const parsed = parseAuditCursor(raw);
      if (parsed === null) {
        return kit.send(
          ctx,
          visit.shell,
          400,
          messagePage(visit.shell, p.badCursorTitle, p.badCursorText, {
            href: `/dashboard/payments?env=${request.env}`,
            text: p.newest,
          }),
        );
      }
      cursors[side] = { createdAt: parsed.created_at, id: parsed.id };
    }
    const invalid = Object.keys(request.problems).length > 0;
    const scope = { merchantId: visit.merchantId, environment: request.env };
    let [page, total] = invalid
      ? [{ payments: [], older: false, newer: false }, 0]
      : await Promise.all([
          listPaymentsByKey(db, scope, request.filter, {
            ...(cursors.before === undefined ? {} : { before: cursors.before }),
            ...(cursors.after === undefined || cursors.before !== undefined ? {} : { after: cursors.after }),
            limit: PAGE_SIZE,
          }),
          countPayments(db, scope, request.filter),
        ]);
    // Back at the newest end: the first page, full, rather than the few payments newer than the cursor.
    if (!invalid && cursors.before !== undefined && !page.newer) {
      page = await listPaymentsByKey(db, scope, request.filter, { limit: PAGE_SIZE });
    }
    const first = page.payments[0];
    const last = page.payments.at(-1);
    const view = {
      env: request.env,
      values: request.values,
      problems: request.problems,
      payments: page.payments,
      total,
      newerHref: page.newer && first !== undefined ? listHref(ctx.path, request, { before: cursorOf(first) }) : null,
      olderHref: page.older && last !== undefined ? listHref(ctx.path, request, { after: cursorOf(last) }) : null,
      newestHref: page.newer ? listHref(ctx.path, request) : null,
      exportHref: listHref('/dashboard/payments/export.csv', request),
      uncapturedHref: listHref(ctx.path, request, { status: 'authorized' }),
      processors: PROCESSOR_SLUGS,
    };
    kit.send(
      ctx,
      visit.shell,
      invalid ? 422 : 200,
      paymentsListPage(visit.shell, view, (env) => `/dashboard/payments?env=${env}`),
    );
    // The export's progress reads the download with fetch, from this page's own origin only.
    ctx.set('Content-Security-Policy', `${ctx.response.get('Content-Security-Policy')}; connect-src 'self'`);
  });

  router.get('/dashboard/payments/export.csv', async (ctx) => {
    const visit = await kit.signedIn(ctx, 'payments');
    if (!visit) return;
    const p = PAYMENTS_MESSAGES[visit.shell.lang];
    const request = await readRequest(ctx, visit, db, kit.deps.dialect);
    if (Object.keys(request.problems).length > 0) {
      return kit.send(
        ctx,
        visit.shell,
        422,
        messagePage(visit.shell, p.exportTitle, p.badFilters, {
          href: listHref('/dashboard/payments', request),
          text: p.title,
        }),
      );
    }
    const scope = { merchantId: visit.merchantId, environment: request.env };
    const total = await countPayments(db, scope, request.filter);
    const range = [request.values.from, request.values.to].filter((d) => d !== '').join('..');
    await kit.audit(ctx, visit, 'payments.exported', `${request.env}${range === '' ? '' : ` ${range}`}, ${total}`);
    setPageHeaders(ctx, newNonce(), null, new URL(kit.publicUrl).origin);
    ctx.status = 200;
    ctx.type = 'text/csv; charset=utf-8';
    ctx.set(
      'Content-Disposition',
      `attachment; filename="payments-${request.env}${range === '' ? '' : `-${range.replace('..', '-to-')}`}.csv"`,
    );
    ctx.set('X-Row-Count', String(total));
    ctx.body = Readable.from(paymentsCsv(db, scope, request.filter, kit.publicUrl));
  });
};
