/**
 * The payments list and CSV export over HTTP, on both databases: filters, the search by each key
 * (whole, or by its beginning), keyset pages both ways, the test/live switch, another account's
 * payments never shown, and the CSV equal to the API's list for the same filters, with its escaping.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSV_COLUMNS, csvCell } from '../../gateway/dashboard/payments/payments.csv.js';
import { toStoredInstant } from '../../gateway/domain/clock.js';
import { formatDateTime } from '../../gateway/i18n/format.js';
import { addDomain, setProcessorEnabled, verifyBusiness } from '../../gateway/merchants/merchant.service.js';
import { DIALECTS } from '../support/databases.js';
import { enableLiveProcessor, paymentBody, uniqueHost } from '../support/gateway.js';
import { heldPayment } from './holds-support.js';
import { parseCsv } from './payments-support.js';
import {
  auditRows,
  type DashboardClient,
  type DashboardGateway,
  signedInMember,
  signedInOwner,
  startDashboardGateway,
} from './support.js';

interface ApiPayment {
  uuid: string;
  order_id: string;
  status: string;
  amount: number;
  currency: string;
  rrn: string | null;
  processor: string | null;
  created_at: string;
}

/** The uuids of the list page's rows, in order. */
function listed(html: string): string[] {
  return [...html.matchAll(/<tr data-uuid="([^"]+)"/g)].map((m) => m[1] as string);
}

function hrefOf(html: string, rel: 'next' | 'prev'): string {
  const match = new RegExp(`<a href="([^"]+)" rel="${rel}"`).exec(html);
  return (match?.[1] ?? '').replaceAll('&amp;', '&');
}

describe.each(DIALECTS)('dashboard payments list (%s)', (dialect) => {
  let g: DashboardGateway;
  let owner: { client: DashboardClient; merchantId: string };
  let testKey: string;
  const made: ApiPayment[] = [];
  let paid: ApiPayment;

  const create = async (key: string, overrides: Record<string, unknown> = {}) => {
    const res = await g.t.call<ApiPayment>('POST', '/api/v1/payments', { key, body: paymentBody(overrides) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    g.t.clock.advance(1000);
    return res.body;
  };

  beforeAll(async () => {
    g = await startDashboardGateway(dialect);
    owner = await signedInOwner(g);
    testKey = await g.t.key(owner.merchantId, 'test');
    for (let i = 0; i < 30; i++) {
      made.push(
        await create(testKey, {
          order_id: `ord-${String(i).padStart(3, '0')}`,
          amount: 1000 + i,
          customer_email: i % 2 === 0 ? `Buyer.${i}@Example.am` : undefined,
          description: i === 3 ? 'He said "hi", then left' : i === 4 ? '=SUM(A1:A2)' : undefined,
        }),
      );
    }
    const target = made[7] as ApiPayment;
    const res = await g.t.call<ApiPayment>('POST', `/api/v1/test_helpers/payments/${target.uuid}/pay`, {
      key: testKey,
      body: { card_number: '4242424242424242' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    paid = res.body;
    expect(paid.status).toBe('completed');
    expect(paid.rrn).not.toBeNull();
  }, 300_000);

  afterAll(async () => {
    await g?.close();
  });

  it('lists the newest 25 test payments with the total, then older and newer pages by key', async () => {
    const first = await owner.client.get('/dashboard/payments');
    expect(first.status, first.text).toBe(200);
    const newestFirst = [...made].reverse().map((p) => p.uuid);
    expect(listed(first.text)).toEqual(newestFirst.slice(0, 25));
    expect(first.text).toContain('30 payments match.');
    expect(first.headers.get('content-security-policy')).toMatch(/script-src 'nonce-[^']+'.*; connect-src 'self'$/);
    expect(first.text).toContain(`href="/dashboard/payments/${newestFirst[0]}"`);
    expect(first.text).toContain('aria-current="page">Test</a>');
    expect(first.text).toMatch(/class="pay-badge pay-completed">Completed</);
    const older = await owner.client.get(hrefOf(first.text, 'next'));
    expect(listed(older.text)).toEqual(newestFirst.slice(25));
    expect(hrefOf(older.text, 'next')).toBe('');
    const newer = await owner.client.get(hrefOf(older.text, 'prev'));
    expect(listed(newer.text)).toEqual(newestFirst.slice(0, 25));
    expect(hrefOf(newer.text, 'prev')).toBe('');
    expect((await owner.client.get('/dashboard/payments?after=nonsense')).status).toBe(400);
  });

  it('filters as the API does: status, order id, processor and creation dates', async () => {
    const completed = await owner.client.get('/dashboard/payments?env=test&status=completed');
    expect(listed(completed.text)).toEqual([paid.uuid]);
    expect(completed.text).toContain('1 payment matches.');
    const byOrder = await owner.client.get('/dashboard/payments?env=test&order_id=ord-005');
    expect(listed(byOrder.text)).toEqual([made[5]?.uuid]);
    const byProcessor = await owner.client.get('/dashboard/payments?env=test&processor=sandbox');
    expect(listed(byProcessor.text)).toEqual([paid.uuid]);
    const day = (made[0] as ApiPayment).created_at.slice(0, 10);
    const inRange = await owner.client.get(`/dashboard/payments?env=test&from=${day}&to=${day}`);
    expect(listed(inRange.text)).toHaveLength(25);
    const before = await owner.client.get('/dashboard/payments?env=test&to=2000-01-01');
    expect(listed(before.text)).toEqual([]);
    const bad = await owner.client.get('/dashboard/payments?env=test&from=2026-13-45&status=lost');
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('id="pay-from-error"');
    expect(bad.text).toContain('id="pay-status-error"');
    const reversed = await owner.client.get('/dashboard/payments?env=test&from=2026-11-10&to=2026-11-01');
    expect(reversed.status).toBe(422);
    expect(reversed.text).toContain('id="pay-to-error"');
  });

  it('finds a payment by its uuid, order id, RRN or customer email (any case)', async () => {
    const target = made[6] as ApiPayment;
    for (const q of [target.uuid, 'ord-006', 'buyer.6@example.am', 'BUYER.6@EXAMPLE.AM']) {
      const page = await owner.client.get(`/dashboard/payments?env=test&q=${encodeURIComponent(q)}`);
      expect(listed(page.text), q).toEqual([target.uuid]);
      expect(page.text).toContain('1 payment matches.');
    }
    const byRrn = await owner.client.get(`/dashboard/payments?env=test&q=${paid.rrn}`);
    expect(listed(byRrn.text)).toEqual([paid.uuid]);
    const combined = await owner.client.get(`/dashboard/payments?env=test&q=ord-007&status=pending`);
    expect(listed(combined.text)).toEqual([]);
  });

  it('finds payments by the beginning of an order id, a uuid or an email, in any case; % and _ are characters', async () => {
    const newestFirst = (indexes: number[]) => indexes.map((i) => (made[i] as ApiPayment).uuid).reverse();
    for (const q of ['ord-00', 'ORD-00']) {
      const page = await owner.client.get(`/dashboard/payments?env=test&q=${q}`);
      expect(listed(page.text), q).toEqual(newestFirst([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]));
      expect(page.text).toContain('10 payments match.');
    }
    const byEmail = await owner.client.get('/dashboard/payments?env=test&q=Buyer.1');
    expect(listed(byEmail.text)).toEqual(newestFirst([10, 12, 14, 16, 18]));
    const target = made[21] as ApiPayment;
    const byUuid = await owner.client.get(`/dashboard/payments?env=test&q=${target.uuid.slice(0, 30).toUpperCase()}`);
    expect(listed(byUuid.text)).toEqual([target.uuid]);
    // A LIKE pattern would read these as wildcards and match every `ord-0…`.
    for (const q of ['ord_00', 'ord-0%', '%', '_']) {
      const page = await owner.client.get(`/dashboard/payments?env=test&q=${encodeURIComponent(q)}`);
      expect(listed(page.text), q).toEqual([]);
      expect(page.text).toContain('0 payments match.');
    }
    // The export holds what the search shows.
    const csv = await owner.client.get('/dashboard/payments/export.csv?env=test&q=ord-00');
    expect(
      parseCsv(csv.text)
        .slice(1)
        .map((r) => r[0]),
    ).toEqual(newestFirst([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]));
  });

  it('never lists another account’s payments, by list or search', async () => {
    const other = await signedInOwner(g);
    const page = await other.client.get('/dashboard/payments?env=test');
    expect(listed(page.text)).toEqual([]);
    const searched = await other.client.get(`/dashboard/payments?env=test&q=${(made[1] as ApiPayment).uuid}`);
    expect(listed(searched.text)).toEqual([]);
    const csv = await other.client.get('/dashboard/payments/export.csv?env=test');
    expect(parseCsv(csv.text)).toEqual([[...CSV_COLUMNS]]);
  });

  it('switches between test and live payments; live is shown first once the account has some', async () => {
    const host = uniqueHost('live');
    const deps = g.t.gateway.deps;
    await verifyBusiness(deps, owner.merchantId);
    await addDomain(deps, { merchantId: owner.merchantId, host, verified: true });
    await setProcessorEnabled(deps, { merchantId: owner.merchantId, host, processor: 'sandbox', enabled: true });
    await enableLiveProcessor(deps, owner.merchantId, host);
    const liveKey = await g.t.key(owner.merchantId, 'live');
    const live = await create(liveKey, { order_id: 'live-1', return_url: `https://${host}/done` });
    const defaulted = await owner.client.get('/dashboard/payments');
    expect(listed(defaulted.text)).toEqual([live.uuid]);
    expect(defaulted.text).toContain('aria-current="page">Live</a>');
    const testPage = await owner.client.get('/dashboard/payments?env=test&q=live-1');
    expect(listed(testPage.text)).toEqual([]);
    const liveSearch = await owner.client.get(`/dashboard/payments?env=live&q=${live.uuid}`);
    expect(listed(liveSearch.text)).toEqual([live.uuid]);

    // A live key's `processor: sandbox` payment is a test payment: listed with the test ones only.
    const sandbox = await create(liveKey, {
      order_id: 'live-key-sandbox',
      return_url: `https://${host}/done`,
      processor: 'sandbox',
    });
    expect(listed((await owner.client.get('/dashboard/payments?env=live&q=live-key-sandbox')).text)).toEqual([]);
    expect(listed((await owner.client.get('/dashboard/payments?env=test&q=live-key-sandbox')).text)).toEqual([
      sandbox.uuid,
    ]);
    const liveCsv = parseCsv((await owner.client.get('/dashboard/payments/export.csv?env=live')).text);
    expect(liveCsv.map((r) => r[0])).not.toContain(sandbox.uuid);
  });

  it('exports the CSV the API lists for the same filters, streamed, with escaping; viewers may export', async () => {
    const viewer = await signedInMember(g, owner.merchantId, 'viewer');
    for (const query of ['', '&status=pending', '&order_id=ord-003', `&processor=sandbox`]) {
      const csv = await viewer.get(`/dashboard/payments/export.csv?env=test${query}`);
      expect(csv.status, csv.text).toBe(200);
      expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="payments-test\.csv"$/);
      const records = parseCsv(csv.text);
      expect(records[0]).toEqual([...CSV_COLUMNS]);
      expect(csv.headers.get('x-row-count')).toBe(String(records.length - 1));
      const api = await g.t.call<{ data: Array<Record<string, unknown>> }>(
        'GET',
        `/api/v1/payments?per_page=100${query}`,
        { key: testKey },
      );
      expect(api.status).toBe(200);
      const rows = records.slice(1).map((r) => Object.fromEntries(CSV_COLUMNS.map((c, i) => [c, r[i]])));
      expect(rows.map((r) => r.uuid)).toEqual(api.body.data.map((p) => p.uuid));
      for (const [i, p] of api.body.data.entries()) {
        const row = rows[i] as Record<string, string>;
        for (const column of [
          'order_id',
          'status',
          'amount',
          'currency',
          'refunded_amount',
          'processor',
          'rrn',
          'customer_id',
          'description',
          'failure_code',
          'livemode',
          'created_at',
          'completed_at',
          'refunded_at',
          'capture_method',
          'authorized_amount',
          'capture_before',
        ]) {
          const value = p[column];
          expect(row[column], `${column} of ${String(p.uuid)}`).toBe(
            value === null
              ? ''
              : csvCell(value as string | number | boolean)
                  .replace(/^"|"$/g, '')
                  .replaceAll('""', '"'),
          );
        }
      }
    }
    const all = parseCsv((await owner.client.get('/dashboard/payments/export.csv?env=test')).text);
    const byOrder = new Map(all.slice(1).map((r) => [r[1], r]));
    expect(byOrder.get('ord-003')?.[12]).toBe('He said "hi", then left');
    expect(byOrder.get('ord-004')?.[12]).toBe("'=SUM(A1:A2)");
    expect(byOrder.get('ord-006')?.[11]).toBe('Buyer.6@Example.am');
    const dated = await owner.client.get(`/dashboard/payments/export.csv?env=test&from=2000-01-01&to=2000-01-02`);
    expect(dated.headers.get('content-disposition')).toBe(
      'attachment; filename="payments-test-2000-01-01-to-2000-01-02.csv"',
    );
    expect(parseCsv(dated.text)).toHaveLength(1);
    expect((await owner.client.get('/dashboard/payments/export.csv?env=test&from=yesterday')).status).toBe(422);
    const audited = await auditRows(g, owner.merchantId, 'payments.exported');
    expect(audited.length).toBeGreaterThanOrEqual(6);
    expect(audited.at(-1)?.subject).toBe('test 2000-01-01..2000-01-02, 0');
  });

  it('filters uncaptured payments (authorized only) and shows each hold’s deadline, in the list and the CSV', async () => {
    const held = [await heldPayment(g, testKey)];
    g.t.clock.advance(1000);
    held.push(await heldPayment(g, testKey));
    const all = await owner.client.get('/dashboard/payments?env=test');
    expect(all.text).toContain(
      '<a href="/dashboard/payments?env=test&amp;status=authorized" aria-describedby="pay-uncaptured-hint">Uncaptured</a>',
    );
    const uncaptured = await owner.client.get('/dashboard/payments?env=test&status=authorized');
    expect(uncaptured.status).toBe(200);
    expect(listed(uncaptured.text)).toEqual([held[1]?.uuid, held[0]?.uuid]);
    expect(uncaptured.text).toContain('aria-current="true">Uncaptured</a>');
    expect(uncaptured.text).toContain('<option value="authorized" selected>Authorized</option>');
    expect(uncaptured.text).toContain('2 payments match.');
    for (const payment of held) {
      const row = uncaptured.text.slice(uncaptured.text.indexOf(`<tr data-uuid="${payment.uuid}"`));
      expect(row.slice(0, row.indexOf('</tr>'))).toContain(
        `Capture by <time datetime="${toStoredInstant(Date.parse(payment.capture_before))}">${formatDateTime('en', payment.capture_before)}</time>`,
      );
    }
    // Only authorized payments carry a deadline in the list.
    const completed = await owner.client.get('/dashboard/payments?env=test&status=completed');
    expect(listed(completed.text)).toContain(paid.uuid);
    expect(completed.text).not.toContain('Capture by');
    const ru = await owner.client.get('/dashboard/payments?env=test&status=authorized&lang=ru');
    expect(ru.text).toContain('aria-current="true">Ожидает списания</a>');
    expect(ru.text).toContain('Списать до <time');
    await owner.client.get('/dashboard/payments?env=test&lang=en');

    const csv = parseCsv((await owner.client.get('/dashboard/payments/export.csv?env=test&status=authorized')).text);
    const column = (name: string) => CSV_COLUMNS.indexOf(name as (typeof CSV_COLUMNS)[number]);
    expect(
      csv
        .slice(1)
        .map((r) => [r[0], r[column('capture_method')], r[column('authorized_amount')], r[column('capture_before')]]),
    ).toEqual([held[1], held[0]].map((p) => [p?.uuid, 'manual', '10000', p?.capture_before]));
  });

  it('escapes CSV cells: quotes, commas, line breaks and formulas', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "x"')).toBe('"say ""x"""');
    expect(csvCell('two\r\nlines')).toBe('"two\r\nlines"');
    for (const start of ['=', '+', '-', '@']) expect(csvCell(`${start}1+1`)).toBe(`'${start}1+1`);
    expect(csvCell('=1,2')).toBe(`"'=1,2"`);
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(null)).toBe('');
    expect(csvCell(true)).toBe('true');
  });
});
