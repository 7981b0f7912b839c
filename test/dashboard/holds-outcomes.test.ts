/**
 * What a held payment's page says when a capture or release does not simply go through, over HTTP
 * on both databases: a processor that does not answer is "outcome unknown, being checked" (a
 * notice, never a failure; no buttons meanwhile; a status check then shows it captured or
 * released); a declined capture keeps the hold and its forms; a hold that ran out offers nothing
 * and refuses a capture at the top of the page; a payment priced in another currency is captured
 * whole; a payment that holds nothing refuses both; the hold in Armenian and Russian.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../gateway/domain/clock.js';
import { formatAmd } from '../../gateway/i18n/format.js';
import { checkHoldsWork } from '../../gateway/jobs/check-holds.js';
import { setFxRate } from '../../gateway/payments/fx-rates.service.js';
import { formToken } from '../checkout/support.js';
import { DIALECTS } from '../support/databases.js';
import { paymentBody, type TestMerchant } from '../support/gateway.js';
import { confirmationFields, HOLD_CARDS, heldPayment, holdOperations, type Json, testIdText } from './holds-support.js';
import {
  auditRows,
  type DashboardClient,
  type DashboardGateway,
  locationPath,
  signedInMember,
  startDashboardGateway,
} from './support.js';

describe.each(DIALECTS)('the outcomes of a hold in the dashboard (%s)', (dialect) => {
  let g: DashboardGateway;
  let m: TestMerchant;
  let owner: DashboardClient;

  beforeAll(async () => {
    g = await startDashboardGateway(dialect, { env: { GATEWAY_CLOCK: 'manual' } });
    m = await g.t.merchant({ name: 'Ararat Rentals' });
  });
  // The status checks move the manual clock: each test signs in afresh.
  beforeEach(async () => {
    owner = await signedInMember(g, m.merchantId, 'owner');
  });
  afterAll(async () => g?.close());

  const read = async (uuid: string): Promise<Json> =>
    (await g.t.call<Json>('GET', `/api/v1/payments/${uuid}`, { key: m.testKey })).body;

  /** The status check a minute after an operation without an answer. */
  async function checkHolds(): Promise<void> {
    g.t.clock.advance(MINUTE_MS);
    const work = checkHoldsWork(g.t.gateway.deps);
    await work.runBatch();
    await work.settle?.();
    await g.t.gateway.scheduler.runDueNow();
    owner = await signedInMember(g, m.merchantId, 'owner');
  }

  it('says a capture the processor did not answer is being checked, offers nothing meanwhile, then shows it captured', async () => {
    const held = await heldPayment(g, m.testKey, HOLD_CARDS.noAnswer);
    const path = `/dashboard/payments/${held.uuid}`;
    const confirm = await owner.submit(path, `${path}/capture`, { amount: '8000' });
    const sent = await owner.post(`${path}/capture`, confirmationFields(confirm.text, 'capture_key'));
    expect(sent.status, sent.text).toBe(303);
    expect(locationPath(sent)).toBe(`${path}?notice=checking`);
    expect(await holdOperations(g, held.uuid)).toEqual([['capture', 8_000, 'unknown']]);

    const page = await owner.get(`${path}?notice=checking`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(
      'The processor has not answered yet. The outcome is being checked with it, and nothing is sent twice.',
    );
    expect(testIdText(page.text, 'hold-state')).toMatch(/^Capture of AMD\u00a08,000: outcome unknown, being checked\./);
    expect(page.text).not.toContain('role="alert"');
    expect(page.text).not.toContain('/capture"');
    expect(page.text).not.toContain('/void"');
    // A stale form is answered the same way, and sends nothing.
    const stale = await owner.post(`${path}/void`, { form_token: formToken(page.text) });
    expect(stale.status).toBe(303);
    expect(locationPath(stale)).toBe(`${path}?notice=checking`);
    expect(await holdOperations(g, held.uuid)).toHaveLength(1);
    expect(await auditRows(g, m.merchantId, 'payment.captured')).toHaveLength(0);

    await checkHolds();
    expect(await read(held.uuid)).toMatchObject({ status: 'completed', amount: 8_000 });
    const after = await owner.get(path);
    expect(testIdText(after.text, 'hold-state')).toBe(
      'Captured AMD\u00a08,000, of the AMD\u00a010,000 held. The rest of the hold was released.',
    );
  });

  it('says a release the processor did not answer is being checked, then shows it released', async () => {
    const held = await heldPayment(g, m.testKey, HOLD_CARDS.noAnswer);
    const path = `/dashboard/payments/${held.uuid}`;
    const confirm = await owner.submit(path, `${path}/void`, {});
    const sent = await owner.post(`${path}/void`, confirmationFields(confirm.text, 'release_key'));
    expect(locationPath(sent)).toBe(`${path}?notice=checking`);
    const page = await owner.get(path);
    expect(testIdText(page.text, 'hold-state')).toMatch(/^Release: outcome unknown, being checked\./);
    expect(page.text).not.toContain('/capture"');
    await checkHolds();
    expect(await read(held.uuid)).toMatchObject({ status: 'expired', failure_code: 'voided' });
    expect(testIdText((await owner.get(path)).text, 'hold-state')).toMatch(/^Released: nothing was taken/);
  });

  it('keeps the hold and its forms when the processor declines the capture, and says so at the top', async () => {
    const held = await heldPayment(g, m.testKey, HOLD_CARDS.captureDeclined);
    const path = `/dashboard/payments/${held.uuid}`;
    const confirm = await owner.submit(path, `${path}/capture`, { amount: '10000' });
    const declined = await owner.post(`${path}/capture`, confirmationFields(confirm.text, 'capture_key'));
    expect(declined.status).toBe(422);
    expect(testIdText(declined.text, 'hold-problems')).toContain(
      'The processor declined the capture: nothing was taken, and the hold stands.',
    );
    expect(declined.text).toContain('<a href="#hold">The processor declined the capture');
    expect(declined.text).toContain(`action="/dashboard/payments/${held.uuid}/capture"`);
    expect((await read(held.uuid)).status).toBe('authorized');
    expect(await holdOperations(g, held.uuid)).toEqual([['capture', 10_000, 'failed']]);
  });

  it('offers nothing for a hold that ran out, and refuses a posted capture at the top of the page', async () => {
    const held = await heldPayment(g, m.testKey, HOLD_CARDS.ranOut);
    const path = `/dashboard/payments/${held.uuid}`;
    const ranOut = 'The hold ran out: it can no longer be captured, and the gateway is releasing it. Nothing is taken.';
    const released = 'The hold ran out before it was captured and was released: nothing was taken.';
    // Whether the gateway's release of it was made yet or not.
    const page = await owner.get(path);
    expect([ranOut, released]).toContain(testIdText(page.text, 'hold-state'));
    expect(page.text).not.toContain('/capture"');
    const refused = await owner.post(`${path}/capture`, { form_token: formToken(page.text), amount: '10000' });
    expect(refused.status).toBe(409);
    expect(testIdText(refused.text, 'hold-problems')).toContain(
      'The hold ran out: it can no longer be captured, and the gateway releases it.',
    );
    await g.t.gateway.scheduler.runDueNow();
    expect(await read(held.uuid)).toMatchObject({ status: 'expired', failure_code: 'authorization_expired' });
    expect(await holdOperations(g, held.uuid)).toEqual([['release', 10_000, 'succeeded']]);
    expect(testIdText((await owner.get(path)).text, 'hold-state')).toBe(released);
  });

  it('captures a payment priced in another currency whole: no amount to choose, a smaller one refused', async () => {
    await setFxRate(g.t.gateway.deps, { currency: 'USD', rate: '387.5' });
    const held = await heldPayment(g, m.testKey, HOLD_CARDS.approved, { amount: 10, currency: 'USD' });
    expect(held.authorized_amount).toBe(3875);
    const path = `/dashboard/payments/${held.uuid}`;
    const page = await owner.get(path);
    expect(page.text).not.toContain('id="f-capture-amount"');
    expect(page.text).toContain('This payment is captured whole: AMD\u00a03,875.');
    const smaller = await owner.post(`${path}/capture`, { form_token: formToken(page.text), amount: '1000' });
    expect(smaller.status).toBe(422);
    expect(smaller.text).toContain('<a href="#hold">This payment is captured whole: AMD\u00a03,875.</a>');
    const confirm = await owner.post(`${path}/capture`, { form_token: formToken(page.text), amount: '3875' });
    expect(testIdText(confirm.text, 'capture-question')).toContain('Capture AMD\u00a03,875');
    const done = await owner.post(`${path}/capture`, confirmationFields(confirm.text, 'capture_key'));
    expect(done.status, done.text).toBe(303);
    expect(await read(held.uuid)).toMatchObject({ status: 'completed', charge: { amount: 3875 } });
  });

  it('refuses to capture or release a payment that holds nothing, open or paid at once, saying so at the top', async () => {
    const open = await g.t.call<Json>('POST', '/api/v1/payments', { key: m.testKey, body: paymentBody() });
    const paid = await g.t.call<Json>('POST', '/api/v1/payments', { key: m.testKey, body: paymentBody() });
    await g.t.call('POST', `/api/v1/test_helpers/payments/${paid.body.uuid}/pay`, {
      key: m.testKey,
      body: { card_number: HOLD_CARDS.approved },
    });
    expect((await read(paid.body.uuid)).status).toBe('completed');
    for (const uuid of [open.body.uuid, paid.body.uuid]) {
      const path = `/dashboard/payments/${uuid}`;
      const page = await owner.get(path);
      expect(page.text).not.toContain('id="hold"');
      for (const action of ['capture', 'void']) {
        const refused = await owner.post(`${path}/${action}`, { form_token: formToken(page.text), amount: '100' });
        expect(refused.status, action).toBe(409);
        expect(refused.text).toContain(
          '<p class="alert" role="alert">Nothing is held on this payment: only an authorized payment can be captured or released.</p>',
        );
        expect(refused.text).not.toContain('already captured');
      }
    }
  });

  it('says the hold in Armenian and Russian, in the glossary’s words', async () => {
    const held = await heldPayment(g, m.testKey);
    const path = `/dashboard/payments/${held.uuid}`;
    const hy = await owner.get(`${path}?lang=hy`);
    expect(testIdText(hy.text, 'payment-status')).toBe('Արգելափակված');
    expect(hy.text).toContain('Քարտին արգելափակված գումար');
    expect(testIdText(hy.text, 'hold-amount')).toBe('10\u00a0000\u00a0֏');
    expect(hy.text).toContain('Անցնել գանձման հաստատմանը');
    expect(hy.text).toContain('<h3 id="release-form-title">Ապաարգելափակել</h3>');
    const hyConfirm = await owner.post(`${path}/capture`, { form_token: formToken(hy.text), amount: '4000' });
    expect(testIdText(hyConfirm.text, 'capture-question')).toBe(
      `Գանձե՞լ ${formatAmd('hy', 4000)} գնորդի քարտից ${held.order_id} պատվերի համար։`,
    );
    const ru = await owner.get(`${path}?lang=ru`);
    expect(testIdText(ru.text, 'payment-status')).toBe('Авторизован');
    expect(ru.text).toContain('Блокировка на карте');
    expect(ru.text).toContain('<h3 id="capture-form-title">Списать</h3>');
    expect(ru.text).toContain('<h3 id="release-form-title">Отменить блокировку</h3>');
    const ruConfirm = await owner.post(`${path}/void`, { form_token: formToken(ru.text) });
    expect(testIdText(ruConfirm.text, 'release-question')).toBe(
      `Отменить блокировку по заказу ${held.order_id} (${formatAmd('ru', 10_000)})? Ничего не будет списано, и списать платёж будет уже нельзя.`,
    );
    await owner.get(`${path}?lang=en`);
  });
});
