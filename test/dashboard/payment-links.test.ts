/**
 * The payment links pages over HTTP, on both databases: create (fixed and ranged; 422 with the
 * field named), the detail with the address, copy button, QR code (PNG and SVG), payments shown
 * once paid, deactivate; live only after business verification; viewers read-only (403 on every
 * POST); another account's link 404; the audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDateTimeWithZone } from '../../gateway/i18n/format.js';
import type { Deps } from '../../gateway/runtime/deps.js';
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

const FIXED = {
  environment: 'test',
  amount_kind: 'fixed',
  amount: '3500',
  description: 'Guitar lesson',
  reusable: 'no',
};

describe.each(DIALECTS)('dashboard payment links (%s)', (dialect) => {
  let g: DashboardGateway;
  let deps: Deps;
  let owner: DashboardClient;
  let merchantId: string;

  beforeAll(async () => {
    g = await startDashboardGateway(dialect);
    deps = g.t.gateway.deps;
    const signedIn = await signedInOwner(g);
    owner = signedIn.client;
    merchantId = signedIn.merchantId;
  });
  afterAll(async () => {
    await g?.close();
  });

  const create = (client: DashboardClient, fields: Record<string, string>) =>
    client.submit('/dashboard/payment-links', '/dashboard/payment-links', fields);

  async function created(fields: Record<string, string> = FIXED): Promise<string> {
    const answer = await create(owner, fields);
    expect(answer.status, answer.text).toBe(303);
    const path = locationPath(answer);
    expect(path).toMatch(/^\/dashboard\/payment-links\/plink_[A-Za-z0-9_-]+\?notice=created$/);
    return path.split('/')[3]?.split('?')[0] as string;
  }

  it('lists no links at first, with the create form', async () => {
    const page = await owner.get('/dashboard/payment-links');
    expect(page.status).toBe(200);
    expect(page.text).toContain('No payment links yet.');
    expect(page.text).toContain('action="/dashboard/payment-links"');
    expect(page.text).toContain('href="/dashboard/payment-links" aria-current="page"');
  });

  it('creates a fixed link and shows its address, copy button and QR code; payments show once paid', async () => {
    const id = await created();
    const page = await owner.get(`/dashboard/payment-links/${id}?notice=created`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('The payment link was created.');
    expect(page.text).toContain(`http://gateway.test/l/${id}`);
    expect(page.text).toContain('data-copy="link-url"');
    expect(page.text).toMatch(/<img class="plinks-qr" src="data:image\/png;base64,/);
    expect(page.text).toContain('AMD\u00a03,500');
    expect(page.text).toContain('Guitar lesson');
    expect(page.text).toContain('No payment yet.');
    const png = await owner.get(`/dashboard/payment-links/${id}/qr.png`);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    const svg = await owner.get(`/dashboard/payment-links/${id}/qr.svg`);
    expect(svg.headers.get('content-type')).toContain('image/svg+xml');
    expect(svg.text).toContain('<svg');
    const list = await owner.get('/dashboard/payment-links');
    expect(list.text).toContain(`data-link-id="${id}"`);
    expect(list.text).toContain('0 paid of 0');
    expect(await auditRows(g, merchantId, 'payment_link.created')).toEqual(
      expect.arrayContaining([expect.objectContaining({ subject: id })]),
    );

    // The buyer pays it (the page, then the sandbox test helper): the link shows the payment, paid.
    const buyerPage = await fetch(`${g.t.url}/l/${id}`);
    const token = /name="form_token" value="([^"]+)"/.exec(await buyerPage.text())?.[1] ?? '';
    const opened = await fetch(`${g.t.url}/l/${id}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ form_token: token }).toString(),
      redirect: 'manual',
    });
    expect(opened.status).toBe(303);
    const payment = await deps.db
      .selectFrom('payments')
      .select('id')
      .where('order_id', '=', id)
      .executeTakeFirstOrThrow();
    const key = await g.t.key(merchantId, 'test');
    const paid = await g.t.call('POST', `/api/v1/test_helpers/payments/${payment.id}/pay`, {
      key,
      body: { card_number: '4111111111111111' },
    });
    expect(paid.status).toBe(200);
    const after = await owner.get(`/dashboard/payment-links/${id}`);
    expect(after.text).toContain(`data-payment-id="${payment.id}"`);
    expect(after.text).toContain('data-status="completed"');
    expect(after.text).toContain('1 paid of 1');
  });

  it('creates a ranged reusable link with an expiry', async () => {
    const id = await created({
      environment: 'test',
      amount_kind: 'range',
      amount_min: '1000',
      amount_max: '9000',
      description: '',
      reusable: 'yes',
      expires_at: '2030-01-31 18:00',
    });
    const page = await owner.get(`/dashboard/payment-links/${id}`);
    expect(page.text).toContain('AMD\u00a01,000 to AMD\u00a09,000');
    expect(page.text).toContain('Reusable');
    // Typed in Yerevan time (UTC+4), shown in Yerevan time with the zone named.
    expect(page.text).toContain(formatDateTimeWithZone('en', '2030-01-31T14:00:00Z'));
    expect(page.text).toContain('GMT+4');
  });

  it('refuses bad input with 422 naming the field', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ ...FIXED, amount: '' }, 'f-amount-error'],
      [{ ...FIXED, amount: '12.5' }, 'f-amount-error'],
      [{ ...FIXED, amount: '0' }, 'f-amount-error'],
      [{ ...FIXED, amount_kind: 'range', amount_min: '500', amount_max: '100' }, 'f-amount_min-error'],
      [{ ...FIXED, amount_kind: 'range', amount_min: 'x', amount_max: '100' }, 'f-amount_min-error'],
      [{ ...FIXED, expires_at: 'next week' }, 'f-expires_at-error'],
      [{ ...FIXED, expires_at: '2020-01-01 10:00' }, 'f-expires_at-error'],
      [{ ...FIXED, description: 'x'.repeat(501) }, 'f-description-error'],
      [{ ...FIXED, environment: 'staging' }, 'environment-error'],
      [{ ...FIXED, environment: 'live' }, 'environment-error'],
    ];
    for (const [fields, errorId] of cases) {
      const page = await create(owner, fields);
      expect(page.status, JSON.stringify(fields)).toBe(422);
      expect(page.text, JSON.stringify(fields)).toContain(`id="${errorId}"`);
    }
  });

  it('deactivates a link; the buyer is then refused; again says it already was', async () => {
    const id = await created();
    const page = await owner.get(`/dashboard/payment-links/${id}`);
    const off = await owner.post(`/dashboard/payment-links/${id}/deactivate`, { form_token: formToken(page.text) });
    expect(off.status).toBe(303);
    expect(locationPath(off)).toBe(`/dashboard/payment-links/${id}?notice=deactivated`);
    const after = await owner.get(`/dashboard/payment-links/${id}`);
    expect(after.text).toContain('data-status="inactive"');
    expect(after.text).not.toContain(`action="/dashboard/payment-links/${id}/deactivate"`);
    expect((await fetch(`${g.t.url}/l/${id}`)).status).toBe(410);
    const again = await owner.post(`/dashboard/payment-links/${id}/deactivate`, { form_token: formToken(page.text) });
    expect(locationPath(again)).toBe(`/dashboard/payment-links/${id}?notice=already-inactive`);
    expect(await auditRows(g, merchantId, 'payment_link.deactivated')).toHaveLength(1);
  });

  it('shows viewers the pages without forms, and refuses their POSTs with 403', async () => {
    const id = await created();
    const viewer = await signedInMember(g, merchantId, 'viewer');
    const list = await viewer.get('/dashboard/payment-links');
    expect(list.status).toBe(200);
    expect(list.text).toContain('only the owner and admins can create or deactivate them');
    expect(list.text).not.toContain('action="/dashboard/payment-links"');
    const detail = await viewer.get(`/dashboard/payment-links/${id}`);
    expect(detail.status).toBe(200);
    expect(detail.text).not.toContain('/deactivate');
    const token = formToken(list.text);
    expect((await viewer.post('/dashboard/payment-links', { form_token: token, ...FIXED })).status).toBe(403);
    expect((await viewer.post(`/dashboard/payment-links/${id}/deactivate`, { form_token: token })).status).toBe(403);
    const row = await deps.db
      .selectFrom('payment_links')
      .select('deactivated_at')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.deactivated_at).toBeNull();
  });

  it("answers 404 for another account's link, and leaves it alone", async () => {
    const id = await created();
    const other = await signedInOwner(g);
    expect((await other.client.get(`/dashboard/payment-links/${id}`)).status).toBe(404);
    expect((await other.client.get(`/dashboard/payment-links/${id}/qr.png`)).status).toBe(404);
    const page = await other.client.get('/dashboard/payment-links');
    const off = await other.client.post(`/dashboard/payment-links/${id}/deactivate`, {
      form_token: formToken(page.text),
    });
    expect(off.status).toBe(404);
    expect((await owner.get('/dashboard/payment-links/plink_nothing')).status).toBe(404);
    const row = await deps.db
      .selectFrom('payment_links')
      .select('deactivated_at')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.deactivated_at).toBeNull();
  });
});
