/**
 * `bin/gateway purchase credit --reference REF` as an operator runs it (in the test process,
 * test/support/cli-in-process.ts) on the database of a running test gateway (both dialects),
 * crediting a bank-transfer purchase once.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_TEST_TIMEOUT_MS, gateway } from '../support/cli-in-process.js';
import { DIALECTS } from '../support/databases.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

describe.each(DIALECTS)('bin/gateway purchase credit on %s', { timeout: CLI_TEST_TIMEOUT_MS }, (dialect) => {
  let t: TestGateway;
  let url: string;

  beforeAll(async () => {
    t = await startTestGateway(dialect, { env: { GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' } });
    url = t.gateway.deps.config.databaseUrl;
  });
  afterAll(async () => t?.close());

  const transfer = async (key: string, counter: string, quantity: number) => {
    const res = await t.call('POST', '/api/v1/billing/purchases', {
      key,
      body: { counter, quantity },
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.method).toBe('bank_transfer');
    return res.body as { id: string; reference: string };
  };

  const available = async (key: string, counter: string): Promise<number> => {
    const res = await t.call<Array<Record<string, unknown>>>('GET', '/api/v1/billing/balances', { key });
    return res.body.find((b) => b.counter === counter)?.available as number;
  };

  it('credits a bank transfer once and refuses a second credit without changing the balance', async () => {
    const m = await t.merchant({ verifyBusiness: true });
    const before = await available(m.testKey, 'receipts');
    const p = await transfer(m.testKey, 'receipts', 250);

    const first = await gateway(url, 'purchase', 'credit', '--reference', p.reference, '--json');
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const printed = JSON.parse(first.stdout) as Record<string, unknown>;
    expect(Object.keys(printed)).toEqual([
      'purchase_id',
      'merchant_id',
      'counter',
      'quantity',
      'status',
      'balance_after',
    ]);
    expect(printed).toEqual({
      purchase_id: p.id,
      merchant_id: m.merchantId,
      counter: 'receipts',
      quantity: 250,
      status: 'paid',
      balance_after: before + 250,
    });
    expect(await available(m.testKey, 'receipts')).toBe(before + 250);
    const read = await t.call('GET', `/api/v1/billing/purchases/${p.id}`, { key: m.testKey });
    expect(read.body.status).toBe('paid');

    const second = await gateway(url, 'purchase', 'credit', '--reference', p.reference, '--json');
    expect(second.code).toBe(1);
    expect(second.stdout).toBe('');
    expect(JSON.parse(second.stderr).error).toMatch(/already credited/);
    expect(await available(m.testKey, 'receipts')).toBe(before + 250);
    const ledger = await t.gateway.deps.db
      .selectFrom('billing_ledger')
      .selectAll()
      .where('ref_id', '=', p.id)
      .execute();
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ event_type: 'purchase', ref_type: 'purchase', counter: 'receipts' });
    expect(Number(ledger[0]?.delta)).toBe(250);
  });

  it('accepts the reference as typed from a bank statement (any case, no dashes) and prints text without --json', async () => {
    const m = await t.merchant({ verifyBusiness: true });
    const p = await transfer(m.testKey, 'transactions', 777);
    const typed = p.reference.replace(/-/g, '').toLowerCase();
    const result = await gateway(url, 'purchase', 'credit', '--reference', typed);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`Purchase ${p.id} credited: +777 transactions`);
  });

  it('refuses an unknown reference (exit 1) and a missing --reference (exit 2)', async () => {
    const unknown = await gateway(url, 'purchase', 'credit', '--reference', 'GW-2222-2222');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no bank-transfer purchase has the reference GW-2222-2222/);
    const missing = await gateway(url, 'purchase', 'credit');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--reference is required/);
  });

  it('refuses to credit a card purchase by reference', async () => {
    const m = await t.merchant({ verifyBusiness: true });
    const card = await t.call('POST', '/api/v1/billing/purchases', {
      key: m.testKey,
      body: { counter: 'transactions', quantity: 100 },
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(card.body.reference).toBeNull();
    const before = await available(m.testKey, 'transactions');
    const result = await gateway(url, 'purchase', 'credit', '--reference', card.body.id as string);
    expect(result.code).toBe(1);
    expect(await available(m.testKey, 'transactions')).toBe(before);
  });
});
