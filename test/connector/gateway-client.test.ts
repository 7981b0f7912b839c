/**
 * The typed gateway client against a real gateway: every call, idempotency keys, and how refusals
 * and silence become GatewayError (code, status, whether a retry may help).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayClient, type GatewayClient, GatewayError } from '../../connector/gateway-client/index.js';
import { startTestGateway, type TestGateway, type TestMerchant } from '../support/gateway.js';
import { freePort } from '../support/ports.js';

describe('gateway client', () => {
  let gw: TestGateway;
  let merchant: TestMerchant;
  let client: GatewayClient;

  beforeAll(async () => {
    gw = await startTestGateway('sqlite');
    merchant = await gw.merchant();
    client = createGatewayClient({ baseUrl: `${gw.url}/`, apiKey: merchant.testKey });
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('creates, reads and refunds a payment; an idempotency key replays the same payment', async () => {
    const input = { amount: 4000, order_id: 'client-order-1', return_url: 'https://shop.example/done' };
    const created = await client.createPayment(input, { idempotencyKey: 'client-order-1:1' });
    expect(created).toMatchObject({ order_id: 'client-order-1', amount: 4000, currency: 'AMD', status: 'pending' });
    expect((await client.createPayment(input, { idempotencyKey: 'client-order-1:1' })).uuid).toBe(created.uuid);
    expect((await client.getPayment(created.uuid)).uuid).toBe(created.uuid);
    expect((await client.getOrderPayment('client-order-1'))?.uuid).toBe(created.uuid);
    expect(await client.getOrderPayment('no-such-order')).toBeNull();

    await gw.call('POST', `/api/v1/test_helpers/payments/${created.uuid}/pay`, {
      key: merchant.testKey,
      body: { card_number: '4111111111111111' },
    });
    const refund = await client.refundPayment(created.uuid, { amount: 1000, reason: 'size' }, { idempotencyKey: 'r1' });
    expect(refund).toMatchObject({
      payment_uuid: created.uuid,
      amount: 1000,
      status: 'succeeded',
      refunded_amount: 1000,
    });
    expect(await client.listRefunds(created.uuid)).toEqual([
      expect.objectContaining({ uuid: refund.uuid, amount: 1000 }),
    ]);
  });

  it('holds, captures part of a hold once, and releases another', async () => {
    const held = await client.createPayment({
      amount: 9000,
      order_id: 'client-hold-1',
      return_url: 'https://shop.example/done',
      capture_method: 'manual',
    });
    expect(held).toMatchObject({ capture_method: 'manual', status: 'pending', authorized_amount: null });
    const paid = await gw.call('POST', `/api/v1/test_helpers/payments/${held.uuid}/pay`, {
      key: merchant.testKey,
      body: { card_number: '4111111111111111' },
    });
    expect(paid.body).toMatchObject({ status: 'authorized', authorized_amount: 9000 });
    const captured = await client.capturePayment(held.uuid, { amount: 6000 }, { idempotencyKey: 'capture-hold-1' });
    expect(captured).toMatchObject({ status: 'completed', amount: 6000, authorized_amount: 9000 });
    // The same key answers the same capture; nothing more is taken.
    expect(
      await client.capturePayment(held.uuid, { amount: 6000 }, { idempotencyKey: 'capture-hold-1' }),
    ).toMatchObject({ status: 'completed', amount: 6000 });
    await expect(client.capturePayment(held.uuid)).rejects.toMatchObject({
      status: 409,
      code: 'payment_not_authorized',
      retryable: false,
    });

    const other = await client.createPayment({
      amount: 3000,
      order_id: 'client-hold-2',
      return_url: 'https://shop.example/done',
      capture_method: 'manual',
    });
    await gw.call('POST', `/api/v1/test_helpers/payments/${other.uuid}/pay`, {
      key: merchant.testKey,
      body: { card_number: '4111111111111111' },
    });
    expect(await client.voidPayment(other.uuid, { idempotencyKey: 'void-hold-2' })).toMatchObject({
      status: 'expired',
      failure_code: 'voided',
    });
  });

  it('turns a refusal into a GatewayError with the API code and body', async () => {
    const invalid = await client
      .createPayment({ amount: -5, order_id: 'bad', return_url: 'nope' })
      .catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(GatewayError);
    expect(invalid).toMatchObject({ status: 422, code: 'validation_failed', retryable: false });
    expect((invalid as GatewayError).body.errors).toHaveProperty('amount');

    const wrongKey = createGatewayClient({ baseUrl: gw.url, apiKey: 'sk_test_wrong' });
    await expect(wrongKey.getPayment('x')).rejects.toMatchObject({ status: 401, code: 'invalid_api_key' });
    await expect(client.connectToken()).rejects.toMatchObject({ status: 403, code: 'insufficient_scope' });
  });

  it('reports a gateway that does not answer as gateway_unavailable, which may be retried', async () => {
    const silent = createGatewayClient({ baseUrl: `http://127.0.0.1:${await freePort()}`, apiKey: merchant.testKey });
    const error = await silent.getPayment('x').catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 0, code: 'gateway_unavailable', retryable: true });
    expect(() => createGatewayClient({ baseUrl: gw.url })).toThrow('apiKey or a connectToken');
  });
});
