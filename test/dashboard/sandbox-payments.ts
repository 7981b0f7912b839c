/** Sandbox payments made through the API for the dashboard's customers and overview tests. */
import { expect } from 'vitest';
import { paymentBody } from '../support/gateway.js';
import type { DashboardGateway } from './support.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers read field by field
export type Json = Record<string, any>;

/** A sandbox payment made with `key` and paid (or declined with `card`); answers the payment. */
export async function payWith(
  g: DashboardGateway,
  key: string,
  overrides: Json = {},
  card = '4111 1111 1111 1111',
): Promise<Json> {
  const created = await g.t.call<Json>('POST', '/api/v1/payments', { key, body: paymentBody(overrides) });
  expect(created.status, created.text).toBe(201);
  const pay = await g.t.call<Json>('POST', `/api/v1/test_helpers/payments/${created.body.uuid}/pay`, {
    key,
    body: { card_number: card },
  });
  expect(pay.status, pay.text).toBe(200);
  return (await g.t.call<Json>('GET', `/api/v1/payments/${created.body.uuid}`, { key })).body;
}
