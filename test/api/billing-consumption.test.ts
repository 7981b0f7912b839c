/**
 * Consumption of units over HTTP on both databases (spec "Billing", "Errors" 402): completed live
 * payments consume one `transactions` unit each, in the transaction of their completion, exactly
 * once (late confirmations too); sandbox payments, payments under the free threshold consume
 * nothing; unlimited accounts record delta 0; 402 `BALANCE_EXHAUSTED` at the grace floor for live
 * payments only; the ledger stays the running sum under concurrent completions; and the receipts
 * rule (`consumeForReceipt`, which the receipt issuer calls).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumeForReceipt } from '../../gateway/billing/consumption.js';
import { createApiKey } from '../../gateway/merchants/api-keys.service.js';
import { setProcessorEnabled } from '../../gateway/merchants/domain-processors.service.js';
import { addDomain } from '../../gateway/merchants/domains.service.js';
import { payWithTestCard } from '../../gateway/payments/test-card.service.js';
import { findPaymentRow, rowToPayment } from '../../storage/payment.repository.js';
import type { LedgerEntry, LedgerPage } from '../support/billing-shape.js';
import { DIALECTS } from '../support/databases.js';
import {
  type ApiResponse,
  enableLiveProcessor,
  PUBLIC_URL,
  paymentBody,
  startTestGateway,
  type TestGateway,
  uniqueHost,
} from '../support/gateway.js';
import { completeLivePayment, livePaymentsRouter, STANDIN_PROCESSOR } from '../support/live-payments.js';

type Json = Record<string, unknown>;

const APPROVED = '4111 1111 1111 1111';

interface LiveAccount {
  merchantId: string;
  host: string;
  liveKey: string;
  testKey: string;
}

function helpers(get: () => TestGateway) {
  const t = () => get();
  return {
    async liveAccount(options: { unlimited?: boolean } = {}): Promise<LiveAccount> {
      const host = uniqueHost('billing-use');
      if (options.unlimited !== true) {
        const m = await t().liveMerchant(host);
        return { merchantId: m.merchantId, host, liveKey: m.liveKey, testKey: m.testKey };
      }
      const deps = t().gateway.deps;
      const m = await t().merchant({ verifyBusiness: true, unlimited: true });
      await addDomain(deps, { merchantId: m.merchantId, host, verified: true });
      await setProcessorEnabled(deps, { merchantId: m.merchantId, host, processor: 'sandbox', enabled: true });
      await enableLiveProcessor(deps, m.merchantId, host);
      const liveKey = (await createApiKey(deps, { merchantId: m.merchantId, environment: 'live', access: 'full' })).key;
      return { merchantId: m.merchantId, host, liveKey, testKey: m.testKey };
    },
    createLive(account: LiveAccount, overrides: Json = {}): Promise<ApiResponse> {
      return t().call('POST', '/api/v1/payments', {
        key: account.liveKey,
        body: paymentBody({ return_url: `https://${account.host}/done`, ...overrides }),
      });
    },
    async createAndComplete(account: LiveAccount, overrides: Json = {}): Promise<string> {
      const created = await this.createLive(account, overrides);
      expect(created.status, created.text).toBe(201);
      const uuid = created.body.uuid as string;
      const done = await completeLivePayment(t(), uuid);
      expect(done.status, done.text).toBe(200);
      expect(done.body.status).toBe('completed');
      return uuid;
    },
    async ledger(key: string, query = '?counter=transactions&per_page=100'): Promise<LedgerEntry[]> {
      const res = await t().call<LedgerPage>('GET', `/api/v1/billing/ledger${query}`, { key });
      expect(res.status, res.text).toBe(200);
      expect(res.body.next_cursor).toBeNull();
      return res.body.data;
    },
    async balances(key: string): Promise<Json[]> {
      const res = await t().call<Json[]>('GET', '/api/v1/billing/balances', { key });
      expect(res.status, res.text).toBe(200);
      return res.body;
    },
  };
}

describe.each(DIALECTS)('billing consumption on %s', (dialect) => {
  let t: TestGateway;
  const live = livePaymentsRouter();
  const h = helpers(() => t);

  beforeAll(async () => {
    t = await startTestGateway(dialect, {
      routers: [live.router],
      env: { GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' },
    });
    live.bind(t.gateway.deps);
  });
  afterAll(async () => t?.close());

  it('a completed live payment consumes one transactions unit with one ledger row', async () => {
    const a = await h.liveAccount();
    const uuid = await h.createAndComplete(a, { amount: 5000 });
    const row = await findPaymentRow(t.gateway.deps.db, uuid);
    expect(row?.sandbox).toBe(0);
    expect(row?.processor).toBe(STANDIN_PROCESSOR);
    const entries = await h.ledger(a.liveKey);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toEqual({
      id: expect.any(Number),
      counter: 'transactions',
      delta: -1,
      event_type: 'payment',
      ref_type: 'payment',
      ref_id: uuid,
      balance_after: 49,
      note: null,
      created_at: expect.stringMatching(/\+00:00$/),
    });
    expect(entries[1]).toMatchObject({ event_type: 'signup_grant', delta: 50, balance_after: 50 });
    expect(entries[0]?.id).toBeGreaterThan(entries[1]?.id ?? Number.POSITIVE_INFINITY);
    const balances = await h.balances(a.liveKey);
    expect(balances[0]).toMatchObject({ counter: 'transactions', available: 49, blocked: 'no' });
    expect(balances[1]).toMatchObject({ counter: 'receipts', available: 50 });
    // Receipts are untouched by payments.
    expect(await h.ledger(a.liveKey, '?counter=receipts')).toHaveLength(1);
  });

  it('consumes at the free threshold but not under it', async () => {
    const a = await h.liveAccount();
    await h.createAndComplete(a, { amount: 499 });
    await h.createAndComplete(a, { amount: 1 });
    expect((await h.ledger(a.liveKey)).map((e) => e.event_type)).toEqual(['signup_grant']);
    const atThreshold = await h.createAndComplete(a, { amount: 500 });
    expect((await h.ledger(a.liveKey)).map((e) => [e.event_type, e.ref_id, e.balance_after])).toEqual([
      ['payment', atThreshold, 49],
      ['signup_grant', null, 50],
    ]);
  });

  it('sandbox payments consume nothing: a test key, and a live key with processor sandbox', async () => {
    const a = await h.liveAccount();
    const test = await t.call('POST', '/api/v1/payments', { key: a.testKey, body: paymentBody({ amount: 9000 }) });
    expect(test.status, test.text).toBe(201);
    const paid = await t.call('POST', `/api/v1/test_helpers/payments/${test.body.uuid}/pay`, {
      key: a.testKey,
      body: { card_number: APPROVED },
    });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.status).toBe('completed');

    const liveSandbox = await h.createLive(a, { amount: 9000, processor: 'sandbox' });
    expect(liveSandbox.status, liveSandbox.text).toBe(201);
    const row = await findPaymentRow(t.gateway.deps.db, liveSandbox.body.uuid as string);
    expect(row?.sandbox).toBe(1);
    const result = await payWithTestCard(t.gateway.deps, rowToPayment(row as NonNullable<typeof row>), APPROVED);
    expect(result.ok).toBe(true);
    expect((await findPaymentRow(t.gateway.deps.db, row?.id as string))?.status).toBe('completed');
    // The stand-in refuses sandbox payments, so it cannot turn one into a live one.
    expect((await completeLivePayment(t, liveSandbox.body.uuid as string)).status).toBe(409);

    // No balance was even created by these completions: the first read creates it with the grant.
    const before = await t.gateway.deps.db
      .selectFrom('billing_ledger')
      .select('id')
      .where('merchant_id', '=', a.merchantId)
      .execute();
    expect(before).toHaveLength(0);
    expect((await h.balances(a.liveKey))[0]).toMatchObject({ available: 50 });
    expect((await h.ledger(a.liveKey)).map((e) => e.event_type)).toEqual(['signup_grant']);
  });

  it('unlimited accounts record the payment with delta 0 and keep their balance', async () => {
    const a = await h.liveAccount({ unlimited: true });
    const uuid = await h.createAndComplete(a, { amount: 5000 });
    const entries = await h.ledger(a.liveKey);
    expect(entries.map((e) => [e.event_type, e.delta, e.ref_type, e.ref_id, e.balance_after])).toEqual([
      ['payment', 0, 'payment', uuid, 50],
      ['signup_grant', 50, null, null, 50],
    ]);
    expect((await h.balances(a.liveKey))[0]).toEqual({
      counter: 'transactions',
      available: 50,
      grace_floor: -20,
      blocked: 'no',
      unlimited: true,
    });
  });

  it('a failed payment confirmed late consumes once, even when confirmed twice', async () => {
    const a = await h.liveAccount();
    const created = await h.createLive(a, { amount: 5000 });
    const uuid = created.body.uuid as string;
    const failed = await t.call('POST', `/test-only/payments/${uuid}/fail`);
    expect(failed.status, failed.text).toBe(200);
    expect(failed.body.status).toBe('failed');
    expect(await h.ledger(a.liveKey)).toHaveLength(1);

    const confirmed = await t.call('POST', `/test-only/payments/${uuid}/confirm`);
    expect(confirmed.body.status).toBe('completed');
    const again = await t.call('POST', `/test-only/payments/${uuid}/confirm`);
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('completed');
    // Two more confirmations racing each other.
    await Promise.all([
      t.call('POST', `/test-only/payments/${uuid}/confirm`),
      t.call('POST', `/test-only/payments/${uuid}/confirm`),
    ]);
    const entries = await h.ledger(a.liveKey);
    expect(entries.map((e) => [e.event_type, e.ref_id, e.delta, e.balance_after])).toEqual([
      ['payment', uuid, -1, 49],
      ['signup_grant', null, 50, 50],
    ]);
    // Completing a completed payment again is refused by the stand-in and consumes nothing.
    expect((await completeLivePayment(t, uuid)).status).toBe(409);
    expect(await h.ledger(a.liveKey)).toHaveLength(2);
  });

  it('keeps balance_after the running sum under 36 concurrent completions', async () => {
    const a = await h.liveAccount();
    const other = await h.liveAccount();
    const count = 36;
    const created = await Promise.all(
      Array.from({ length: count }, (_, i) => h.createLive(i % 6 === 5 ? other : a, { amount: 1000 + i })),
    );
    for (const res of created) expect(res.status, res.text).toBe(201);
    const completed = await Promise.all(created.map((res) => completeLivePayment(t, res.body.uuid as string)));
    for (const res of completed) {
      expect(res.status, res.text).toBe(200);
      expect(res.body.status).toBe('completed');
    }
    for (const [account, consumed] of [
      [a, 30],
      [other, 6],
    ] as const) {
      const entries = [...(await h.ledger(account.liveKey))].reverse();
      expect(entries).toHaveLength(consumed + 1);
      expect(entries[0]).toMatchObject({ event_type: 'signup_grant', delta: 50, balance_after: 50 });
      let sum = 0;
      for (const [i, entry] of entries.entries()) {
        if (i > 0) expect(entry.id).toBeGreaterThan(entries[i - 1]?.id ?? 0);
        sum += entry.delta;
        expect(entry.balance_after).toBe(sum);
      }
      const refs = entries.filter((e) => e.event_type === 'payment').map((e) => e.ref_id);
      expect(new Set(refs).size).toBe(consumed);
      const last = entries.at(-1)?.balance_after;
      const balance = (await h.balances(account.liveKey))[0];
      expect(balance?.available).toBe(last);
      expect(balance?.available).toBe(50 - consumed);
    }
  });

  describe('consumeForReceipt', () => {
    const receiptRows = (merchantId: string) =>
      t.gateway.deps.db
        .selectFrom('billing_ledger')
        .selectAll()
        .where('merchant_id', '=', merchantId)
        .where('counter', '=', 'receipts')
        .orderBy('id')
        .execute();

    it('records a receipt linked to a payment of the service with delta 0, once', async () => {
      const a = await h.liveAccount();
      const uuid = await h.createAndComplete(a);
      const issue = () =>
        t.gateway.deps.transact((trx) =>
          consumeForReceipt(t.gateway.deps, trx, {
            merchantId: a.merchantId,
            receiptId: 'rcpt-linked',
            linkedPaymentId: uuid,
          }),
        );
      expect(await issue()).toBe(true);
      expect(await issue()).toBe(false);
      const rows = await receiptRows(a.merchantId);
      expect(rows.map((r) => [r.event_type, r.ref_id, Number(r.delta), Number(r.balance_after)])).toEqual([
        ['signup_grant', null, 50, 50],
        ['receipt', 'rcpt-linked', 0, 50],
      ]);
      expect((await h.balances(a.liveKey))[1]).toMatchObject({ counter: 'receipts', available: 50 });
    });

    it('takes one receipts unit for an unlinked receipt, once per receipt', async () => {
      const a = await h.liveAccount();
      const issue = (receiptId: string, linkedPaymentId: string | null) =>
        t.gateway.deps.transact((trx) =>
          consumeForReceipt(t.gateway.deps, trx, { merchantId: a.merchantId, receiptId, linkedPaymentId }),
        );
      expect(await issue('rcpt-1', null)).toBe(true);
      expect(await issue('rcpt-1', null)).toBe(false);
      // Linked to a payment that is not this merchant's: not a payment of the service for it.
      const stranger = await h.liveAccount();
      const strangerPayment = await h.createAndComplete(stranger);
      expect(await issue('rcpt-2', strangerPayment)).toBe(true);
      expect(await issue('rcpt-3', randomUUID())).toBe(true);
      const rows = await receiptRows(a.merchantId);
      expect(rows.map((r) => [r.event_type, r.ref_type, r.ref_id, Number(r.delta), Number(r.balance_after)])).toEqual([
        ['signup_grant', null, null, 50, 50],
        ['receipt', 'receipt', 'rcpt-1', -1, 49],
        ['receipt', 'receipt', 'rcpt-2', -1, 48],
        ['receipt', 'receipt', 'rcpt-3', -1, 47],
      ]);
      expect((await h.balances(a.liveKey))[1]).toMatchObject({ counter: 'receipts', available: 47 });
      expect((await h.balances(a.liveKey))[0]).toMatchObject({ counter: 'transactions', available: 50 });
    });

    it('records delta 0 for an unlimited account', async () => {
      const a = await h.liveAccount({ unlimited: true });
      await t.gateway.deps.transact((trx) =>
        consumeForReceipt(t.gateway.deps, trx, { merchantId: a.merchantId, receiptId: 'r-u', linkedPaymentId: null }),
      );
      expect(
        (await receiptRows(a.merchantId)).map((r) => [r.event_type, Number(r.delta), Number(r.balance_after)]),
      ).toEqual([
        ['signup_grant', 50, 50],
        ['receipt', 0, 50],
      ]);
    });
  });
});

describe.each(DIALECTS)('402 BALANCE_EXHAUSTED on %s', (dialect) => {
  let t: TestGateway;
  const live = livePaymentsRouter();
  const h = helpers(() => t);

  beforeAll(async () => {
    t = await startTestGateway(dialect, {
      routers: [live.router],
      env: { GATEWAY_RATE_LIMIT_PER_MINUTE: '100000', GATEWAY_SIGNUP_GRANT: '2', GATEWAY_GRACE_UNITS: '1' },
    });
    live.bind(t.gateway.deps);
  });
  afterAll(async () => t?.close());

  function expectExhausted(res: ApiResponse, available: number): void {
    expect(res.status, res.text).toBe(402);
    expect(Object.keys(res.body).sort()).toEqual(
      ['available', 'docs_url', 'error', 'grace_floor', 'message', 'request_id', 'top_up_url'].sort(),
    );
    expect(res.body.error).toBe('BALANCE_EXHAUSTED');
    expect(res.body.available).toBe(available);
    expect(res.body.grace_floor).toBe(-1);
    expect(res.body.top_up_url).toBe(`${PUBLIC_URL}/docs/billing#top-up`);
    expect(res.body.docs_url).toBe(`${PUBLIC_URL}/docs/errors#BALANCE_EXHAUSTED`);
  }

  it('refuses new live payments once the balance reaches the grace floor; test payments still work', async () => {
    const a = await h.liveAccount();
    await h.createAndComplete(a);
    await h.createAndComplete(a);
    // 0: still above the floor of -1.
    await h.createAndComplete(a);
    expect((await h.balances(a.liveKey))[0]).toMatchObject({ available: -1, grace_floor: -1, blocked: 'yes' });
    const refused = await h.createLive(a, { amount: 500 });
    expectExhausted(refused, -1);
    // The refusal created nothing.
    const payments = await t.gateway.deps.db
      .selectFrom('payments')
      .select('id')
      .where('merchant_id', '=', a.merchantId)
      .execute();
    expect(payments).toHaveLength(3);
    // An Idempotency-Key used for a refused payment is released, not replayed as a success.
    const keyed = await t.call('POST', '/api/v1/payments', {
      key: a.liveKey,
      headers: { 'Idempotency-Key': 'refused-once' },
      body: paymentBody({ order_id: 'refused-order', return_url: `https://${a.host}/done` }),
    });
    expectExhausted(keyed, -1);

    // Never for test payments, sandbox payments or payments under the free threshold.
    expect((await t.call('POST', '/api/v1/payments', { key: a.testKey, body: paymentBody() })).status).toBe(201);
    expect((await h.createLive(a, { processor: 'sandbox' })).status).toBe(201);
    expect((await h.createLive(a, { amount: 499 })).status).toBe(201);
    // The test flow still completes a payment end to end.
    const test = await t.call('POST', '/api/v1/payments', { key: a.testKey, body: paymentBody() });
    const paid = await t.call('POST', `/api/v1/test_helpers/payments/${test.body.uuid}/pay`, {
      key: a.testKey,
      body: { card_number: APPROVED },
    });
    expect(paid.body.status).toBe('completed');
    // The refused page exists.
    expect((await t.call('GET', '/docs/billing')).status).toBe(200);
  });

  it('lets a payment created before the block complete and consume (the balance may pass the floor)', async () => {
    const a = await h.liveAccount();
    const pending = await Promise.all([h.createLive(a), h.createLive(a), h.createLive(a), h.createLive(a)]);
    for (const res of pending) expect(res.status, res.text).toBe(201);
    for (const res of pending) expect((await completeLivePayment(t, res.body.uuid as string)).status).toBe(200);
    expect((await h.balances(a.liveKey))[0]).toMatchObject({ available: -2, blocked: 'yes' });
    expectExhausted(await h.createLive(a), -2);
  });

  it('never refuses unlimited accounts', async () => {
    const a = await h.liveAccount({ unlimited: true });
    for (let i = 0; i < 4; i += 1) await h.createAndComplete(a);
    expect((await h.balances(a.liveKey))[0]).toMatchObject({ available: 2, blocked: 'no', unlimited: true });
    expect((await h.createLive(a)).status).toBe(201);
  });
});

describe.each(DIALECTS)('402 before any balance exists on %s', (dialect) => {
  let t: TestGateway;

  beforeAll(async () => {
    t = await startTestGateway(dialect, { env: { GATEWAY_SIGNUP_GRANT: '0', GATEWAY_GRACE_UNITS: '0' } });
  });
  afterAll(async () => t?.close());

  it('reads a missing balance as the signup grant', async () => {
    const host = uniqueHost('billing-use');
    const m = await t.liveMerchant(host);
    const res = await t.call('POST', '/api/v1/payments', {
      key: m.liveKey,
      body: paymentBody({ return_url: `https://${host}/done` }),
    });
    expect(res.status, res.text).toBe(402);
    expect(res.body).toMatchObject({ error: 'BALANCE_EXHAUSTED', available: 0, grace_floor: 0 });
    const rows = await t.gateway.deps.db
      .selectFrom('billing_balances')
      .select('counter')
      .where('merchant_id', '=', m.merchantId)
      .execute();
    expect(rows).toHaveLength(0);
    expect((await t.call('POST', '/api/v1/payments', { key: m.testKey, body: paymentBody() })).status).toBe(201);
  });
});
