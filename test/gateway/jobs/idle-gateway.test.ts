/**
 * An idle gateway stays idle: with nothing due, each lane of due work reads what is due once a tick
 * and goes back to sleep. Nothing it does with nothing due wakes the scheduler again (before, the
 * payment expiry opened a transaction on SQLite even with nothing to expire, and every transaction
 * of the lifecycle wakes the scheduler: the lanes ran again at once, some 15,000 statements a
 * second with nothing to do).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.js';
import { startTestGateway, type TestGateway } from '../../support/gateway.js';

describe.each(DIALECTS)('an idle gateway (%s)', (dialect) => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await startTestGateway(dialect);
    // A payment open, not yet due to expire: something to read, nothing to do.
    const merchant = await gw.merchant();
    const created = await gw.call('POST', '/api/v1/payments', {
      key: merchant.testKey,
      body: { amount: 5000, order_id: 'idle-1', return_url: 'https://shop.example/thank-you' },
    });
    expect(created.status).toBe(201);
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
  });

  it('runs its ticks without waking itself: no due signal while nothing is due', async () => {
    let wakes = 0;
    const unsubscribe = gw.gateway.deps.dueSignal.subscribe(() => {
      wakes += 1;
    });
    try {
      // Over two ticks of every lane (one a second).
      await new Promise((resolve) => setTimeout(resolve, 2_200));
    } finally {
      unsubscribe();
    }
    expect(wakes).toBe(0);
  });
});
