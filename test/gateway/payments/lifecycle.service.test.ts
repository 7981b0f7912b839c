/**
 * The provider's answer is applied in one transaction that first expires a payment found open past
 * its expiry (by the injected clock), whatever the caller saw before: a paid answer then completes
 * it as a late confirmation (expired, then completed, both events), any other answer leaves it
 * expired. Run against a real gateway on both databases, with its scheduler stopped so that no
 * expiry job runs between the clock passing the expiry and the answer.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MINUTE_MS, toApiInstant } from '../../../gateway/domain/clock.js';
import type { ProviderResult } from '../../../gateway/domain/payment-lifecycle.js';
import { applyProviderResult } from '../../../gateway/payments/lifecycle.service.js';
import { DIALECTS } from '../../support/databases.js';
import { paymentBody, startTestGateway, type TestGateway, type TestMerchant } from '../../support/gateway.js';
import { expectedStatusEvent } from '../../support/payment-shape.js';

type Json = Record<string, unknown>;

const TIMEOUT_CARD = '4000 0000 0000 0119';
const TTL_MS = 20 * MINUTE_MS;

describe.each(DIALECTS)('a provider answer after the expiry instant on %s', (dialect) => {
  let t: TestGateway;
  let merchant: TestMerchant;

  beforeAll(async () => {
    t = await startTestGateway(dialect, { env: { GATEWAY_RATE_LIMIT_PER_MINUTE: '1000000' } });
    merchant = await t.merchant();
    await t.gateway.scheduler.stop();
  });
  afterAll(async () => t?.close());

  let payment: Json;
  beforeEach(async () => {
    const created = await t.call('POST', '/api/v1/payments', { key: merchant.testKey, body: paymentBody() });
    expect(created.status, created.text).toBe(201);
    // Waiting at the processor (the sandbox's timeout card): processing, no event yet.
    const waiting = await t.call('POST', `/api/v1/test_helpers/payments/${created.body.uuid}/pay`, {
      key: merchant.testKey,
      body: { card_number: TIMEOUT_CARD },
    });
    expect(waiting.body).toMatchObject({ status: 'processing' });
    payment = waiting.body;
    // One second past the expiry; no job has run.
    t.clock.advance(Date.parse(String(payment.created_at)) + TTL_MS + 1000 - t.clock.nowMs());
  });

  async function read(): Promise<Json> {
    const res = await t.call('GET', `/api/v1/payments/${payment.uuid}`, { key: merchant.testKey });
    expect(res.status, res.text).toBe(200);
    return res.body;
  }

  async function events(): Promise<Json[]> {
    const rows = await t.gateway.deps.db
      .selectFrom('outbox_events')
      .select('payload')
      .where('payment_id', '=', String(payment.uuid))
      .orderBy('created_at')
      // Same instant under the manual clock: ids are UUIDv7 in creation order within a process.
      .orderBy('id')
      .orderBy('id')
      .execute();
    return rows.map((r) => JSON.parse(r.payload) as Json);
  }

  const answer = (result: ProviderResult) => applyProviderResult(t.gateway.deps, String(payment.uuid), result);

  it('paid: expired first, then completed as a late confirmation, both events in that order', async () => {
    const answered = await answer({ kind: 'paid', rrn: '123456789012', cardLast4: '1111' });
    expect(answered.status).toBe('completed');
    const now = await read();
    expect(now).toMatchObject({ status: 'completed', rrn: '123456789012' });
    expect(now.completed_at).toBe(toApiInstant(new Date(t.clock.nowMs()).toISOString()));
    const written = await events();
    expect(written.map((e) => (e.transaction as Json).status)).toEqual(['expired', 'completed']);
    expect(written[0]).toEqual(expectedStatusEvent({ ...payment, status: 'expired' }));
    expect(written[1]).toEqual(expectedStatusEvent(now));
  });

  it('declined: the payment stays expired, with the expiry event only', async () => {
    const answered = await answer({ kind: 'declined', failureCode: 'declined', cardLast4: '0002' });
    expect(answered.status).toBe('expired');
    expect(await read()).toMatchObject({ status: 'expired', completed_at: null });
    expect((await events()).map((e) => (e.transaction as Json).status)).toEqual(['expired']);
  });

  it('no answer (a processor timeout): the payment expires now rather than waiting for the job', async () => {
    const answered = await answer({ kind: 'pending', failureCode: 'processor_timeout', cardLast4: '0119' });
    expect(answered.status).toBe('expired');
    expect((await events()).map((e) => (e.transaction as Json).status)).toEqual(['expired']);
  });
});
