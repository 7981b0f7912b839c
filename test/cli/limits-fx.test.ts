/**
 * `bin/gateway domain limits` and `bin/gateway fx set|remove|list` as an operator runs them (in the
 * test process with services of their own, test/support/cli-in-process.ts) beside a running
 * gateway on the same database, on both dialects. What the CLI sets is applied by the gateway from
 * the very next request (the account version for limits; rates are read at each payment).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_TEST_TIMEOUT_MS, type CliResult, gatewayWith } from '../support/cli-in-process.js';
import { DIALECTS, freshDatabase, type TestDatabase } from '../support/databases.js';
import { paymentBody, startTestGateway, type TestGateway, uniqueHost } from '../support/gateway.js';

type Json = Record<string, unknown>;

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function parsed(result: CliResult): Json {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Json;
}

describe.each(DIALECTS)('limits and rates from bin/gateway on %s', { timeout: CLI_TEST_TIMEOUT_MS }, (dialect) => {
  let database: TestDatabase;
  let t: TestGateway;
  const cli = (...args: string[]) => gatewayWith({ DATABASE_URL: database.url }, ...args);

  beforeAll(async () => {
    database = await freshDatabase(dialect, 'gateway');
    t = await startTestGateway(dialect, {
      databaseUrl: database.url,
      env: { GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  it('shows and sets a domain limits, and the running gateway applies them at the next request', async () => {
    const host = uniqueHost();
    const m = await t.merchant({ domains: [host], verifyDomains: true });
    const create = (body: Json) =>
      t.call('POST', '/api/v1/payments', { key: m.testKey, body: paymentBody({ domain: host, ...body }) });
    // The gateway reads (and keeps) the domain before the change.
    expect((await create({ amount: 20_001 })).status).toBe(201);

    const shown = parsed(await cli('domain', 'limits', '--merchant', m.merchantId, '--host', host, '--json'));
    expect(shown).toEqual({
      merchant_id: m.merchantId,
      host,
      max_amount: 5_000_000,
      velocity_limit: 10,
      velocity_window_minutes: 60,
      domain_settings: { max_amount: null, velocity_limit: null, velocity_window_minutes: null },
    });

    const set = parsed(
      await cli(
        'domain',
        'limits',
        '--merchant',
        m.merchantId,
        '--host',
        host.toUpperCase(),
        '--max-amount',
        '20000',
        '--velocity',
        '2',
        '--velocity-window-minutes',
        '30',
        '--json',
      ),
    );
    expect(set).toEqual({
      merchant_id: m.merchantId,
      host,
      max_amount: 20_000,
      velocity_limit: 2,
      velocity_window_minutes: 30,
      domain_settings: { max_amount: 20_000, velocity_limit: 2, velocity_window_minutes: 30 },
    });
    const over = await create({ amount: 20_001 });
    expect(over.status, over.text).toBe(422);
    expect(over.body).toMatchObject({ error: 'amount_limit_exceeded', max_amount: 20_000 });

    const buyer = { customer_id: 'cli-buyer' };
    expect((await create(buyer)).status).toBe(201);
    expect((await create(buyer)).status).toBe(201);
    const fast = await create(buyer);
    expect(fast.body).toMatchObject({ error: 'velocity_exceeded', velocity_limit: 2, velocity_window_minutes: 30 });

    const off = parsed(
      await cli('domain', 'limits', '--merchant', m.merchantId, '--host', host, '--no-velocity', '--json'),
    );
    expect(off).toMatchObject({ max_amount: 20_000, velocity_limit: 0, velocity_window_minutes: 30 });
    expect((await create(buyer)).status).toBe(201);

    const reset = parsed(
      await cli(
        'domain',
        'limits',
        '--merchant',
        m.merchantId,
        '--host',
        host,
        '--default',
        '--default-velocity',
        '--json',
      ),
    );
    expect(reset).toEqual(shown);
    expect((await create({ amount: 20_001 })).status).toBe(201);
  });

  it('refuses limits it cannot set', async () => {
    const host = uniqueHost();
    const m = await t.merchant({ domains: [host], verifyDomains: true });
    const limits = (...args: string[]) => cli('domain', 'limits', '--merchant', m.merchantId, '--host', host, ...args);

    const above = await limits('--max-amount', '5000001', '--json');
    expect(above.code).toBe(1);
    expect(JSON.parse(above.stderr)).toEqual({ error: '--max-amount must be a whole number from 1 to 5000000' });

    const unknown = await cli('domain', 'limits', '--merchant', m.merchantId, '--host', 'nowhere.am');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`merchant ${m.merchantId} has no domain nowhere.am`);

    // Nothing was changed.
    expect(parsed(await limits('--json')).domain_settings).toEqual({
      max_amount: null,
      velocity_limit: null,
      velocity_window_minutes: null,
    });
  });

  it('sets, lists and withdraws exchange rates; payments lock the rate in force', async () => {
    const m = await t.merchant();
    const pay = (body: Json) => t.call('POST', '/api/v1/payments', { key: m.testKey, body: paymentBody(body) });
    expect((await pay({ amount: 10, currency: 'USD' })).status).toBe(422);

    const set = parsed(await cli('fx', 'set', '--currency', 'usd', '--rate', '387.50', '--json'));
    expect(set).toEqual({ currency: 'USD', rate: 387.5, set_at: expect.stringMatching(ISO_INSTANT) });
    const usd = await pay({ amount: 10, currency: 'USD' });
    expect(usd.status, usd.text).toBe(201);
    expect(usd.body.charge).toMatchObject({ amount: 3875, currency: 'AMD', fx_rate: 387.5 });

    expect(parsed(await cli('fx', 'list', '--json'))).toEqual({ fx_rates: [set] });

    for (const [args, message] of [
      [['--currency', 'AMD', '--rate', '1'], 'AMD is the base currency'],
      [['--currency', 'US', '--rate', '1'], 'is not a three-letter currency code'],
      [['--currency', 'USD', '--rate', '0'], 'is not a rate'],
      [['--currency', 'USD', '--rate', '1.1234567'], 'at most 6 decimals'],
    ] as const) {
      const refused = await cli('fx', 'set', ...args);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(message);
    }

    const removed = parsed(await cli('fx', 'remove', '--currency', 'USD', '--json'));
    expect(removed).toEqual({ currency: 'USD', rate: null, set_at: expect.stringMatching(ISO_INSTANT) });
    expect(parsed(await cli('fx', 'list', '--json'))).toEqual({ fx_rates: [] });
    expect(parsed(await cli('fx', 'list', '--currency', 'usd', '--json'))).toEqual({ fx_rates: [removed, set] });
    expect((await pay({ amount: 10, currency: 'USD' })).status).toBe(422);
    expect((await cli('fx', 'remove', '--currency', 'USD')).code).toBe(1);

    // The payment keeps the rate it locked.
    const reread = await t.call('GET', `/api/v1/payments/${usd.body.uuid}`, { key: m.testKey });
    expect(reread.body.charge).toEqual(usd.body.charge);
  });
});

describe('bin/gateway domain limits command lines', { timeout: CLI_TEST_TIMEOUT_MS }, () => {
  it.each([
    [['--max-amount', '100', '--default']],
    [['--velocity', '3', '--no-velocity']],
    [['--no-velocity', '--default-velocity']],
    [['--velocity-window-minutes', '5', '--default-velocity']],
    [['--velocity', 'many']],
    [['--velocity', '10001']],
    [['--velocity-window-minutes', '0']],
    [['--max-amount', '0']],
  ])('refuses %j with exit code 2 before opening the database', async (args) => {
    const refused = await gatewayWith(
      { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
      'domain',
      'limits',
      '--merchant',
      'm',
      '--host',
      'shop.am',
      ...args,
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('gateway domain limits: --');
  });
});
