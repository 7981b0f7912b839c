/**
 * The customers pages over HTTP: the list of the chosen environment with its figures, search by
 * id or email, a customer's page with their payments linked to the payment pages, another
 * account's or environment's customer as the 404 page, and viewers reading both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import type { Json } from './sandbox-payments.js';
import { payWith } from './sandbox-payments.js';
import {
  DashboardClient,
  type DashboardGateway,
  signedInMember,
  signedInOwner,
  startDashboardGateway,
} from './support.js';

describe.each(DIALECTS)('dashboard customers (%s)', (dialect) => {
  let g: DashboardGateway;
  let owner: DashboardClient;
  let viewer: DashboardClient;
  let ann: Json;
  let annAgain: Json;
  let named: Json;

  beforeAll(async () => {
    g = await startDashboardGateway(dialect, { env: { GATEWAY_CLOCK: 'manual' } });
    const signedIn = await signedInOwner(g);
    owner = signedIn.client;
    viewer = await signedInMember(g, signedIn.merchantId, 'viewer');
    const key = await g.t.key(signedIn.merchantId, 'test');
    ann = await payWith(g, key, { amount: 3000, customer_email: 'ann@example.am', customer_name: 'Ann <Hayk>' });
    g.t.clock.advance(60_000);
    annAgain = await payWith(g, key, { amount: 1500, customer_email: 'ann@example.am' });
    g.t.clock.advance(60_000);
    named = await payWith(g, key, { amount: 700, customer_id: 'shop-7' });
  });
  afterAll(async () => {
    await g?.close();
  });

  it('lists the customers of the chosen environment with their figures, latest payment first', async () => {
    const page = await owner.get('/dashboard/customers?env=test');
    expect(page.status).toBe(200);
    expect(page.text).toContain('aria-current="page">Customers');
    const shop = page.text.indexOf('shop-7');
    const annAt = page.text.indexOf(ann.customer_id);
    expect(shop).toBeGreaterThan(0);
    expect(annAt).toBeGreaterThan(shop);
    expect(page.text).toContain('ann@example.am');
    expect(page.text).toContain('Ann &lt;Hayk&gt;');
    expect(page.text).not.toContain('Ann <Hayk>');
    expect(page.text).toContain('AMD\u00a04,500');
    expect(page.text).toContain(`href="/dashboard/customers/${ann.customer_id}?env=test"`);

    const live = await owner.get('/dashboard/customers');
    expect(live.status).toBe(200);
    expect(live.text).toContain('No customers yet in this environment.');
    expect(live.text).not.toContain('ann@example.am');
  });

  it('finds a customer by id or by email, and says when none matches', async () => {
    const byEmail = await owner.get('/dashboard/customers?env=test&q=ANN%40example.am');
    expect(byEmail.text).toContain(ann.customer_id);
    expect(byEmail.text).not.toContain('shop-7</a>');
    const byId = await owner.get('/dashboard/customers?env=test&q=shop-7');
    expect(byId.text).toContain('shop-7</a>');
    expect(byId.text).not.toContain('ann@example.am');
    const none = await owner.get('/dashboard/customers?env=test&q=nobody%40example.am');
    expect(none.text).toContain('No customer has this id or email address.');
  });

  it("shows a customer's record and payments, each linked to its payment page", async () => {
    const page = await owner.get(`/dashboard/customers/${ann.customer_id}?env=test`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`href="/dashboard/payments/${ann.uuid}"`);
    expect(page.text).toContain(`href="/dashboard/payments/${annAgain.uuid}"`);
    expect(page.text).not.toContain(named.uuid);
    expect(page.text.indexOf(annAgain.uuid)).toBeLessThan(page.text.indexOf(ann.uuid));
    expect(page.text).toContain('AMD\u00a04,500');
    expect(page.text).toContain('Completed');

    const namedPage = await owner.get('/dashboard/customers/shop-7?env=test');
    expect(namedPage.status).toBe(200);
    expect(namedPage.text).toContain(`href="/dashboard/payments/${named.uuid}"`);
  });

  it("answers 404 for another account's customer and for the other environment", async () => {
    const other = await signedInOwner(g);
    expect((await other.client.get(`/dashboard/customers/${ann.customer_id}?env=test`)).status).toBe(404);
    expect((await other.client.get('/dashboard/customers/shop-7?env=test')).status).toBe(404);
    expect((await owner.get(`/dashboard/customers/${ann.customer_id}?env=live`)).status).toBe(404);
    expect((await owner.get(`/dashboard/customers/${'x'.repeat(300)}?env=test`)).status).toBe(404);
  });

  it('lets a viewer read both pages, and sends a visitor to sign in', async () => {
    expect((await viewer.get('/dashboard/customers?env=test')).text).toContain(ann.customer_id);
    expect((await viewer.get(`/dashboard/customers/${ann.customer_id}?env=test`)).status).toBe(200);
    const anonymous = await new DashboardClient(g.t.url).get('/dashboard/customers');
    expect(anonymous.status).toBe(303);
  });
});
