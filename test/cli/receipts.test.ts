/**
 * `bin/gateway receipts ...` as an operator runs it (in the test process,
 * test/support/cli-in-process.ts) on the gateway's database (SQLite; the commands share the
 * services the API tests run on both dialects). Settings are validated, checked against e-HDM when
 * entered (refused with its own answer) and never printed back; `check` asks the e-HDM fake over
 * mutual TLS; a failed receipt is retried; a receipt whose outcome is unknown is resolved by a
 * person.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toStoredInstant } from '../../gateway/domain/clock.js';
import { newReceiptRow } from '../../gateway/receipts/receipts.service.js';
import { nextRegisterSeq } from '../../storage/receipt.repository.js';
import { CLI_TEST_TIMEOUT_MS, type CliResult, gatewayWith } from '../support/cli-in-process.js';
import { freshDatabase, type TestDatabase } from '../support/databases.js';
import { startTestGateway, type TestGateway, uniqueHost } from '../support/gateway.js';
import { FakeEhdm } from '../support/receipts/fake-ehdm.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests read nested API answers
type Json = Record<string, any>;

function parsed(result: CliResult): Json {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Json;
}

describe('receipts from bin/gateway', { timeout: CLI_TEST_TIMEOUT_MS }, () => {
  let database: TestDatabase;
  let t: TestGateway;
  let ehdm: FakeEhdm;
  const cli = (...args: string[]) =>
    gatewayWith({ DATABASE_URL: database.url, GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1' }, ...args);

  beforeAll(async () => {
    database = await freshDatabase('sqlite', 'gateway');
    t = await startTestGateway('sqlite', { databaseUrl: database.url });
    ehdm = await FakeEhdm.start();
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
    await ehdm?.close();
  });

  it('enables with validated settings it never prints back, checks them against e-HDM, and disables', async () => {
    const host = uniqueHost('cli');
    const m = await t.merchant({ domains: [host], verifyDomains: true });
    const bad = await cli(
      'receipts',
      'enable',
      '--merchant',
      m.merchantId,
      '--host',
      host,
      '--config',
      JSON.stringify({ ...ehdm.config, tin: 'not-a-tin-7731' }),
      '--json',
    );
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('tin');
    expect(bad.stderr).not.toContain('not-a-tin-7731');

    // A CRN e-HDM does not know is refused when the settings are entered, with e-HDM's own answer.
    const wrongCrn = await cli(
      'receipts',
      'enable',
      '--merchant',
      m.merchantId,
      '--host',
      host,
      '--config',
      JSON.stringify({ ...ehdm.config, crn: '59999999' }),
      '--json',
    );
    expect(wrongCrn.code).toBe(1);
    expect(wrongCrn.stdout).toBe('');
    expect(JSON.parse(wrongCrn.stderr)).toEqual({
      error:
        'these settings do not work with ehdm (nothing was changed): checkConnection answered code 403 UNAUTHORIZED_CONNECTION "The connection is not authorized for this cash register"',
    });
    expect(ehdm.calls('checkConnection')).toHaveLength(1);
    const notKept = await cli('receipts', 'check', '--merchant', m.merchantId, '--host', host);
    expect(notKept.stderr).toContain('does not issue receipts');

    const enabled = await cli(
      'receipts',
      'enable',
      '--merchant',
      m.merchantId,
      '--host',
      host,
      '--config',
      JSON.stringify(ehdm.config),
      '--json',
    );
    expect(parsed(enabled)).toEqual({ merchant_id: m.merchantId, host, system: 'ehdm', retried: 0 });
    expect(enabled.stdout).not.toContain('PRIVATE KEY');

    const checked = parsed(await cli('receipts', 'check', '--merchant', m.merchantId, '--host', host, '--json'));
    expect(checked).toEqual({ host, system: 'ehdm', ok: true, detail: null });
    // Once when the settings were entered, once for the check.
    expect(ehdm.calls('checkConnection')).toHaveLength(3);

    const testOnly = parsed(
      await cli('receipts', 'enable', '--merchant', m.merchantId, '--host', host, '--test', '--json'),
    );
    expect(testOnly.system).toBe('test');
    const both = await cli(
      'receipts',
      'enable',
      '--merchant',
      m.merchantId,
      '--host',
      host,
      '--test',
      '--config',
      '{}',
    );
    expect(both.code).not.toBe(0);
    expect(both.stderr).toContain('--test excludes --config');

    const disabled = parsed(await cli('receipts', 'disable', '--merchant', m.merchantId, '--host', host, '--json'));
    expect(disabled.system).toBeNull();
    const none = await cli('receipts', 'check', '--merchant', m.merchantId, '--host', host);
    expect(none.code).not.toBe(0);
    expect(none.stderr).toContain('does not issue receipts');
  });

  it('lists receipts, retries a failed one and resolves an unknown one after a person looked in the register', async () => {
    const host = uniqueHost('cli');
    const m = await t.merchant({ domains: [host], verifyDomains: true });
    parsed(
      await cli(
        'receipts',
        'enable',
        '--merchant',
        m.merchantId,
        '--host',
        host,
        '--config',
        JSON.stringify(ehdm.config),
        '--json',
      ),
    );
    const deps = t.gateway.deps;
    const domain = await deps.db.selectFrom('domains').select('id').where('host', '=', host).executeTakeFirstOrThrow();
    const now = toStoredInstant(t.clock.nowMs());
    // Two receipts as the issuer leaves them: one refused for good, one whose try had no answer.
    const row = (status: 'failed' | 'unknown', amount: number) => ({
      ...newReceiptRow(deps, {
        merchant_id: m.merchantId,
        environment: 'live',
        domain_id: domain.id,
        type: 'sale',
        issue_key: `api:${randomUUID()}`,
        payment_id: null,
        refund_id: null,
        sale_receipt_id: null,
        system: 'ehdm',
        sandbox: 0,
        card_amount: 0,
        cash_amount: amount,
        lines: JSON.stringify([
          { name: 'Fish', classification: null, code: null, unit: null, quantityMilli: 1000, unitPrice: amount },
        ]),
      }),
      status,
      register: `ehdm:${ehdm.crn}`,
      seq: 7,
      attempts: 1,
      searches: 3,
      next_attempt_at: null,
      first_attempt_at: now,
      attempt_started_at: now,
      last_error: status === 'failed' ? 'refused: 403' : 'outcome unknown',
    });
    const failed = row('failed', 1100);
    const unknown = row('unknown', 1200);
    await deps.db.insertInto('receipts').values([failed, unknown]).execute();

    const listed = parsed(await cli('receipts', 'list', '--merchant', m.merchantId, '--json'));
    expect(listed.receipts.map((r: Json) => [r.id, r.status]).sort()).toEqual(
      [
        [failed.id, 'failed'],
        [unknown.id, 'unknown'],
      ].sort(),
    );
    const onlyFailed = parsed(
      await cli('receipts', 'list', '--merchant', m.merchantId, '--status', 'failed', '--json'),
    );
    expect(onlyFailed.receipts.map((r: Json) => r.id)).toEqual([failed.id]);

    expect(parsed(await cli('receipts', 'retry', '--receipt', failed.id, '--json')).status).toBe('pending');
    const again = await cli('receipts', 'retry', '--receipt', failed.id);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('only a failed receipt is retried');

    // A till printed the sale on the register (the person then saw it there).
    const seq = await nextRegisterSeq(deps.db, `ehdm:${ehdm.crn}`, now);
    const issued = await fetchPrint(ehdm, { cashAmount: 1200, seq });
    const wrong = await cli('receipts', 'resolve', '--receipt', unknown.id, '--fiscal-id', String(issued + 5));
    expect(wrong.code).not.toBe(0);
    const resolved = parsed(
      await cli('receipts', 'resolve', '--receipt', unknown.id, '--fiscal-id', String(issued), '--json'),
    );
    expect(resolved).toMatchObject({ id: unknown.id, status: 'issued', fiscal_id: String(issued) });
    const neither = await cli('receipts', 'resolve', '--receipt', unknown.id);
    expect(neither.code).not.toBe(0);
  });
});

/** Prints a cash sale at the fake directly (as a till would), answering its receipt id. */
async function fetchPrint(ehdm: FakeEhdm, input: { cashAmount: number; seq: number }): Promise<number> {
  const { ehdmFiscalSystem } = await import('../../gateway/receipts/ehdm/adapter.js');
  const { createProcessorHttp } = await import('../../gateway/processors/http.js');
  const http = createProcessorHttp({ allowPrivate: true });
  try {
    const answer = await ehdmFiscalSystem.issueSale(
      { config: ehdm.config, http },
      {
        seq: input.seq,
        cardAmount: 0,
        cashAmount: input.cashAmount,
        lines: [
          {
            name: 'Fish',
            classification: null,
            code: null,
            unit: null,
            quantityMilli: 1000,
            unitPrice: input.cashAmount,
          },
        ],
      },
    );
    if (answer.kind !== 'issued') throw new Error(`the fake did not issue: ${JSON.stringify(answer)}`);
    return Number(answer.receipt.fiscalId);
  } finally {
    http.close();
  }
}
