/**
 * The fake Shopify APIs the app's tests run against answer GraphQL as Shopify does: a document that
 * does not validate against the published schema of the version served (a field the type does not
 * have, one `reason` on two state types, a reject reason the version does not have) is answered
 * HTTP 200 with `errors` and no `data`; the version served is in `X-Shopify-API-Version`, and a
 * version past its support is served by the oldest supported one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeShopifyAdmin, startFakeShopifyAdmin } from '../../support/fake-shopify-admin.js';
import { type FakeShopifyPayments, startFakeShopifyPayments } from '../../support/fake-shopify-payments.js';

const SHOP = 'fake-check.myshopify.com';
const TOKEN = 'shpat_fake_check_token';

let admin: FakeShopifyAdmin;
let payments: FakeShopifyPayments;
let paymentsFetch: typeof fetch;

beforeAll(async () => {
  admin = await startFakeShopifyAdmin({ shop: SHOP, accessToken: TOKEN });
  payments = await startFakeShopifyPayments({ isAccessToken: (shop, token) => shop === SHOP && token === TOKEN });
  paymentsFetch = payments.fetchFor(async () => {
    throw new Error('not a payments call');
  });
});
afterAll(async () => {
  await admin?.close();
  await payments?.close();
});

async function post(
  send: (url: string, init: RequestInit) => Promise<Response>,
  url: string,
  query: string,
  variables: Record<string, unknown> = {},
) {
  const response = await send(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': TOKEN },
    body: JSON.stringify({ query, variables }),
  });
  return {
    status: response.status,
    version: response.headers.get('x-shopify-api-version'),
    // biome-ignore lint/suspicious/noExplicitAny: a GraphQL answer
    body: (await response.json()) as any,
  };
}

describe('the fake Admin API', () => {
  it('answers a selection the schema refuses with HTTP 200, errors and no data', async () => {
    const answer = await post(
      admin.fetch,
      `https://${SHOP}/admin/api/2026-07/graphql.json`,
      'query Q { shop { nam } }',
    );
    expect(answer.status).toBe(200);
    expect(answer.version).toBe('2026-07');
    expect(answer.body).not.toHaveProperty('data');
    expect(answer.body.errors).toEqual([
      expect.objectContaining({ message: expect.stringContaining('Cannot query field "nam" on type "Shop"') }),
    ]);
  });

  it('answers exactly the selection, under its aliases, and falls forward from a version past its support', async () => {
    const order = admin.addOrder({ total: '5000.00' });
    const answer = await post(
      admin.fetch,
      `https://${SHOP}/admin/api/2025-07/graphql.json`,
      'query Q($id: ID!) { order(id: $id) { number: name total: totalPriceSet { shopMoney { amount } } } }',
      { id: `gid://shopify/Order/${order.id}` },
    );
    expect(answer.version).toBe(admin.versions[0]);
    expect(answer.body.data).toEqual({ order: { number: order.name, total: { shopMoney: { amount: '5000.0' } } } });
  });
});

describe('the fake Payments Apps API', () => {
  it('refuses the document that selects `reason` on both the rejected and the pending state', async () => {
    const gid = 'gid://shopify/PaymentSession/conflict1';
    payments.openSession(SHOP, gid);
    const answer = await post(
      paymentsFetch,
      `https://${SHOP}/payments_apps/api/2026-07/graphql.json`,
      `mutation R($id: ID!) { paymentSessionResolve(id: $id) { paymentSession { id state {
        ... on PaymentSessionStateRejected { code reason } ... on PaymentSessionStatePending { code reason } } }
        userErrors { field message } } }`,
      { id: gid },
    );
    expect(answer.status).toBe(200);
    expect(answer.body).not.toHaveProperty('data');
    expect(answer.body.errors[0].message).toContain('Fields "reason" conflict');
    expect(answer.body.errors[0]).not.toHaveProperty('extensions');
    expect(payments.state(gid)?.state).toBe('initiated');
  });

  it("refuses a reject reason outside the served version's enum, and takes it where the enum has it", async () => {
    const reject = `mutation PaymentSessionReject($id: ID!, $reason: PaymentSessionRejectionReasonInput!) {
      paymentSessionReject(id: $id, reason: $reason) { paymentSession { id } userErrors { field message } } }`;
    const gid = 'gid://shopify/PaymentSession/reason1';
    payments.openSession(SHOP, gid);
    const reason = { code: 'INSUFFICIENT_FUNDS', merchantMessage: 'no money' };
    const old = await post(paymentsFetch, `https://${SHOP}/payments_apps/api/2026-01/graphql.json`, reject, {
      id: gid,
      reason,
    });
    expect(old.status).toBe(200);
    expect(old.body).not.toHaveProperty('data');
    expect(old.body.errors[0].message).toContain('Value "INSUFFICIENT_FUNDS" does not exist');
    expect(payments.state(gid)?.state).toBe('initiated');
    const newer = await post(paymentsFetch, `https://${SHOP}/payments_apps/api/2026-04/graphql.json`, reject, {
      id: gid,
      reason,
    });
    expect(newer.body.data.paymentSessionReject).toEqual({ paymentSession: { id: gid }, userErrors: [] });
    expect(payments.state(gid)).toMatchObject({ state: 'rejected', reason });
  });
});
