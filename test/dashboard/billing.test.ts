/**
 * The billing pages over HTTP, on both databases: balances as the API reads them, the ledger paged
 * with the API's cursor and exported as CSV (the same rows), buying units (a preset quantity: 303 to
 * the card payment link; another: the bank transfer's purchase page with its reference, amount,
 * bank details and instructions; a bad quantity: 422 naming the field), auto top-up saved through the
 * API's service and read back through the API, viewers (read-only, 403 on every POST), another
 * account's purchase (404), and the audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditBankTransfer } from '../../gateway/billing/purchases.service.js';
import { csvCell } from '../../gateway/dashboard/billing/ledger-csv.js';
import { toStoredInstant } from '../../gateway/domain/clock.js';
import { createApiKey, verifyBusiness } from '../../gateway/merchants/merchant.service.js';
import { newReceiptRow } from '../../gateway/receipts/receipts.service.js';
import type { Deps } from '../../gateway/runtime/deps.js';
import { findPurchase, markPurchasePaid } from '../../storage/billing-purchase.repository.js';
import { insertReceiptOnce } from '../../storage/receipt.repository.js';
import { formToken } from '../checkout/support.js';
import { DIALECTS } from '../support/databases.js';
import {
  auditRows,
  type DashboardClient,
  type DashboardGateway,
  locationPath,
  signedInMember,
  signedInOwner,
  startDashboardGateway,
} from './support.js';

const BANK = 'Ararat Bank CJSC | Account 1570-0123-4567-8900 | Payee: Payment Gateway LLC';

/** The purchase id in a purchase page's path. */
function purchaseIdOf(path: string): string {
  const match = /^\/dashboard\/billing\/purchases\/([0-9a-f-]{36})/.exec(path);
  if (match === null) throw new Error(`not a purchase page: ${path}`);
  return match[1] as string;
}

function referenceIn(html: string): string {
  const match = /id="transfer-reference">(GW-[A-Z0-9]{4}-[A-Z0-9]{4})</.exec(html);
  if (match === null) throw new Error('no reference shown');
  return match[1] as string;
}

/** CSV lines as cells (the export holds no quoted line breaks in these tests). */
function csvRows(text: string): string[][] {
  return text
    .split('\r\n')
    .filter((line) => line !== '')
    .map((line) => line.split(','));
}

describe('ledger CSV cells', () => {
  it('quotes and guards text, keeps numbers', () => {
    expect(csvCell(-1)).toBe('-1');
    expect(csvCell(null)).toBe('');
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
  });
});

describe.each(DIALECTS)('dashboard billing (%s)', (dialect) => {
  let g: DashboardGateway;
  let deps: Deps;
  let owner: DashboardClient;
  let merchantId: string;
  let key: string;

  beforeAll(async () => {
    g = await startDashboardGateway(dialect, { env: { GATEWAY_BANK_TRANSFER_DETAILS: BANK } });
    deps = g.t.gateway.deps;
    const signedIn = await signedInOwner(g);
    owner = signedIn.client;
    merchantId = signedIn.merchantId;
    await verifyBusiness(deps, merchantId);
    key = (await createApiKey(deps, { merchantId, environment: 'test', access: 'full' })).key;
  });
  afterAll(async () => {
    await g?.close();
  });

  const api = <T = Record<string, unknown>>(path: string) => g.t.call<T>('GET', path, { key });

  const buy = (client: DashboardClient, fields: Record<string, string>) =>
    client.submit('/dashboard/billing/buy', '/dashboard/billing/buy', fields);

  it('shows the balances the API reads, with the grace floor and the state in words', async () => {
    const balances = await api<Array<Record<string, unknown>>>('/api/v1/billing/balances');
    const page = await owner.get('/dashboard/billing');
    expect(page.status).toBe(200);
    expect(page.text).toContain('aria-current="page"');
    for (const balance of balances.body) {
      const card = new RegExp(
        `data-counter="${balance.counter}" data-blocked="${balance.blocked}">[\\s\\S]*?class="bill-available">${balance.available}</dd>[\\s\\S]*?<dd>${balance.grace_floor}</dd>`,
      );
      expect(page.text).toMatch(card);
    }
    expect(page.text).toContain('Active');
    expect(page.text).toContain('href="/dashboard/billing/buy?counter=transactions"');

    // A blocked balance says so in words.
    await deps.db
      .updateTable('billing_balances')
      .set({ available: -20 })
      .where('merchant_id', '=', merchantId)
      .where('counter', '=', 'transactions')
      .execute();
    const blocked = await owner.get('/dashboard/billing');
    expect(blocked.text).toContain('Blocked: the grace floor is reached, new live payments are refused');
    const read = await api<Array<Record<string, unknown>>>('/api/v1/billing/balances');
    expect(read.body[0]).toMatchObject({ counter: 'transactions', available: -20, blocked: 'yes' });
    await deps.db
      .updateTable('billing_balances')
      .set({ available: 50 })
      .where('merchant_id', '=', merchantId)
      .where('counter', '=', 'transactions')
      .execute();
  });

  it('buys a preset quantity: 303 to the card payment link of the purchase', async () => {
    const page = await buy(owner, { counter: 'transactions', quantity: '500' });
    expect(page.status, page.text).toBe(303);
    const path = locationPath(page);
    expect(path).toMatch(/^\/billing\/purchases\/[0-9a-f-]{36}\/pay\?t=/);
    const id = path.split('/')[3] as string;
    const read = await api(`/api/v1/billing/purchases/${id}`);
    expect(read.body).toMatchObject({ method: 'card', status: 'pending', quantity: 500, counter: 'transactions' });
    expect(page.location).toBe(read.body.checkout_url);
    const [audit] = await auditRows(g, merchantId, 'billing.purchase_created');
    expect(audit?.subject).toBe('500 transactions, card');

    // Paid by its house payment, which the house account's register gave a receipt: the purchase
    // links to that receipt's public page.
    const stored = await findPurchase(deps.db, id);
    const paymentId = stored?.payment_id as string;
    const payment = await deps.db
      .selectFrom('payments')
      .selectAll()
      .where('id', '=', paymentId)
      .executeTakeFirstOrThrow();
    await markPurchasePaid(deps.db, id, { paymentId, now: toStoredInstant(deps.clock.nowMs()) });
    const pending = newReceiptRow(deps, {
      merchant_id: payment.merchant_id,
      environment: 'live',
      domain_id: payment.domain_id,
      type: 'sale',
      issue_key: `sale:${paymentId}`,
      payment_id: paymentId,
      refund_id: null,
      sale_receipt_id: null,
      system: 'sandbox',
      sandbox: 0,
      card_amount: Number(payment.amount),
      cash_amount: 0,
      lines: '[]',
    });
    const list = await owner.get('/dashboard/billing/purchases');
    expect(list.text).toMatch(new RegExp(`data-purchase-id="${id}"[\\s\\S]*?None yet`));
    await insertReceiptOnce(deps.db, { ...pending, status: 'issued' });
    const receiptUrl = `${deps.config.publicUrl}/receipts/${pending.public_token}`;
    expect((await owner.get('/dashboard/billing/purchases')).text).toContain(
      `<a href="${receiptUrl}">Receipt of 500 transactions units</a>`,
    );
    const detail = await owner.get(`/dashboard/billing/purchases/${id}`);
    expect(detail.text).toContain('Paid on');
    expect(detail.text).toContain(`href="${receiptUrl}"`);
  });

  it('buys another quantity by bank transfer, shows how to pay, and credits it once', async () => {
    const page = await buy(owner, { counter: 'receipts', quantity: '250' });
    expect(page.status, page.text).toBe(303);
    const path = locationPath(page);
    const id = purchaseIdOf(path);
    const shown = await owner.get(path);
    expect(shown.status).toBe(200);
    const reference = referenceIn(shown.text);
    const read = await api(`/api/v1/billing/purchases/${id}`);
    expect(read.body).toMatchObject({ method: 'bank_transfer', reference, amount_amd: 2500, status: 'pending' });
    expect(shown.text).toContain('The purchase is created.');
    expect(shown.text).toContain('AMD\u00a02,500');
    expect(shown.text).toContain('Account 1570-0123-4567-8900');
    expect(shown.text).toContain(`Write the reference ${reference}`);

    const list = await owner.get('/dashboard/billing/purchases');
    expect(list.text).toContain(`data-purchase-id="${id}"`);
    expect(list.text).toContain(reference);
    expect(list.text).toContain('Waiting for payment');

    await creditBankTransfer(deps, reference);
    const paid = await owner.get(path);
    expect(paid.text).toContain('Paid on');
    expect(paid.text).not.toContain('id="transfer-reference"');
    const balances = await owner.get('/dashboard/billing');
    expect(balances.text).toMatch(/data-counter="receipts"[^>]*>[\s\S]*?class="bill-available">300</);
    const audits = await auditRows(g, merchantId, 'billing.purchase_created');
    expect(audits.at(-1)?.subject).toBe(`250 receipts, bank transfer ${reference}`);
  });

  it('refuses a bad quantity or counter with 422 naming the field, and a quantity under the minimum', async () => {
    const notNumber = await buy(owner, { counter: 'transactions', quantity: 'ten' });
    expect(notNumber.status).toBe(422);
    expect(notNumber.text).toMatch(/id="f-quantity-error">Enter a whole number of units/);
    expect(notNumber.text).toContain('aria-invalid="true"');
    const small = await buy(owner, { counter: 'transactions', quantity: '7' });
    expect(small.status).toBe(422);
    expect(small.text).toMatch(/id="f-quantity-error">The smallest purchase is 100 units/);
    const counter = await buy(owner, { counter: 'coins', quantity: '300' });
    expect(counter.status).toBe(422);
    expect(counter.text).toMatch(/id="counter-error">Choose transactions or receipts/);
  });

  it('sends the same form twice: one purchase', async () => {
    const form = await owner.get('/dashboard/billing/buy');
    const fields = {
      form_token: formToken(form.text),
      idempotency_key: /name="idempotency_key" value="([^"]+)"/.exec(form.text)?.[1] ?? '',
      counter: 'transactions',
      quantity: '333',
    };
    const first = await owner.post('/dashboard/billing/buy', fields);
    const second = await owner.post('/dashboard/billing/buy', fields);
    expect(first.status).toBe(303);
    expect(second.location).toBe(first.location);
  });

  it('pages the ledger with the API cursor and exports the same rows as CSV', async () => {
    const all = await api<{ data: Array<Record<string, unknown>>; next_cursor: string | null }>(
      '/api/v1/billing/ledger?per_page=100',
    );
    expect(all.body.data.length).toBeGreaterThanOrEqual(3);
    const seen: string[] = [];
    let path: string | null = '/dashboard/billing/ledger?per_page=1';
    while (path !== null) {
      const page = await owner.get(path);
      expect(page.status, page.text).toBe(200);
      seen.push(...[...page.text.matchAll(/data-ledger-id="(\d+)"/g)].map((m) => m[1] as string));
      const next = /<a rel="next" href="([^"]+)"/.exec(page.text)?.[1];
      path = next === undefined ? null : next.replaceAll('&amp;', '&');
    }
    expect(seen).toEqual(all.body.data.map((e) => String(e.id)));

    const csv = await owner.get('/dashboard/billing/ledger.csv');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toContain('attachment');
    const rows = csvRows(csv.text);
    expect(rows[0]).toEqual([
      'id',
      'created_at',
      'counter',
      'event_type',
      'delta',
      'balance_after',
      'ref_type',
      'ref_id',
      'note',
    ]);
    expect(rows.slice(1).map((r) => [r[0], r[2], r[3], r[4], r[5], r[7]])).toEqual(
      all.body.data.map((e) => [
        String(e.id),
        e.counter,
        e.event_type,
        String(e.delta),
        String(e.balance_after),
        e.ref_id ?? '',
      ]),
    );
    const receipts = csvRows((await owner.get('/dashboard/billing/ledger.csv?counter=receipts')).text);
    expect(receipts.slice(1).every((r) => r[2] === 'receipts')).toBe(true);
    const bad = await owner.get('/dashboard/billing/ledger?cursor=AAAA.BBBB');
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('no longer valid');
  });

  it('saves auto top-up through the API service, visible through the API', async () => {
    const page = await owner.submit('/dashboard/billing/auto-topup', '/dashboard/billing/auto-topup/transactions', {
      enabled: 'on',
      threshold_qty: '10',
      refill_qty: '500',
    });
    expect(page.status, page.text).toBe(303);
    expect(locationPath(page)).toBe('/dashboard/billing/auto-topup?notice=saved');
    const row = await deps.db
      .selectFrom('billing_auto_topups')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('counter', '=', 'transactions')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ enabled: 1, threshold_qty: 10, refill_qty: 500 });
    // The API's PUT answers the same settings object (and may change them back).
    const put = await g.t.call('PUT', '/api/v1/billing/auto-topup/transactions', {
      key,
      body: { enabled: true, threshold_qty: 10, refill_qty: 500 },
    });
    expect(put.body).toMatchObject({ counter: 'transactions', enabled: true, threshold_qty: 10, refill_qty: 500 });
    const shown = await owner.get('/dashboard/billing/auto-topup?notice=saved');
    expect(shown.text).toContain('Auto top-up is saved.');
    expect(shown.text).toContain('On: at 10 units or fewer, a purchase of 500 units is prepared');
    const [audit] = await auditRows(g, merchantId, 'billing.auto_topup_changed');
    expect(audit?.subject).toBe('transactions: on, threshold 10, refill 500');

    const small = await owner.submit('/dashboard/billing/auto-topup', '/dashboard/billing/auto-topup/receipts', {
      threshold_qty: '5',
      refill_qty: '50',
    });
    expect(small.status).toBe(422);
    expect(small.text).toMatch(/id="receipts-refill-error">The smallest purchase is 100 units/);
    const bad = await owner.submit('/dashboard/billing/auto-topup', '/dashboard/billing/auto-topup/receipts', {
      threshold_qty: '-1',
      refill_qty: '100',
    });
    expect(bad.status).toBe(422);
    expect(bad.text).toMatch(/id="receipts-threshold-error">Enter a whole number from 0/);
  });

  it('lets a viewer read but not buy or change auto top-up', async () => {
    const viewer = await signedInMember(g, merchantId, 'viewer');
    const pages = [
      '/dashboard/billing',
      '/dashboard/billing/ledger',
      '/dashboard/billing/purchases',
      '/dashboard/billing/auto-topup',
    ];
    for (const path of pages) {
      const page = await viewer.get(path);
      expect(page.status, path).toBe(200);
      expect(page.text, path).not.toMatch(/<form method="post" action="\/dashboard\/billing/);
      expect(page.text, path).not.toContain('/dashboard/billing/buy');
    }
    expect((await viewer.get('/dashboard/billing/ledger.csv')).status).toBe(200);
    expect((await viewer.get('/dashboard/billing/buy')).status).toBe(403);
    const token = formToken((await viewer.get('/dashboard/billing')).text);
    const buyPost = await viewer.post('/dashboard/billing/buy', {
      form_token: token,
      counter: 'transactions',
      quantity: '500',
    });
    expect(buyPost.status).toBe(403);
    const autoPost = await viewer.post('/dashboard/billing/auto-topup/transactions', {
      form_token: token,
      enabled: 'on',
      threshold_qty: '1',
      refill_qty: '100',
    });
    expect(autoPost.status).toBe(403);
  });

  it('speaks Armenian and Russian', async () => {
    const hy = await owner.get('/dashboard/billing?lang=hy');
    expect(hy.text).toContain('<h1>Հաշվարկներ</h1>');
    expect(hy.text).toContain('Հասանելի միավորներ');
    const ru = await owner.get('/dashboard/billing/ledger?lang=ru');
    expect(ru.text).toContain('<h1>Журнал</h1>');
    expect(ru.text).toContain('Подарок при регистрации');
    await owner.get('/dashboard/billing?lang=en');
  });

  it('answers 404 for another account’s purchase', async () => {
    const other = await signedInOwner(g);
    await verifyBusiness(deps, other.merchantId);
    const made = await buy(other.client, { counter: 'transactions', quantity: '444' });
    const path = locationPath(made);
    expect((await other.client.get(path)).status).toBe(200);
    expect((await owner.get(path)).status).toBe(404);
    expect((await owner.get('/dashboard/billing/purchases/not-a-uuid')).status).toBe(404);
    const list = await owner.get('/dashboard/billing/purchases');
    expect(list.text).not.toContain(purchaseIdOf(path));
  });

  it('asks for a verified business before buying', async () => {
    const unverified = await signedInOwner(g);
    const page = await buy(unverified.client, { counter: 'transactions', quantity: '500' });
    expect(page.status).toBe(403);
    expect(page.text).toContain('Buying units needs a verified business.');
    expect(page.text).toContain('href="/dashboard/business"');
  });
});
