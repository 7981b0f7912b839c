/**
 * A held payment's page over HTTP, on both databases: the hold (its amount and deadline, Yerevan
 * time in the page's language with the zone named); a capture of the whole hold and of part of
 * it, and a release, each after its confirmation and through the API's hold service, seen on the
 * page, in the API and in the audit log; a double submit of a confirmation captures once; an
 * amount over the hold is refused at the top of the page with its field linked, before and after
 * the confirmation; viewers see the hold without the forms and are refused every POST, admins get
 * the forms; another account's payment is a 404.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatDateTimeWithZone } from '../../gateway/i18n/format.js';
import { formToken } from '../checkout/support.js';
import { DIALECTS } from '../support/databases.js';
import type { TestMerchant } from '../support/gateway.js';
import { confirmationFields, heldPayment, holdOperations, type Json, testIdText } from './holds-support.js';
import {
  auditRows,
  type DashboardClient,
  type DashboardGateway,
  locationPath,
  signedInMember,
  signedInOwner,
  startDashboardGateway,
} from './support.js';

describe.each(DIALECTS)('a held payment in the dashboard (%s)', (dialect) => {
  let g: DashboardGateway;
  let m: TestMerchant;
  let owner: DashboardClient;

  beforeAll(async () => {
    g = await startDashboardGateway(dialect, { env: { GATEWAY_CLOCK: 'manual' } });
    m = await g.t.merchant({ name: 'Ararat Rentals' });
  });
  beforeEach(async () => {
    owner = await signedInMember(g, m.merchantId, 'owner');
  });
  afterAll(async () => g?.close());

  const read = async (uuid: string): Promise<Json> =>
    (await g.t.call<Json>('GET', `/api/v1/payments/${uuid}`, { key: m.testKey })).body;

  /** Asks for a capture of `amount` from the page, answers the confirmation page. */
  async function askCapture(path: string, amount: string) {
    const confirm = await owner.submit(path, `${path}/capture`, { amount });
    expect(confirm.status, confirm.text).toBe(200);
    return confirm;
  }

  it('shows the hold, captures all of it after a confirmation, and shows it captured', async () => {
    const held = await heldPayment(g, m.testKey);
    const path = `/dashboard/payments/${held.uuid}`;
    const page = await owner.get(path);
    expect(page.status, page.text).toBe(200);
    expect(testIdText(page.text, 'payment-status')).toBe('Authorized');
    expect(testIdText(page.text, 'hold-amount')).toBe('AMD\u00a010,000');
    expect(testIdText(page.text, 'hold-deadline')).toBe(formatDateTimeWithZone('en', held.capture_before));
    expect(page.text).toContain(`<time datetime="${held.capture_before}">`);
    expect(page.text).toMatch(/id="f-capture-amount" name="amount" type="text"[^>]*value="10000"/);
    expect(page.text).toContain(`action="/dashboard/payments/${held.uuid}/void"`);
    // Nothing is refundable while the card only holds the amount.
    expect(page.text).toContain('This payment cannot be refunded now.');

    const confirm = await askCapture(path, '10000');
    expect(testIdText(confirm.text, 'capture-question')).toBe(
      `Capture AMD\u00a010,000 from the buyer’s card for order ${held.order_id}?`,
    );
    expect(confirm.text).not.toContain('data-testid="capture-rest"');
    expect(await holdOperations(g, held.uuid)).toEqual([]);

    const done = await owner.post(`${path}/capture`, confirmationFields(confirm.text, 'capture_key'));
    expect(done.status, done.text).toBe(303);
    expect(locationPath(done)).toBe(`${path}?notice=captured`);
    expect(await read(held.uuid)).toMatchObject({ status: 'completed', amount: 10_000, authorized_amount: 10_000 });
    expect(await holdOperations(g, held.uuid)).toEqual([['capture', 10_000, 'succeeded']]);

    const after = await owner.get(`${path}?notice=captured`);
    expect(after.text).toContain('The capture went through.');
    expect(testIdText(after.text, 'payment-status')).toBe('Completed');
    expect(testIdText(after.text, 'hold-state')).toBe('Captured AMD\u00a010,000, of the AMD\u00a010,000 held.');
    expect(after.text).not.toContain('data-testid="hold-deadline"');
    expect(after.text).not.toContain('/capture"');
    expect(after.text).toMatch(/name="amount" type="text"[^>]*value="10000"/); // the refund form now
    const audit = await auditRows(g, m.merchantId, 'payment.captured');
    expect(audit.at(-1)?.subject).toBe(`AMD\u00a010,000 of payment ${held.uuid} (held AMD\u00a010,000)`);
  });

  it('captures part of the hold: the rest is released, and only what was captured can be refunded', async () => {
    const held = await heldPayment(g, m.testKey);
    const path = `/dashboard/payments/${held.uuid}`;
    const confirm = await askCapture(path, '7 000');
    expect(testIdText(confirm.text, 'capture-question')).toBe(
      `Capture AMD\u00a07,000 from the buyer’s card for order ${held.order_id}?`,
    );
    expect(testIdText(confirm.text, 'capture-rest')).toBe(
      'The rest of the hold, AMD\u00a03,000, is released: it cannot be captured later.',
    );
    const done = await owner.post(`${path}/capture`, confirmationFields(confirm.text, 'capture_key'));
    expect(done.status, done.text).toBe(303);
    expect(await read(held.uuid)).toMatchObject({ status: 'completed', amount: 7_000, authorized_amount: 10_000 });
    const after = await owner.get(path);
    expect(testIdText(after.text, 'hold-state')).toBe(
      'Captured AMD\u00a07,000, of the AMD\u00a010,000 held. The rest of the hold was released.',
    );
    expect(after.text).toMatch(/name="amount" type="text"[^>]*value="7000"/);
  });

  it('releases the hold after a confirmation: nothing taken, the payment expired (voided)', async () => {
    const held = await heldPayment(g, m.testKey);
    const path = `/dashboard/payments/${held.uuid}`;
    const before = (await auditRows(g, m.merchantId, 'payment.released')).length;
    const confirm = await owner.submit(path, `${path}/void`, {});
    expect(confirm.status, confirm.text).toBe(200);
    expect(testIdText(confirm.text, 'release-question')).toBe(
      `Release the AMD\u00a010,000 held for order ${held.order_id}? Nothing is taken, and the payment can no longer be captured.`,
    );
    expect(await holdOperations(g, held.uuid)).toEqual([]);
    const done = await owner.post(`${path}/void`, confirmationFields(confirm.text, 'release_key'));
    expect(done.status, done.text).toBe(303);
    expect(locationPath(done)).toBe(`${path}?notice=released`);
    expect(await read(held.uuid)).toMatchObject({ status: 'expired', failure_code: 'voided' });
    expect(await holdOperations(g, held.uuid)).toEqual([['release', 10_000, 'succeeded']]);
    const after = await owner.get(`${path}?notice=released`);
    expect(after.text).toContain('The hold was released: nothing was taken.');
    expect(testIdText(after.text, 'hold-state')).toBe(
      'Released: nothing was taken, and the buyer’s bank frees the held amount.',
    );
    expect(after.text).not.toContain('/void"');
    const audit = await auditRows(g, m.merchantId, 'payment.released');
    expect(audit).toHaveLength(before + 1);
    expect(audit.at(-1)?.subject).toBe(`payment ${held.uuid} (AMD\u00a010,000 released)`);
  });

  it('captures once on a double submit of the confirmation, and a resent one answers the same capture', async () => {
    const held = await heldPayment(g, m.testKey);
    const path = `/dashboard/payments/${held.uuid}`;
    const before = (await auditRows(g, m.merchantId, 'payment.captured')).length;
    const fields = confirmationFields((await askCapture(path, '6000')).text, 'capture_key');
    const both = await Promise.all([owner.post(`${path}/capture`, fields), owner.post(`${path}/capture`, fields)]);
    for (const answer of both) expect([303, 409], answer.text).toContain(answer.status);
    expect(both.some((answer) => answer.status === 303)).toBe(true);
    const again = await owner.post(`${path}/capture`, fields);
    expect(again.status, again.text).toBe(303);
    expect(locationPath(again)).toBe(`${path}?notice=captured`);
    expect(await holdOperations(g, held.uuid)).toEqual([['capture', 6_000, 'succeeded']]);
    expect(await read(held.uuid)).toMatchObject({ status: 'completed', amount: 6_000 });
    expect(await auditRows(g, m.merchantId, 'payment.captured')).toHaveLength(before + 1);
    // A confirmation with a key of its own is a new capture: refused, the hold was captured once.
    const stale = await owner.post(`${path}/capture`, { ...fields, capture_key: 'n'.repeat(24) });
    expect(stale.status).toBe(409);
    expect(testIdText(stale.text, 'hold-problems')).toContain(
      'This payment is already captured: a hold is captured once. Refund it instead.',
    );
    expect(await holdOperations(g, held.uuid)).toHaveLength(1);
  });

  it('refuses an amount over the hold at the top of the page, the field linked, before and after the confirmation', async () => {
    const held = await heldPayment(g, m.testKey);
    const path = `/dashboard/payments/${held.uuid}`;
    const tooMuch = await owner.submit(path, `${path}/capture`, { amount: '10001' });
    expect(tooMuch.status).toBe(422);
    const problems = testIdText(tooMuch.text, 'hold-problems');
    expect(problems).toContain('The capture was not made');
    expect(problems).toContain('That is more than the AMD\u00a010,000 held on the card.');
    expect(tooMuch.text).toContain(
      '<a href="#f-capture-amount">That is more than the AMD\u00a010,000 held on the card.</a>',
    );
    expect(tooMuch.text).toMatch(/id="f-capture-amount"[^>]*value="10001"[^>]*aria-invalid="true"/);
    for (const amount of ['abc', '0', '12.5', '']) {
      const bad = await owner.submit(path, `${path}/capture`, { amount });
      expect(bad.status, amount).toBe(422);
      expect(testIdText(bad.text, 'hold-problems')).toContain('Enter a whole number of AMD, at least 1.');
    }
    // Past the confirmation too: the service's own check.
    const page = await owner.get(path);
    const forged = await owner.post(`${path}/capture`, {
      form_token: formToken(page.text),
      confirm: 'yes',
      amount: '10001',
      capture_key: 'f'.repeat(24),
    });
    expect(forged.status).toBe(422);
    expect(testIdText(forged.text, 'hold-problems')).toContain(
      'That is more than the AMD\u00a010,000 held on the card.',
    );
    expect(await holdOperations(g, held.uuid)).toEqual([]);
    expect((await read(held.uuid)).status).toBe('authorized');
  });

  it('shows a viewer the hold without the forms and refuses their POSTs; an admin gets the forms', async () => {
    const held = await heldPayment(g, m.testKey);
    const path = `/dashboard/payments/${held.uuid}`;
    const viewer = await signedInMember(g, m.merchantId, 'viewer');
    const page = await viewer.get(path);
    expect(page.status).toBe(200);
    expect(testIdText(page.text, 'hold-amount')).toBe('AMD\u00a010,000');
    expect(testIdText(page.text, 'hold-deadline')).toBe(formatDateTimeWithZone('en', held.capture_before));
    expect(page.text).not.toContain('/capture"');
    expect(page.text).not.toContain('/void"');
    const token = formToken(page.text);
    for (const [action, fields] of [
      ['capture', { amount: '100' }],
      ['capture', { amount: '100', confirm: 'yes', capture_key: 'v'.repeat(24) }],
      ['void', {}],
      ['void', { confirm: 'yes', release_key: 'v'.repeat(24) }],
    ] as const) {
      const refused = await viewer.post(`${path}/${action}`, { form_token: token, ...fields });
      expect(refused.status, `${action} ${JSON.stringify(fields)}`).toBe(403);
    }
    expect(await holdOperations(g, held.uuid)).toEqual([]);
    expect((await read(held.uuid)).status).toBe('authorized');

    const admin = await signedInMember(g, m.merchantId, 'admin');
    const adminPage = await admin.get(path);
    expect(adminPage.text).toContain(`action="/dashboard/payments/${held.uuid}/capture"`);
    expect(adminPage.text).toContain(`action="/dashboard/payments/${held.uuid}/void"`);
  });

  it("answers 404 for another account's held payment, and captures nothing", async () => {
    const held = await heldPayment(g, m.testKey);
    const other = await signedInOwner(g);
    const page = await other.client.get(`/dashboard/payments/${held.uuid}`);
    expect(page.status).toBe(404);
    const token = formToken((await other.client.get('/dashboard')).text);
    for (const [action, fields] of [
      ['capture', { amount: '100', confirm: 'yes', capture_key: 'o'.repeat(24) }],
      ['void', { confirm: 'yes', release_key: 'o'.repeat(24) }],
    ] as const) {
      expect(
        (await other.client.post(`/dashboard/payments/${held.uuid}/${action}`, { form_token: token, ...fields }))
          .status,
      ).toBe(404);
    }
    expect(await holdOperations(g, held.uuid)).toEqual([]);
  });
});
