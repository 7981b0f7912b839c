import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { paymentBody, startTestGateway, type TestGateway } from '../support/gateway.js';

describe.each(DIALECTS)('smoke on %s', (dialect) => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway(dialect);
  });
  afterAll(async () => t?.close());

  it('creates and reads a payment', async () => {
    const m = await t.merchant();
    const created = await t.call('POST', '/api/v1/payments', { key: m.testKey, body: paymentBody() });
    expect(created.status).toBe(201);
    const read = await t.call('GET', `/api/v1/payments/${created.body.uuid}`, { key: m.testKey });
    expect(read.body).toEqual(created.body);
  });
});
