/**
 * Exactly once across instances and restarts (docs/receipts.md "Exactly once"): two gateway
 * instances on one PostgreSQL issue receipts for the same payments at the same time, on two
 * registers, and each payment gets one receipt, each register one print per payment, with its
 * sequence numbers reaching it in order; a try whose process died after claiming it is searched
 * for, found absent and issued once.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE_MS, toStoredInstant } from '../../gateway/domain/clock.js';
import { createApiKey } from '../../gateway/merchants/api-keys.service.js';
import { setProcessorEnabled } from '../../gateway/merchants/domain-processors.service.js';
import { addDomain } from '../../gateway/merchants/domains.service.js';
import { issueDueReceipts } from '../../gateway/receipts/issuer.js';
import { TRY_LEASE_MS } from '../../gateway/receipts/issuing-schedule.js';
import { enableReceipts } from '../../gateway/receipts/receipts-admin.service.js';
import { paymentBody, type TestGateway, uniqueHost } from '../support/gateway.js';
import { FakeAmeria } from '../support/processors/fake-ameria.js';
import { payAtAmeria, startLiveGateway } from '../support/processors/live-gateway.js';
import { FakeEhdm } from '../support/receipts/fake-ehdm.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests read nested API answers
type Json = Record<string, any>;

describe('fiscal receipts with two gateway instances on one PostgreSQL', () => {
  let first: TestGateway;
  let second: TestGateway;
  let ameria: FakeAmeria;
  const registers: FakeEhdm[] = [];
  const hosts: string[] = [];
  let liveKey: string;

  beforeAll(async () => {
    first = await startLiveGateway('postgres');
    second = await startLiveGateway('postgres', { databaseUrl: first.gateway.deps.config.databaseUrl });
    // Issuing is driven by the test, on both instances at once.
    await first.gateway.scheduler.stop();
    await second.gateway.scheduler.stop();
    ameria = await FakeAmeria.start({ testAmountRule: false, now: () => first.clock.nowMs() });
    const deps = first.gateway.deps;
    const { merchantId } = await first.merchant({ name: 'Sevan Fish', verifyBusiness: true, unlimited: true });
    for (const [index, crn] of ['53010001', '53010002'].entries()) {
      const ehdm = await FakeEhdm.start({ crn });
      registers.push(ehdm);
      const host = uniqueHost(`fish${index}`);
      hosts.push(host);
      await addDomain(deps, { merchantId, host, verified: true });
      await setProcessorEnabled(deps, {
        merchantId,
        host,
        processor: 'ameria',
        enabled: true,
        config: JSON.stringify({
          ...ameria.settings(),
          // The fake bank takes OrderIDs 2350301-2350400: half each.
          order_id_min: 2350301 + index * 50,
          order_id_max: 2350350 + index * 50,
        }),
      });
      await enableReceipts(deps, { merchantId, host, system: 'ehdm', config: JSON.stringify(ehdm.config) });
    }
    liveKey = (await createApiKey(deps, { merchantId, environment: 'live', access: 'full' })).key;
  });

  afterAll(async () => {
    await second?.close();
    await first?.close();
    await ameria?.close();
    for (const ehdm of registers) await ehdm.close();
  });

  async function paidLive(host: string, amount: number): Promise<string> {
    const created = await first.call('POST', '/api/v1/payments', {
      key: liveKey,
      body: paymentBody({
        amount,
        return_url: `https://${host}/done`,
        order_id: `o-${randomUUID()}`,
        processor: 'ameria',
        redirect_mode: 'direct',
      }),
    });
    expect(created.status, created.text).toBe(201);
    await payAtAmeria(new URL(ameria.baseUrl).origin, String(created.body.checkout_url));
    return String(created.body.uuid);
  }

  async function receiptRows(uuids: readonly string[]): Promise<Json[]> {
    return (await first.gateway.deps.db
      .selectFrom('receipts')
      .selectAll()
      .where('payment_id', 'in', [...uuids])
      .execute()) as Json[];
  }

  /** Both instances issue at once, four claims in flight, until nothing is due. */
  async function issueTogether(): Promise<void> {
    for (let round = 0; round < 20; round += 1) {
      const handled = await Promise.all([
        issueDueReceipts(first.gateway.deps, 3),
        issueDueReceipts(second.gateway.deps, 3),
        issueDueReceipts(first.gateway.deps, 3),
        issueDueReceipts(second.gateway.deps, 3),
      ]);
      if (handled.every((n) => n === 0)) return;
    }
  }

  it('issues one receipt per payment when both instances issue at the same time', async () => {
    const uuids: string[] = [];
    for (let i = 0; i < 12; i += 1) uuids.push(await paidLive(hosts[i % 2] as string, 1000 + i));
    // Each register answers slowly, so that claims overlap.
    for (const ehdm of registers) for (let i = 0; i < 6; i += 1) ehdm.failNext('print', { kind: 'delay', ms: 60 });
    await issueTogether();

    const rows = await receiptRows(uuids);
    expect(rows).toHaveLength(12);
    expect(rows.every((row) => row.status === 'issued')).toBe(true);
    for (const [index, ehdm] of registers.entries()) {
      const mine = uuids.filter((_, i) => i % 2 === index);
      const amounts = ehdm.receipts.map((r) => r.cardLuma / 100).sort((a, b) => a - b);
      expect(amounts).toEqual(mine.map((_, i) => 1000 + index + 2 * i));
      // Every print was accepted: the sequence numbers reached the register in increasing order.
      const prints = ehdm.calls('print');
      expect(prints).toHaveLength(6);
      const seqs = prints.map((call) => Number(call.body.seq));
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(new Set(seqs).size).toBe(seqs.length);
      // Each receipt row holds its own fiscal id of this register.
      const fiscalIds = rows.filter((row) => row.register === `ehdm:${ehdm.crn}`).map((row) => row.fiscal_id);
      expect(new Set(fiscalIds).size).toBe(6);
    }
  });

  it('searches for a try whose process died after claiming it, finds nothing and issues it once', async () => {
    const uuid = await paidLive(hosts[0] as string, 4321);
    const [row] = await receiptRows([uuid]);
    const ehdm = registers[0] as FakeEhdm;
    const prints = ehdm.calls('print').length;
    // What a claim writes, then the process dies: no print was sent.
    const now = first.clock.nowMs();
    await first.gateway.deps.db
      .updateTable('receipts')
      .set({
        status: 'issuing',
        register: `ehdm:${ehdm.crn}`,
        seq: 1_000_000,
        attempts: 1,
        attempt_started_at: toStoredInstant(now),
        first_attempt_at: toStoredInstant(now),
        search_after: String(ehdm.receipts.length),
        next_attempt_at: toStoredInstant(now + TRY_LEASE_MS),
      })
      .where('id', '=', String(row?.id))
      .execute();
    await issueTogether();
    expect((await receiptRows([uuid]))[0]?.status).toBe('issuing');

    for (const t of [first, second]) t.clock.advance(TRY_LEASE_MS + MINUTE_MS);
    await issueTogether();
    const [done] = await receiptRows([uuid]);
    expect(done).toMatchObject({ status: 'issued', searches: 1 });
    expect(ehdm.calls('print').length).toBe(prints + 1);
    expect(ehdm.calls('getReturnedReceiptInfo').length).toBeGreaterThan(0);
    expect(ehdm.receipts.filter((r) => r.cardLuma === 432_100)).toHaveLength(1);
  });
});
