/**
 * Fiscal receipts through the whole gateway (docs/receipts.md), over real HTTP, against the local
 * e-HDM fake (mutual TLS, strict seq and receipt rules) and Ameriabank's fake for live card
 * payments: a completed live payment gets exactly one receipt and its webhook carries it; refunds
 * get return receipts; e-HDM timing out, refusing, dropping the connection, then recovering, with
 * nothing ever issued twice; `POST /api/v1/receipts` consuming one unit, replayed for free, refused
 * at the grace floor; sandbox receipts; and the ledger equal to the balance after all of it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE_MS, toStoredInstant } from '../../gateway/domain/clock.js';
import { createApiKey } from '../../gateway/merchants/api-keys.service.js';
import { setProcessorEnabled } from '../../gateway/merchants/domain-processors.service.js';
import { addDomain } from '../../gateway/merchants/domains.service.js';
import { createProcessorHttp, type ProcessorHttp } from '../../gateway/processors/http.js';
import { SEARCH_AFTER_MS } from '../../gateway/receipts/issuing-schedule.js';
import { RECEIPT_WAIT_MS } from '../../gateway/receipts/receipts.service.js';
import { disableReceipts, enableReceipts } from '../../gateway/receipts/receipts-admin.service.js';
import { RECEIPTS_ALERT_KIND } from '../../gateway/receipts/receipts-alert.js';
import { recordLedgerEntry } from '../../storage/billing.repository.js';
import { DIALECTS } from '../support/databases.js';
import { paymentBody, type TestGateway, uniqueHost } from '../support/gateway.js';
import { FakeAmeria } from '../support/processors/fake-ameria.js';
import { payAtAmeria, startLiveGateway, visit } from '../support/processors/live-gateway.js';
import { FakeEhdm } from '../support/receipts/fake-ehdm.js';
import { type ReceivedWebhook, WebhookReceiver } from '../support/webhook-receiver.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests read nested API answers
type Json = Record<string, any>;

/** The gateway's client with every wait cut to `capMs`, so that a timeout takes a moment in tests. */
function cappedHttp(capMs: number): ProcessorHttp {
  const http = createProcessorHttp({ allowPrivate: true });
  return {
    request: (request) => http.request({ ...request, timeoutMs: Math.min(request.timeoutMs, capMs) }),
    close: () => http.close(),
  };
}

async function until<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 8_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.each(DIALECTS)('fiscal receipts through the gateway (%s)', (dialect) => {
  let t: TestGateway;
  let ehdm: FakeEhdm;
  let ameria: FakeAmeria;
  let receiver: WebhookReceiver;
  let merchantId: string;
  let liveKey: string;
  let testKey: string;
  let host: string;
  let hostedDomain: string;

  beforeAll(async () => {
    t = await startLiveGateway(dialect, { processorHttp: cappedHttp(600) });
    receiver = await WebhookReceiver.start();
    ehdm = await FakeEhdm.start();
    ameria = await FakeAmeria.start({ testAmountRule: false, now: () => t.clock.nowMs() });
    const deps = t.gateway.deps;
    const merchant = await t.merchant({
      name: 'Dilijan Honey',
      email: 'owner@dilijan-honey.example',
      verifyBusiness: true,
    });
    merchantId = merchant.merchantId;
    hostedDomain = merchant.hostedDomain;
    testKey = merchant.testKey;
    host = uniqueHost('honey');
    await addDomain(deps, { merchantId, host, verified: true, webhookUrl: `${receiver.url}/hooks` });
    await setProcessorEnabled(deps, {
      merchantId,
      host,
      processor: 'ameria',
      enabled: true,
      config: JSON.stringify({ ...ameria.settings(), order_id_min: 2350301, order_id_max: 2350400 }),
    });
    await enableReceipts(deps, { merchantId, host, system: 'ehdm', config: JSON.stringify(ehdm.config) });
    liveKey = (await createApiKey(deps, { merchantId, environment: 'live', access: 'full' })).key;
  });

  afterAll(async () => {
    await t?.close();
    await ehdm?.close();
    await ameria?.close();
    await receiver?.close();
  });

  const issueDue = () => t.gateway.scheduler.runDueNow();

  /** A live payment the buyer paid at the bank (Ameria's page) and came back from: completed. */
  async function paidLive(amount: number, extra: Json = {}): Promise<Json> {
    const created = await t.call('POST', '/api/v1/payments', {
      key: liveKey,
      body: paymentBody({
        amount,
        return_url: `https://${host}/done`,
        order_id: `o-${randomUUID()}`,
        processor: 'ameria',
        redirect_mode: 'direct',
        ...extra,
      }),
    });
    expect(created.status, created.text).toBe(201);
    await payAtAmeria(new URL(ameria.baseUrl).origin, String(created.body.checkout_url));
    const read = await t.call('GET', `/api/v1/payments/${String(created.body.uuid)}`, { key: liveKey });
    expect(read.body.status).toBe('completed');
    return read.body;
  }

  async function receiptsOf(uuid: unknown, key = liveKey): Promise<Json[]> {
    const res = await t.call('GET', `/api/v1/receipts?payment_uuid=${String(uuid)}`, { key });
    expect(res.status, res.text).toBe(200);
    return (res.body.data as Json[]).slice().reverse();
  }

  const issuedReceipts = (uuid: unknown, count: number) =>
    until(`${count} issued receipts of ${String(uuid)}`, async () => {
      const all = await receiptsOf(uuid);
      return all.length === count && all.every((r) => r.status === 'issued') ? all : undefined;
    });

  function hooks(uuid: unknown, event: string): ReceivedWebhook[] {
    return receiver.received.filter((h) => h.json?.event === event && h.json?.transaction?.uuid === String(uuid));
  }

  const delivered = (uuid: unknown, event: string, count: number) =>
    until(`${count} ${event} webhooks of ${String(uuid)}`, async () => {
      await issueDue();
      const got = hooks(uuid, event);
      return got.length >= count ? got : undefined;
    });

  /** Prints e-HDM made for a sale of `amount` AMD by card, since `from` (an index in its receipts). */
  const printsOf = (amount: number, from: number) =>
    ehdm.receipts.slice(from).filter((r) => r.type === 'sale' && r.cardLuma === amount * 100);

  it('issues one receipt for a completed live payment; its webhook carries it and the page shows it', async () => {
    const before = ehdm.receipts.length;
    const payment = await paidLive(2500, { description: 'Mountain honey, 1 kg' });
    const [receipt] = await issuedReceipts(payment.uuid, 1);
    const [hook] = await delivered(payment.uuid, 'transaction.status.updated', 1);
    expect(hook?.json.transaction.status).toBe('completed');
    expect(hook?.json.receipt).toEqual({ receipt_id: receipt?.id, qr_url: receipt?.qr_url });
    expect(hooks(payment.uuid, 'transaction.status.updated')).toHaveLength(1);

    const printed = printsOf(2500, before);
    expect(printed).toHaveLength(1);
    expect(receipt).toMatchObject({
      type: 'sale',
      status: 'issued',
      livemode: true,
      system: 'ehdm',
      payment_uuid: payment.uuid,
      amount: 2500,
      card_amount: 2500,
      cash_amount: 0,
      lines: [{ name: 'Mountain honey, 1 kg', quantity: 1, unit_price: 2500 }],
      fiscal: { receipt_id: String(printed[0]?.receiptId), register_number: ehdm.crn, tin: ehdm.tin },
      last_error: null,
    });
    // What e-HDM was asked: the domain's defaults on the line, card payment, products mode.
    const call = ehdm.calls('print').at(-1)?.body;
    expect(call).toMatchObject({ crn: ehdm.crn, mode: 2, cardAmount: 2500, cashAmount: 0 });
    expect(call.items).toEqual([
      expect.objectContaining({
        goodName: 'Mountain honey, 1 kg',
        adgCode: '9205',
        goodCode: '001',
        quantity: 1,
        price: 2500,
      }),
    ]);

    const page = await visit(String(receipt?.qr_url));
    expect(page.status).toBe(200);
    expect(page.csp).toContain("default-src 'none'");
    expect(page.text).toContain(ehdm.taxpayer);
    expect(page.text).toContain('<svg');
    expect(page.text).not.toContain('TEST RECEIPT');
    expect(page.text).not.toContain('ԹԵՍՏԱՅԻՆ ԿՏՐՈՆ');
    // Armenian unless the buyer's browser or ?lang= asks for English or Russian.
    expect(page.text).toContain('<html lang="hy">');
    expect(page.text).toContain('<h1>ՀԴՄ կտրոն</h1>');
    expect(page.text).toContain('<dt>ՀՎՀՀ</dt>');
    expect(page.text).toContain('<dt>Անկանխիկ</dt><dd>2500\u00a0֏</dd>');
    const russian = await visit(`${String(receipt?.qr_url)}?lang=ru`);
    expect(russian.text).toContain('<h1>Фискальный чек</h1>');
    expect(russian.text).toContain('<dt>Итого</dt><dd>2\u00a0500\u00a0драмов</dd>');
    const unknownPage = await visit(`${t.url}/receipts/${'A'.repeat(32)}`);
    expect(unknownPage.status).toBe(404);

    // A receipt of a payment taken through the service is free: one delta-0 ledger row.
    const rows = await ledger('receipts');
    expect(rows.filter((r) => r.ref_id === receipt?.id).map((r) => Number(r.delta))).toEqual([0]);
  });

  it('prints the order lines a payment carries', async () => {
    const payment = await paidLive(3300, {
      items: [
        { name: 'Linden honey', quantity: 2, unit_price: 1200, classification_code: '0409', unit: 'jar' },
        { name: 'Beeswax candle', quantity: 1.5, unit_price: 600 },
      ],
    });
    const [receipt] = await issuedReceipts(payment.uuid, 1);
    expect(receipt?.lines).toEqual([
      { name: 'Linden honey', quantity: 2, unit_price: 1200, classification_code: '0409', code: null, unit: 'jar' },
      { name: 'Beeswax candle', quantity: 1.5, unit_price: 600, classification_code: null, code: null, unit: null },
    ]);
    const call = ehdm.calls('print').at(-1)?.body;
    expect(call.items.map((i: Json) => [i.goodName, i.adgCode, i.unit, i.quantity, i.price])).toEqual([
      ['Linden honey', '0409', 'jar', 2, 1200],
      ['Beeswax candle', '9205', 'հատ', 1.5, 600],
    ]);
  });

  it('issues a return receipt for each refund, carried by payment.refunded, adding up to the sale', async () => {
    const payment = await paidLive(2500, { description: 'Acacia honey' });
    const [sale] = await issuedReceipts(payment.uuid, 1);
    const first = await t.call('POST', `/api/v1/payments/${String(payment.uuid)}/refund`, {
      key: liveKey,
      body: { amount: 1000 },
    });
    expect(first.status, first.text).toBe(201);
    const afterFirst = await issuedReceipts(payment.uuid, 2);
    const second = await t.call('POST', `/api/v1/payments/${String(payment.uuid)}/refund`, { key: liveKey, body: {} });
    expect(second.status, second.text).toBe(201);
    const all = await issuedReceipts(payment.uuid, 3);
    const returns = all.filter((r) => r.type === 'return');
    expect(returns.map((r) => [r.refund_uuid, r.amount, r.sale_receipt_id, r.lines[0]?.quantity])).toEqual([
      [first.body.uuid, 1000, sale?.id, 0.4],
      [second.body.uuid, 1500, sale?.id, 0.6],
    ]);
    expect(afterFirst.filter((r) => r.type === 'return')).toHaveLength(1);
    const refunded = await delivered(payment.uuid, 'payment.refunded', 2);
    expect(refunded.map((h) => [h.json.refund.uuid, h.json.receipt?.receipt_id])).toEqual([
      [first.body.uuid, returns[0]?.id],
      [second.body.uuid, returns[1]?.id],
    ]);
    // e-HDM gave back the sale's line in two parts, against the sale's receipt id.
    const saleId = Number(sale?.fiscal.receipt_id);
    const fakeReturns = ehdm.receipts.filter((r) => r.type === 'return' && r.saleReceiptId === saleId);
    expect(fakeReturns.map((r) => r.cardLuma)).toEqual([100_000, 150_000]);
    expect(ehdm.receipt(saleId)?.lines[0]?.returnedMilli).toBe(1000);
  });

  it('holds the event up to 5 s; a receipt issued later comes in a second event, and a timed-out print is found, never printed twice', async () => {
    const before = ehdm.receipts.length;
    // e-HDM issues the receipt but answers after the gateway stopped waiting.
    ehdm.failNext('print', { kind: 'delay', ms: 1_500 });
    const payment = await paidLive(2700);
    await until('the try to end unknown', async () => {
      await issueDue();
      const [r] = await receiptsOf(payment.uuid);
      return r?.status === 'unknown' ? r : undefined;
    });
    await until('the late print to land at e-HDM', async () =>
      printsOf(2700, before).length === 1 ? true : undefined,
    );
    // The held event goes out without the receipt once its 5 seconds are over.
    t.clock.advance(RECEIPT_WAIT_MS);
    const [first] = await delivered(payment.uuid, 'transaction.status.updated', 1);
    expect(first?.json.receipt).toBeNull();
    // A minute later the register is searched: the receipt is there, and is recorded, not printed again.
    t.clock.advance(SEARCH_AFTER_MS);
    const [receipt] = await issuedReceipts(payment.uuid, 1);
    expect(receipt?.fiscal.receipt_id).toBe(String(printsOf(2700, before)[0]?.receiptId));
    const updates = await delivered(payment.uuid, 'transaction.status.updated', 2);
    expect(updates[1]?.json.receipt).toEqual({ receipt_id: receipt?.id, qr_url: receipt?.qr_url });
    expect(printsOf(2700, before)).toHaveLength(1);
  });

  it('tries again after a refusal that may pass, and after a connection dropped before e-HDM handled it', async () => {
    const before = ehdm.receipts.length;
    ehdm.failNext('print', { kind: 'error', code: 104, message: 'INVALID_SEQ' });
    const payment = await paidLive(2800);
    const pending = await until('the refused try', async () => {
      await issueDue();
      const [r] = await receiptsOf(payment.uuid);
      return r?.status === 'pending' && r.last_error !== null ? r : undefined;
    });
    expect(pending.last_error).toMatchObject({ code: '104' });
    ehdm.failNext('print', { kind: 'drop' });
    t.clock.advance(MINUTE_MS);
    // The dropped connection is an unknown outcome: the register is searched, finds nothing, tries again.
    await until('the unknown try', async () => {
      await issueDue();
      const [r] = await receiptsOf(payment.uuid);
      return r?.status === 'unknown' ? r : undefined;
    });
    t.clock.advance(SEARCH_AFTER_MS);
    await until('the search and the new try', async () => {
      await issueDue();
      const [r] = await receiptsOf(payment.uuid);
      return r?.status === 'issued' ? r : undefined;
    });
    expect(printsOf(2800, before)).toHaveLength(1);
    const seqs = ehdm.calls('print').map((c) => Number(c.body.seq));
    expect(new Set(seqs).size).toBe(seqs.length);
  });

  /** The receipt rows of a payment as stored (status, searches, last error). */
  async function storedReceipts(uuid: unknown): Promise<Json[]> {
    return (await t.gateway.deps.db
      .selectFrom('receipts')
      .selectAll()
      .where('payment_id', '=', String(uuid))
      .execute()) as Json[];
  }

  it('never prints a sale twice when the register’s clock is behind: a receipt dated before the first attempt is held for a person', async () => {
    const before = ehdm.receipts.length;
    const machine = ehdm.now;
    // The register's clock is 6 minutes behind the gateway's, past the 5 minutes allowed for.
    ehdm.now = () => t.clock.nowMs() - 6 * MINUTE_MS;
    try {
      ehdm.failNext('print', { kind: 'delay', ms: 1_500 });
      const payment = await paidLive(3100);
      await until('the try to end unknown', async () => {
        await issueDue();
        const [r] = await receiptsOf(payment.uuid);
        return r?.status === 'unknown' ? r : undefined;
      });
      await until('the late print to land at e-HDM', async () =>
        printsOf(3100, before).length === 1 ? true : undefined,
      );
      // Each search meets the receipt dated before the first attempt: it cannot be ruled out, so
      // it is never taken for absent, and nothing is printed again however often it is searched.
      for (let search = 1; search <= 3; search++) {
        t.clock.advance(30 * MINUTE_MS);
        const row = await until(`search ${search}`, async () => {
          await issueDue();
          const [r] = await storedReceipts(payment.uuid);
          return Number(r?.searches) >= search ? r : undefined;
        });
        expect(row.status).toBe('unknown');
        expect(String(row.last_error)).toContain(
          'search undecided: same type and amounts, dated before the first attempt',
        );
      }
      expect(printsOf(3100, before)).toHaveLength(1);
    } finally {
      ehdm.now = machine;
    }
  });

  it('looks for the receipt from the first attempt on: a later try’s lost receipt is found, not printed again', async () => {
    const before = ehdm.receipts.length;
    const machine = ehdm.now;
    ehdm.now = () => t.clock.nowMs() - 6 * MINUTE_MS;
    try {
      // The first try's connection drops before e-HDM handles it: searched, absent, tried again.
      ehdm.failNext('print', { kind: 'drop' });
      const payment = await paidLive(3200);
      await until('the first try to end unknown', async () => {
        await issueDue();
        const [r] = await storedReceipts(payment.uuid);
        return r?.status === 'unknown' ? r : undefined;
      });
      // The second try, 3 minutes after the first, issues the receipt and its answer is lost. The
      // register dates it 3 minutes before the first try: inside the window that starts there.
      ehdm.failNext('print', { kind: 'delay', ms: 1_500 });
      t.clock.advance(SEARCH_AFTER_MS + 2 * MINUTE_MS);
      await until('the second try to land at e-HDM', async () => {
        await issueDue();
        return printsOf(3200, before).length === 1 ? true : undefined;
      });
      await until('the second try to end unknown', async () => {
        await issueDue();
        const [r] = await storedReceipts(payment.uuid);
        return r?.status === 'unknown' && r.attempt_started_at !== r.first_attempt_at ? r : undefined;
      });
      t.clock.advance(SEARCH_AFTER_MS);
      const [receipt] = await issuedReceipts(payment.uuid, 1);
      expect(receipt?.fiscal.receipt_id).toBe(String(printsOf(3200, before)[0]?.receiptId));
      expect(printsOf(3200, before)).toHaveLength(1);
    } finally {
      ehdm.now = machine;
    }
  });

  it('fails a receipt e-HDM refuses for good, emails the merchant once, and issues it once the settings are given again', async () => {
    ehdm.failNext('print', { kind: 'error', code: 403, message: 'UNAUTHORIZED_CONNECTION' });
    const payment = await paidLive(2900);
    const failed = await until('the failed receipt', async () => {
      await issueDue();
      const [r] = await receiptsOf(payment.uuid);
      return r?.status === 'failed' ? r : undefined;
    });
    expect(failed.last_error).toMatchObject({ code: '403' });
    const emails = await t.gateway.deps.db
      .selectFrom('merchant_emails')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('kind', '=', RECEIPTS_ALERT_KIND)
      .execute();
    expect(emails).toHaveLength(1);
    expect(emails[0]?.subject).toContain(host);
    expect(emails[0]?.body).not.toContain('PRIVATE KEY');

    const enabled = await enableReceipts(t.gateway.deps, {
      merchantId,
      host,
      system: 'ehdm',
      config: JSON.stringify(ehdm.config),
    });
    expect(enabled.retried).toBe(1);
    await issuedReceipts(payment.uuid, 1);
  });

  it('keeps the settings sealed and refuses bad ones without printing their values', async () => {
    const row = await t.gateway.deps.db
      .selectFrom('domain_receipts')
      .innerJoin('domains', 'domains.id', 'domain_receipts.domain_id')
      .select(['domain_receipts.config'])
      .where('domains.host', '=', host)
      .executeTakeFirstOrThrow();
    expect(String(row.config)).not.toContain('PRIVATE KEY');
    expect(String(row.config)).not.toContain(ehdm.crn);
    const bad = { ...ehdm.config, cashier_id: 'secret-cashier-value' };
    await expect(
      enableReceipts(t.gateway.deps, { merchantId, host, system: 'ehdm', config: JSON.stringify(bad) }),
    ).rejects.toThrow(/cashier_id/);
    await expect(
      enableReceipts(t.gateway.deps, { merchantId, host, system: 'ehdm', config: JSON.stringify(bad) }),
    ).rejects.not.toThrow(/secret-cashier-value/);
  });

  it('checks the connection when the settings are entered and refuses what fails, keeping the settings it had', async () => {
    const before = await t.gateway.deps.db
      .selectFrom('domain_receipts')
      .innerJoin('domains', 'domains.id', 'domain_receipts.domain_id')
      .select(['domain_receipts.config', 'domain_receipts.updated_at'])
      .where('domains.host', '=', host)
      .executeTakeFirstOrThrow();
    const checks = ehdm.calls('checkConnection').length;
    await expect(
      enableReceipts(t.gateway.deps, {
        merchantId,
        host,
        system: 'ehdm',
        config: JSON.stringify({ ...ehdm.config, crn: '59999999' }),
      }),
    ).rejects.toThrow(
      'these settings do not work with ehdm (nothing was changed): checkConnection answered code 403 UNAUTHORIZED_CONNECTION',
    );
    expect(ehdm.calls('checkConnection')).toHaveLength(checks + 1);
    const after = await t.gateway.deps.db
      .selectFrom('domain_receipts')
      .innerJoin('domains', 'domains.id', 'domain_receipts.domain_id')
      .select(['domain_receipts.config', 'domain_receipts.updated_at'])
      .where('domains.host', '=', host)
      .executeTakeFirstOrThrow();
    expect(after).toEqual(before);
  });

  describe('POST /api/v1/receipts', () => {
    const body = { items: [{ name: 'Honey at the market stall', quantity: 1, unit_price: 4000 }] };

    it('issues a receipt for a sale not paid through the service, consuming one unit when issued; a replay consumes nothing more', async () => {
      const key = `rc-${randomUUID()}`;
      const before = await balance('receipts');
      const created = await t.call('POST', '/api/v1/receipts', {
        key: liveKey,
        headers: { 'Idempotency-Key': key },
        body: { ...body, domain: host },
      });
      expect(created.status, created.text).toBe(201);
      expect(created.body).toMatchObject({ status: 'pending', cash_amount: 4000, card_amount: 0, payment_uuid: null });
      const issued = await until('the API receipt', async () => {
        await issueDue();
        const res = await t.call('GET', `/api/v1/receipts/${String(created.body.id)}`, { key: liveKey });
        return res.body.status === 'issued' ? res.body : undefined;
      });
      expect(ehdm.calls('print').at(-1)?.body).toMatchObject({ cashAmount: 4000, cardAmount: 0 });
      expect((issued as Json).fiscal.receipt_id).toBe(String(ehdm.receipts.at(-1)?.receiptId));
      expect(await balance('receipts')).toBe(before - 1);

      const replay = await t.call('POST', '/api/v1/receipts', {
        key: liveKey,
        headers: { 'Idempotency-Key': key },
        body: { ...body, domain: host },
      });
      expect(replay.status).toBe(200);
      expect(replay.body.id).toBe(created.body.id);
      await issueDue();
      expect(await balance('receipts')).toBe(before - 1);
      const rows = (await ledger('receipts')).filter((r) => r.ref_id === created.body.id);
      expect(rows.map((r) => Number(r.delta))).toEqual([-1]);
    });

    it('refuses what it cannot issue, with the spec’s error shape', async () => {
      const post = (
        payload: unknown,
        headers: Record<string, string> = { 'Idempotency-Key': randomUUID() },
        k = liveKey,
      ) => t.call('POST', '/api/v1/receipts', { key: k, headers, body: payload });
      const noKey = await post(body, {});
      expect([noKey.status, noKey.body.error]).toEqual([422, 'validation_failed']);
      const mismatch = await post({ ...body, cash_amount: 1000, card_amount: 1000 });
      expect([mismatch.status, mismatch.body.error]).toEqual([422, 'validation_failed']);
      expect(JSON.stringify(mismatch.body)).toContain('card_amount');
      const payments = await t.key(merchantId, 'live', 'payments');
      const scope = await post(body, undefined, payments);
      expect([scope.status, scope.body.error]).toEqual([403, 'insufficient_scope']);
      // A domain without fiscal receipts.
      const other = uniqueHost('stall');
      await addDomain(t.gateway.deps, { merchantId, host: other, verified: true });
      const notEnabled = await post({ ...body, domain: other });
      expect([notEnabled.status, notEnabled.body.error]).toEqual([422, 'receipts_not_enabled']);
      expect(notEnabled.body).toHaveProperty('docs_url');
      expect(notEnabled.body).toHaveProperty('request_id');
    });

    it('is refused at the grace floor with 402 BALANCE_EXHAUSTED; receipts of payments stay free and issued', async () => {
      const available = await balance('receipts');
      const floor = -20;
      await t.gateway.deps.transact((trx) =>
        recordLedgerEntry(trx, {
          merchantId,
          counter: 'receipts',
          delta: floor - available,
          eventType: 'adjustment',
          refType: null,
          refId: null,
          note: 'test: down to the grace floor',
          now: toStoredInstant(t.clock.nowMs()),
          signupGrant: 50,
        }),
      );
      const refused = await t.call('POST', '/api/v1/receipts', {
        key: liveKey,
        headers: { 'Idempotency-Key': randomUUID() },
        body,
      });
      expect(refused.status, refused.text).toBe(402);
      expect(refused.body).toMatchObject({ error: 'BALANCE_EXHAUSTED', available: floor, grace_floor: floor });
      const payment = await paidLive(2600);
      await issuedReceipts(payment.uuid, 1);
      expect(await balance('receipts')).toBe(floor);
    });
  });

  describe('sandbox receipts', () => {
    it('gives a sandbox payment a sandbox receipt at once, in its webhook, never sent to e-HDM, consuming nothing', async () => {
      await enableReceipts(t.gateway.deps, { merchantId, host: hostedDomain, system: 'test', config: undefined });
      const prints = ehdm.calls('print').length;
      const created = await t.call('POST', '/api/v1/payments', {
        key: testKey,
        body: paymentBody({ amount: 1500, callback_url: `${receiver.url}/sandbox` }),
      });
      expect(created.status, created.text).toBe(201);
      const paid = await t.call('POST', `/api/v1/test_helpers/payments/${String(created.body.uuid)}/pay`, {
        key: testKey,
        body: { card_number: '4242424242424242' },
      });
      expect(paid.status, paid.text).toBeLessThan(300);
      const [receipt] = await until('the sandbox receipt', async () => {
        const all = await receiptsOf(created.body.uuid, testKey);
        return all.length === 1 ? all : undefined;
      });
      expect(receipt).toMatchObject({ status: 'issued', livemode: false, system: 'sandbox', amount: 1500 });
      expect(receipt?.fiscal.receipt_id).toBe(`TEST-${String(receipt?.id)}`);
      const [hook] = await delivered(created.body.uuid, 'transaction.status.updated', 1);
      expect(hook?.json.livemode).toBe(false);
      expect(hook?.json.receipt).toEqual({ receipt_id: receipt?.id, qr_url: receipt?.qr_url });
      const page = await visit(String(receipt?.qr_url));
      expect(page.text).toContain('ԹԵՍՏԱՅԻՆ ԿՏՐՈՆ. սա ՀԴՄ կտրոն չէ');
      expect((await visit(`${String(receipt?.qr_url)}?lang=ru`)).text).toContain('ТЕСТОВЫЙ ЧЕК');
      expect((await visit(`${String(receipt?.qr_url)}?lang=en`)).text).toContain('TEST RECEIPT');
      expect(ehdm.calls('print')).toHaveLength(prints);
      expect((await ledger('receipts')).filter((r) => r.ref_id === receipt?.id)).toEqual([]);
      // A live key does not see it.
      const hidden = await t.call('GET', `/api/v1/receipts/${String(receipt?.id)}`, { key: liveKey });
      expect(hidden.status).toBe(404);
    });

    it('issues a sandbox receipt for a test key’s POST /api/v1/receipts at once', async () => {
      const created = await t.call('POST', '/api/v1/receipts', {
        key: testKey,
        headers: { 'Idempotency-Key': randomUUID() },
        body: { items: [{ name: 'Test jar', unit_price: 900 }], card_amount: 900 },
      });
      expect(created.status, created.text).toBe(201);
      expect(created.body).toMatchObject({ status: 'issued', livemode: false, system: 'sandbox', card_amount: 900 });
    });
  });

  it('keeps the ledger equal to the balance after all of it', async () => {
    for (const counter of ['receipts', 'transactions'] as const) {
      const rows = await ledger(counter);
      const sum = rows.reduce((total, r) => total + Number(r.delta), 0);
      expect(sum).toBe(await balance(counter));
      expect(Number(rows.at(-1)?.balance_after)).toBe(await balance(counter));
    }
  });

  it('stops issuing when receipts are disabled: a queued receipt fails', async () => {
    await disableReceipts(t.gateway.deps, { merchantId, host });
    const payment = await paidLive(3100);
    expect(await receiptsOf(payment.uuid)).toEqual([]);
  });

  async function ledger(counter: 'receipts' | 'transactions'): Promise<Json[]> {
    return (await t.gateway.deps.db
      .selectFrom('billing_ledger')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('counter', '=', counter)
      .orderBy('id')
      .execute()) as Json[];
  }

  async function balance(counter: 'receipts' | 'transactions'): Promise<number> {
    const res = await t.call<{ data: Json[] }>('GET', '/api/v1/billing/balances', { key: liveKey });
    const entry = (res.body.data ?? (res.body as unknown as Json[])).find((b: Json) => b.counter === counter);
    return Number(entry?.available);
  }
});
