/**
 * Holds at the card processors through the whole gateway, over real HTTP, against the local fakes
 * of the banks, on both databases: a manual payment on ArCa (registerPreAuth.do) and on an
 * Ameriabank two-stage terminal is handed to the bank's page, paid there and read back
 * `authorized`; captured in part (deposit.do, ConfirmPayment: the amount recorded at the bank) and
 * refunded only of what was captured; voided (reverse.do, CancelPayment); a capture whose answer is
 * lost is settled once by the check-holds job and never sent again; a hold that runs out is
 * released by the expiry job as the test clock moves. Billing counts only what was captured. The
 * checkout never offers a held payment to a wallet, and a terminal's kind decides which payments it
 * takes at creation.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../gateway/domain/clock.js';
import { checkHoldsWork } from '../../gateway/jobs/check-holds.js';
import { createApiKey } from '../../gateway/merchants/api-keys.service.js';
import { setProcessorEnabled } from '../../gateway/merchants/domain-processors.service.js';
import { addDomain } from '../../gateway/merchants/domains.service.js';
import { AMERIA_HOLD_MS } from '../../gateway/processors/ameria/holds.js';
import { ARCA_HOLD_MS } from '../../gateway/processors/arca/holds.js';
import { DIALECTS } from '../support/databases.js';
import { expectErrorBody, LIVE_MERCHANT_IDRAM, paymentBody, type TestGateway, uniqueHost } from '../support/gateway.js';
import { FakeAmeria } from '../support/processors/fake-ameria.js';
import { type FakeArca, startFakeArca } from '../support/processors/fake-arca.js';
import {
  handoffHref,
  paymentEvents,
  pressAtAmeria,
  processorSession,
  startLiveGateway,
  visit,
} from '../support/processors/live-gateway.js';

type Json = Record<string, unknown>;

describe.each(DIALECTS)('holds at the card processors through the gateway (%s)', (dialect) => {
  let t: TestGateway;
  let arca: FakeArca;
  let ameria: FakeAmeria;
  let oneStage: FakeAmeria;
  let merchantId: string;
  let liveKey: string;
  let arcaHost: string;
  let ameriaHost: string;
  let oneStageHost: string;

  beforeAll(async () => {
    t = await startLiveGateway(dialect);
    arca = await startFakeArca({ now: () => t.clock.nowMs() });
    ameria = await FakeAmeria.start({ twoStage: true, testAmountRule: false, now: () => t.clock.nowMs() });
    oneStage = await FakeAmeria.start({ testAmountRule: false, now: () => t.clock.nowMs() });
    const deps = t.gateway.deps;
    // Not unlimited: a captured live payment consumes a `transactions` unit.
    merchantId = (await t.merchant({ name: 'Dilijan Rentals', verifyBusiness: true })).merchantId;
    const domain = async (label: string): Promise<string> => {
      const host = uniqueHost(label);
      await addDomain(deps, { merchantId, host, verified: true });
      return host;
    };
    arcaHost = await domain('arca');
    ameriaHost = await domain('ameria');
    oneStageHost = await domain('onestage');
    await setProcessorEnabled(deps, {
      merchantId,
      host: arcaHost,
      processor: 'arca',
      enabled: true,
      config: JSON.stringify({ base_url: arca.baseUrl, username: arca.username, password: arca.password }),
    });
    // A wallet beside the card processor: a held payment is never offered it.
    await setProcessorEnabled(deps, {
      merchantId,
      host: arcaHost,
      processor: 'idram',
      enabled: true,
      config: JSON.stringify(LIVE_MERCHANT_IDRAM),
    });
    await setProcessorEnabled(deps, {
      merchantId,
      host: ameriaHost,
      processor: 'ameria',
      enabled: true,
      config: JSON.stringify(ameria.settings()),
    });
    await setProcessorEnabled(deps, {
      merchantId,
      host: oneStageHost,
      processor: 'ameria',
      enabled: true,
      config: JSON.stringify(oneStage.settings()),
    });
    liveKey = (await createApiKey(deps, { merchantId, environment: 'live', access: 'full' })).key;
  });

  afterAll(async () => {
    await t?.close();
    await arca?.close();
    await ameria?.close();
    await oneStage?.close();
  });

  async function create(host: string, overrides: Json = {}): Promise<Json> {
    const created = await t.call('POST', '/api/v1/payments', {
      key: liveKey,
      body: paymentBody({
        return_url: `https://${host}/done`,
        order_id: `o-${randomUUID()}`,
        capture_method: 'manual',
        amount: 10_000,
        ...overrides,
      }),
    });
    expect(created.status, created.text).toBe(201);
    return created.body;
  }

  async function read(uuid: unknown): Promise<Json> {
    const res = await t.call('GET', `/api/v1/payments/${String(uuid)}`, { key: liveKey });
    expect(res.status, res.text).toBe(200);
    return res.body;
  }

  const capture = (uuid: unknown, body?: Json) =>
    t.call('POST', `/api/v1/payments/${String(uuid)}/capture`, {
      key: liveKey,
      ...(body === undefined ? {} : { body }),
    });
  const voidHold = (uuid: unknown) => t.call('POST', `/api/v1/payments/${String(uuid)}/void`, { key: liveKey });

  async function ledgerRefs(): Promise<string[]> {
    const res = await t.call<{ data: Json[] }>('GET', '/api/v1/billing/ledger?counter=transactions&per_page=100', {
      key: liveKey,
    });
    expect(res.status, res.text).toBe(200);
    return res.body.data.filter((entry) => entry.event_type === 'payment').map((entry) => String(entry.ref_id));
  }

  async function runHoldChecks(): Promise<void> {
    const work = checkHoldsWork(t.gateway.deps);
    await work.runBatch();
    await work.settle?.();
    await t.gateway.scheduler.runDueNow();
  }

  /** The buyer pays a held ArCa payment on the bank's page and comes back: the bank's orderId. */
  async function heldAtArca(amount = 10_000): Promise<{ payment: Json; orderId: string }> {
    const payment = await create(arcaHost, { processor: 'arca', redirect_mode: 'direct', amount });
    const href = handoffHref((await visit(String(payment.checkout_url))).text);
    const orderId = new URL(href).searchParams.get('mdOrder') ?? '';
    await arca.pay(orderId);
    const back = await visit(`${String(payment.checkout_url)}/return?orderId=${orderId}`);
    expect(back.status).toBe(303);
    return { payment: await read(payment.uuid), orderId };
  }

  /** The buyer pays a held Ameria payment on the bank's page and comes back: the bank's PaymentID. */
  async function heldAtAmeria(amount = 10_000): Promise<{ payment: Json; paymentId: string }> {
    const payment = await create(ameriaHost, { processor: 'ameria', redirect_mode: 'direct', amount });
    const href = handoffHref((await visit(String(payment.checkout_url))).text);
    await visit(await pressAtAmeria(ameria.baseUrl.replace(/\/VPOS\/$/, ''), href, 'pay'));
    const session = await processorSession(t, payment.uuid);
    return { payment: await read(payment.uuid), paymentId: String(session?.reference) };
  }

  describe('ArCa (registerPreAuth.do, deposit.do, reverse.do)', () => {
    it('authorizes, captures part, refunds part of what was captured, and bills only the capture', async () => {
      const { payment, orderId } = await heldAtArca(10_000);
      expect(payment).toMatchObject({
        status: 'authorized',
        processor: 'arca',
        amount: 10_000,
        authorized_amount: 10_000,
        capture_method: 'manual',
      });
      expect(Date.parse(String(payment.capture_before))).toBe(
        Math.floor((t.clock.nowMs() + ARCA_HOLD_MS) / 1000) * 1000,
      );
      expect(arca.requestsOf('registerPreAuth').at(-1)?.params.amount).toBe('1000000');
      expect(await ledgerRefs()).not.toContain(payment.uuid);

      const captured = await capture(payment.uuid, { amount: 7_500 });
      expect(captured.status, captured.text).toBe(200);
      expect(captured.body).toMatchObject({ status: 'completed', amount: 7_500, authorized_amount: 10_000 });
      expect(arca.requestsOf('deposit').at(-1)?.params).toMatchObject({ orderId, amount: '750000' });
      expect(arca.order(orderId)).toMatchObject({ status: 2, deposited: 750000 });
      expect((await ledgerRefs()).filter((ref) => ref === payment.uuid)).toHaveLength(1);

      const over = await t.call('POST', `/api/v1/payments/${String(payment.uuid)}/refund`, {
        key: liveKey,
        body: { amount: 7_501 },
      });
      expectErrorBody(over, 422, 'amount_exceeds_remaining', ['remaining_amount']);
      const refund = await t.call('POST', `/api/v1/payments/${String(payment.uuid)}/refund`, {
        key: liveKey,
        body: { amount: 2_000 },
      });
      expect(refund.status, refund.text).toBe(201);
      expect(refund.body).toMatchObject({ status: 'succeeded', refunded_amount: 2_000, payment_status: 'completed' });
      expect(arca.requestsOf('refund').at(-1)?.params).toMatchObject({ orderId, amount: '200000' });
      expect((await paymentEvents(t, payment.uuid)).map((e) => `${e.event}:${e.status}`)).toEqual([
        'payment.authorized:authorized',
        'transaction.status.updated:completed',
        'payment.refunded:completed',
      ]);
    });

    it('bills by the captured amount: a capture under the free amount of a larger hold consumes nothing', async () => {
      const { payment } = await heldAtArca(10_000);
      const freeBelow = t.gateway.deps.config.billing.freeBelowAmd;
      const captured = await capture(payment.uuid, { amount: freeBelow - 1 });
      expect(captured.status, captured.text).toBe(200);
      expect(captured.body).toMatchObject({ status: 'completed', amount: freeBelow - 1, authorized_amount: 10_000 });
      expect(await ledgerRefs()).not.toContain(payment.uuid);
    });

    it('offers a held payment only the card processor, never the wallet beside it', async () => {
      const payment = await create(arcaHost);
      const page = await visit(String(payment.checkout_url));
      expect(page.status).toBe(200);
      expect(page.text).toContain('name="processor" value="arca"');
      expect(page.text).not.toContain('value="idram"');
      const automatic = await create(arcaHost, { capture_method: undefined });
      expect((await visit(String(automatic.checkout_url))).text).toContain('value="idram"');
    });

    it('voids the hold with reverse.do: nothing is taken and nothing is billed', async () => {
      const { payment, orderId } = await heldAtArca();
      const res = await voidHold(payment.uuid);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ status: 'expired', failure_code: 'voided' });
      expect(arca.order(orderId).status).toBe(3);
      expect(arca.requestsOf('deposit').filter((r) => r.params.orderId === orderId)).toEqual([]);
      expect(await ledgerRefs()).not.toContain(payment.uuid);
    });

    it('settles a capture whose answer was lost once, from the order read back, and never deposits twice', async () => {
      const { payment, orderId } = await heldAtArca();
      arca.failNext({ kind: 'drop' }, 'deposit');
      const lost = await capture(payment.uuid, { amount: 4_000 });
      expectErrorBody(lost, 409, 'capture_outcome_unknown', ['operation']);
      expectErrorBody(await capture(payment.uuid, { amount: 4_000 }), 409, 'capture_outcome_unknown', ['operation']);
      expectErrorBody(await voidHold(payment.uuid), 409, 'capture_outcome_unknown', ['operation']);
      const deposits = () => arca.requestsOf('deposit').filter((r) => r.params.orderId === orderId);
      expect(deposits()).toHaveLength(1);
      expect(await read(payment.uuid)).toMatchObject({ status: 'authorized' });

      t.clock.advance(MINUTE_MS);
      await runHoldChecks();
      expect(await read(payment.uuid)).toMatchObject({ status: 'completed', amount: 4_000, authorized_amount: 10_000 });
      expect(deposits()).toHaveLength(1);
      expect((await ledgerRefs()).filter((ref) => ref === payment.uuid)).toHaveLength(1);
    });

    it('ends a hold that ran out expired: the release is refused after the bank day, the hold lapses at the issuer', async () => {
      const { payment, orderId } = await heldAtArca();
      t.clock.advance(ARCA_HOLD_MS);
      await t.gateway.scheduler.runDueNow();
      expect(await read(payment.uuid)).toMatchObject({ status: 'expired', failure_code: 'authorization_expired' });
      expect(arca.requestsOf('reverse').filter((r) => r.params.orderId === orderId)).toHaveLength(1);
      expect(arca.order(orderId).status).toBe(1);
      expect(await ledgerRefs()).not.toContain(payment.uuid);
    });
  });

  describe('Ameriabank two-stage terminal (ConfirmPayment, CancelPayment)', () => {
    it('authorizes on the return, captures part in drams, and refunds part of it', async () => {
      const { payment, paymentId } = await heldAtAmeria(10_000);
      expect(payment).toMatchObject({ status: 'authorized', processor: 'ameria', authorized_amount: 10_000 });
      expect(Date.parse(String(payment.capture_before))).toBe(
        Math.floor((t.clock.nowMs() + AMERIA_HOLD_MS) / 1000) * 1000,
      );
      const captured = await capture(payment.uuid, { amount: 3_000 });
      expect(captured.status, captured.text).toBe(200);
      expect(captured.body).toMatchObject({ status: 'completed', amount: 3_000 });
      expect(ameria.calls('ConfirmPayment').at(-1)?.json).toMatchObject({ PaymentID: paymentId, Amount: 3_000 });
      const refund = await t.call('POST', `/api/v1/payments/${String(payment.uuid)}/refund`, {
        key: liveKey,
        body: { amount: 1_000 },
      });
      expect(refund.status, refund.text).toBe(201);
      expect(ameria.order(paymentId)).toMatchObject({ depositedAmount: 2_000, refundedAmount: 1_000 });
    });

    it('voids with CancelPayment', async () => {
      const { payment, paymentId } = await heldAtAmeria();
      const res = await voidHold(payment.uuid);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ status: 'expired', failure_code: 'voided' });
      expect(ameria.order(paymentId)?.status).toBe('3');
    });

    it('releases a hold that ran out after 71 hours, while the bank still takes the release', async () => {
      const { payment, paymentId } = await heldAtAmeria();
      t.clock.advance(AMERIA_HOLD_MS);
      await t.gateway.scheduler.runDueNow();
      expect(await read(payment.uuid)).toMatchObject({ status: 'expired', failure_code: 'authorization_expired' });
      expect(ameria.order(paymentId)?.status).toBe('3');
    });

    it('refuses at creation what the terminal does not take: automatic on two-stage, manual on one-stage', async () => {
      const automatic = await t.call('POST', '/api/v1/payments', {
        key: liveKey,
        body: paymentBody({ return_url: `https://${ameriaHost}/done`, processor: 'ameria' }),
      });
      expectErrorBody(automatic, 422, 'validation_failed', ['errors']);
      expect(Object.keys(automatic.body.errors as Json)).toEqual(['capture_method']);
      const manual = await t.call('POST', '/api/v1/payments', {
        key: liveKey,
        body: paymentBody({ return_url: `https://${oneStageHost}/done`, capture_method: 'manual' }),
      });
      expectErrorBody(manual, 422, 'validation_failed', ['errors']);
      expect((manual.body.errors as Record<string, string[]>).capture_method?.[0]).toContain(oneStageHost);
      const plain = await t.call('POST', '/api/v1/payments', {
        key: liveKey,
        body: paymentBody({ return_url: `https://${oneStageHost}/done`, processor: 'ameria' }),
      });
      expect(plain.status, plain.text).toBe(201);
    });
  });
});
