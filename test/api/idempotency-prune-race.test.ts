/**
 * An expired Idempotency-Key record may be deleted by the pruning job between the moment a request
 * finds it and the moment it takes it over. The request then claims the key afresh: it is a new
 * request (201), not "still being processed" (409). The repository is wrapped so the deletion
 * happens exactly in that gap, every time.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DAY_MS } from '../../gateway/domain/clock.js';
import { paymentBody, startTestGateway, type TestGateway } from '../support/gateway.js';

vi.mock('../../storage/idempotency-key.repository.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../storage/idempotency-key.repository.js')>();
  return {
    ...original,
    takeOverIdempotencyKey: async (...args: Parameters<typeof original.takeOverIdempotencyKey>) => {
      const [db, existing] = args;
      // The pruning job wins the race: the expired record is gone before the takeover.
      await db.deleteFrom('idempotency_keys').where('id', '=', existing.id).execute();
      return original.takeOverIdempotencyKey(...args);
    },
  };
});

describe('an expired Idempotency-Key pruned while a request takes it over', () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway('sqlite');
  });
  afterAll(async () => t?.close());

  it('claims the key afresh and creates the payment', async () => {
    const m = await t.merchant();
    const create = (body: Record<string, unknown>) =>
      t.call<{ uuid: string; amount: number }>('POST', '/api/v1/payments', {
        key: m.testKey,
        body,
        headers: { 'Idempotency-Key': 'key-pruned' },
      });
    expect((await create(paymentBody())).status).toBe(201);
    t.clock.advance(DAY_MS);
    const body = paymentBody({ amount: 999 });
    const again = await create(body);
    expect(again.status).toBe(201);
    expect(again.body.amount).toBe(999);
    // And the key protects the new request from now on: the same request is a replay of it.
    const replay = await create(body);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(replay.body).toEqual(again.body);
  });
});
