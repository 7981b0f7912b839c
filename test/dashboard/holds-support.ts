/**
 * Helpers of the dashboard's hold tests: a manual sandbox payment held by a test card (through the
 * API's test helper), the hidden fields of a confirmation page, and what the service wrote.
 */
import { expect } from 'vitest';
import { listPaymentHoldOperations } from '../../storage/hold-operation.repository.js';
import { paymentBody } from '../support/gateway.js';
import type { DashboardGateway } from './support.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers read field by field
export type Json = Record<string, any>;

/** Sandbox hold cards (docs/api.md "Sandbox hold test cards"). */
export const HOLD_CARDS = {
  approved: '4111 1111 1111 1111',
  captureDeclined: '4000 0000 0000 6017',
  ranOut: '4000 0000 0000 6025',
  noAnswer: '4000 0000 0000 6033',
} as const;

/** A `manual` sandbox payment of `amount` made with `key` and held by `card`: `authorized`. */
export async function heldPayment(
  g: DashboardGateway,
  key: string,
  card: string = HOLD_CARDS.approved,
  overrides: Json = {},
): Promise<Json> {
  const created = await g.t.call<Json>('POST', '/api/v1/payments', {
    key,
    body: paymentBody({ capture_method: 'manual', amount: 10_000, ...overrides }),
  });
  expect(created.status, created.text).toBe(201);
  const paid = await g.t.call<Json>('POST', `/api/v1/test_helpers/payments/${created.body.uuid}/pay`, {
    key,
    body: { card_number: card },
  });
  expect(paid.status, paid.text).toBe(200);
  expect(paid.body.status).toBe('authorized');
  return paid.body;
}

/** The value of the hidden field `name` of a page. */
export function hiddenValue(html: string, name: string): string {
  const match = new RegExp(`type="hidden" name="${name}" value="([^"]*)"`).exec(html);
  if (match === null) throw new Error(`the page has no hidden field ${name}`);
  return match[1] as string;
}

/** The fields a confirmation page posts (its form token, `confirm`, the amount and the key). */
export function confirmationFields(html: string, keyName: 'capture_key' | 'release_key'): Record<string, string> {
  return {
    form_token: hiddenValue(html, 'form_token'),
    confirm: 'yes',
    ...(keyName === 'capture_key' ? { amount: hiddenValue(html, 'amount') } : {}),
    [keyName]: hiddenValue(html, keyName),
  };
}

/** The payment's captures and releases, oldest first: [kind, amount, status]. */
export async function holdOperations(g: DashboardGateway, uuid: string): Promise<Array<[string, number, string]>> {
  const rows = await listPaymentHoldOperations(g.t.gateway.deps.db, uuid);
  return rows.map((r) => [r.kind, Number(r.amount), r.status]);
}

/** The text of the element `data-testid="id"` of a page (tags dropped, entities of quotes decoded). */
export function testIdText(html: string, id: string): string {
  const start = html.indexOf(`data-testid="${id}"`);
  if (start < 0) throw new Error(`the page has no ${id}`);
  const open = html.lastIndexOf('<', start);
  const tag = /^<(\w+)/.exec(html.slice(open))?.[1] ?? 'span';
  const end = html.indexOf(`</${tag}>`, start);
  return html
    .slice(html.indexOf('>', start) + 1, end)
    .replace(/<[^>]+>/g, '')
    .replaceAll('&amp;', '&')
    .replaceAll('&#39;', "'")
    .replaceAll('&quot;', '"')
    .trim();
}
