/**
 * Concurrent refunds of one payment over HTTP on both databases: however the requests interleave,
 * the refunds that succeed never total more than the payment's amount, the database agrees with
 * itself (sum of succeeded refunds = `refunded_amount`, nothing left reserved), and each loser gets
 * the code of its precise condition. Also: many simultaneous full refunds make exactly one, and
 * many simultaneous retries with one `Idempotency-Key` make exactly one refund.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listPaymentEvents } from '../../storage/outbox-event.repository.js';
import { findPaymentRow } from '../../storage/payment.repository.js';
import { listPaymentRefunds } from '../../storage/refund.repository.js';
import { DIALECTS } from '../support/databases.js';
import {
  type ApiResponse,
  paymentBody,
  startTestGateway,
  type TestGateway,
  type TestMerchant,
} from '../support/gateway.js';

type Json = Record<string, unknown>;

describe.each(DIALECTS)('concurrent refunds on %s', (dialect) => {
  let t: TestGateway;
  let m: TestMerchant;

  beforeAll(async () => {
    t = await startTestGateway(dialect, { env: { GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' } });
    m = await t.merchant();
  });
  afterAll(async () => t?.close());

  async function paidPayment(amount: number): Promise<string> {
    const created = await t.call('POST', '/api/v1/payments', { key: m.testKey, body: paymentBody({ amount }) });
    expect(created.status, created.text).toBe(201);
    const uuid = String(created.body.uuid);
    const paid = await t.call('POST', `/api/v1/test_helpers/payments/${uuid}/pay`, {
      key: m.testKey,
      body: { card_number: '4111 1111 1111 1111' },
    });
    expect(paid.body.status).toBe('completed');
    return uuid;
  }

  function refund(uuid: string, body?: Json, headers: Record<string, string> = {}): Promise<ApiResponse> {
    return t.call('POST', `/api/v1/payments/${uuid}/refund`, {
      key: m.testKey,
      headers,
      ...(body === undefined ? {} : { body }),
    });
  }

  /** The database's own view: succeeded refunds add up to refunded_amount, within the amount, nothing reserved. */
  async function expectConsistent(uuid: string, expectedRefunded: number): Promise<void> {
    const payment = await findPaymentRow(t.gateway.deps.db, uuid);
    const refunds = await listPaymentRefunds(t.gateway.deps.db, uuid);
    const succeeded = refunds.filter((r) => r.status === 'succeeded');
    const sum = succeeded.reduce((total, r) => total + Number(r.amount), 0);
    expect(payment?.refunded_amount).toBe(expectedRefunded);
    expect(sum).toBe(expectedRefunded);
    expect(sum).toBeLessThanOrEqual(Number(payment?.amount));
    expect(payment?.refund_reserved_amount).toBe(0);
    expect(refunds.every((r) => r.status === 'succeeded')).toBe(true);
    expect(payment?.status).toBe(expectedRefunded === Number(payment?.amount) ? 'refunded' : 'completed');
    const events = (await listPaymentEvents(t.gateway.deps.db, uuid)).filter((e) => e.event === 'payment.refunded');
    expect(events).toHaveLength(succeeded.length);
  }

  it.each([1, 2, 3])(
    'round %i: 20 simultaneous refunds of 300 on 5000 -> exactly 16 succeed (4800), never more',
    async () => {
      const uuid = await paidPayment(5000);
      const results = await Promise.all(Array.from({ length: 20 }, () => refund(uuid, { amount: 300 })));
      const succeeded = results.filter((r) => r.status === 201);
      const refused = results.filter((r) => r.status !== 201);
      expect(succeeded).toHaveLength(16);
      expect(refused).toHaveLength(4);
      // A loser either saw the amount already refunded (422) or still held by refunds in flight (409).
      for (const res of refused) {
        expect([
          [422, 'amount_exceeds_remaining'],
          [409, 'refund_in_progress'],
        ]).toContainEqual([res.status, res.body.error]);
      }
      const totals = succeeded.map((r) => Number(r.body.refunded_amount)).sort((a, b) => a - b);
      expect(Math.max(...totals)).toBe(4800);
      expect(new Set(totals).size).toBe(16);
      expect(new Set(succeeded.map((r) => r.body.uuid)).size).toBe(16);
      await expectConsistent(uuid, 4800);

      // Once nothing is in flight, the rule is plain: 300 no longer fits, the last 200 does.
      const over = await refund(uuid, { amount: 300 });
      expect([over.status, over.body.error, over.body.remaining_amount]).toEqual([
        422,
        'amount_exceeds_remaining',
        200,
      ]);
      const rest = await refund(uuid);
      expect(rest.status, rest.text).toBe(201);
      expect(rest.body).toMatchObject({ amount: 200, refunded_amount: 5000, payment_status: 'refunded' });
      await expectConsistent(uuid, 5000);
    },
  );

  it('20 simultaneous refunds of mixed amounts never total more than the amount', async () => {
    const uuid = await paidPayment(3000);
    const amounts = Array.from({ length: 20 }, (_, i) => 100 + ((i * 37) % 400));
    const results = await Promise.all(amounts.map((amount) => refund(uuid, { amount })));
    const succeeded = results.filter((r) => r.status === 201);
    const total = succeeded.reduce((sum, r) => sum + Number(r.body.amount), 0);
    expect(total).toBeLessThanOrEqual(3000);
    expect(total).toBeGreaterThan(0);
    for (const res of results.filter((r) => r.status !== 201)) {
      expect(['amount_exceeds_remaining', 'refund_in_progress', 'already_refunded']).toContain(res.body.error);
    }
    await expectConsistent(uuid, total);
  });

  it.each([1, 2])('round %i: 20 simultaneous full refunds (amount omitted) -> exactly one succeeds', async () => {
    const uuid = await paidPayment(5000);
    const results = await Promise.all(Array.from({ length: 20 }, () => refund(uuid)));
    const succeeded = results.filter((r) => r.status === 201);
    expect(succeeded).toHaveLength(1);
    expect(succeeded[0]?.body).toMatchObject({ amount: 5000, refunded_amount: 5000, payment_status: 'refunded' });
    for (const res of results.filter((r) => r.status !== 201)) {
      expect(res.status, res.text).toBe(409);
      expect(['refund_in_progress', 'already_refunded']).toContain(res.body.error);
    }
    await expectConsistent(uuid, 5000);
  });

  it('20 simultaneous requests with one Idempotency-Key make exactly one refund', async () => {
    const uuid = await paidPayment(5000);
    const headers = { 'Idempotency-Key': `race-${uuid}` };
    const results = await Promise.all(Array.from({ length: 20 }, () => refund(uuid, { amount: 700 }, headers)));
    const created = results.filter((r) => r.status === 201);
    expect(created).toHaveLength(1);
    const refundUuid = created[0]?.body.uuid;
    for (const res of results.filter((r) => r.status !== 201)) {
      if (res.status === 200) {
        expect(res.headers.get('idempotent-replayed')).toBe('true');
        expect(res.body.uuid).toBe(refundUuid);
      } else {
        // Still being processed by the first request: `conflict` before the refund was reserved,
        // `refund_in_progress` (naming the same refund) after.
        expect(res.status, res.text).toBe(409);
        expect(['conflict', 'refund_in_progress']).toContain(res.body.error);
        if (res.body.error === 'refund_in_progress') expect((res.body.refund as Json).uuid).toBe(refundUuid);
      }
    }
    await expectConsistent(uuid, 700);
    const replay = await refund(uuid, { amount: 700 }, headers);
    expect(replay.status).toBe(200);
    expect(replay.body.uuid).toBe(refundUuid);
  });
});
