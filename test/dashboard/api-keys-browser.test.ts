/**
 * API keys and connect tokens in headless Chromium, on both databases: an owner creates a
 * payments-only key (shown once), uses it on the API, revokes it through the confirmation and sees
 * the very next request refused; then creates a connect token for a verified domain and gets its
 * install steps. Every page passes axe-core (no serious or critical violation) at 1280px and at
 * 375px, and fits a 375px phone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDomain } from '../../gateway/merchants/merchant.service.js';
import { BROWSER_DIALECTS } from '../support/databases.js';
import { paymentBody, uniqueHost } from '../support/gateway.js';
import {
  type DashboardBrowser,
  expectAccessible,
  signInThroughForm,
  startDashboardBrowser,
} from './browser-support.js';
import { type DashboardGateway, signUpAndConfirm, uniqueEmail } from './support.js';

describe.each(BROWSER_DIALECTS)('API keys and connect tokens in the browser (%s)', (dialect) => {
  let b: DashboardBrowser;
  let g: DashboardGateway;

  beforeAll(async () => {
    b = await startDashboardBrowser(dialect);
    g = b.g;
  }, 120_000);
  afterAll(() => b?.close());

  const pay = (key: string) =>
    fetch(`${g.t.url}/api/v1/payments`, {
      method: 'POST',
      headers: { 'X-Service-Key': key, 'Content-Type': 'application/json' },
      body: JSON.stringify(paymentBody()),
    });

  it('creates a key shown once, revokes it, and creates a connect token with its install steps', async () => {
    const email = uniqueEmail();
    await signUpAndConfirm(g, email);
    const deps = g.t.gateway.deps;
    const user = await deps.db
      .selectFrom('dashboard_users')
      .select('merchant_id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();

    const page = await b.open();
    await signInThroughForm(page, g.t.url, email);

    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    expect(await page.getByLabel('Live').isDisabled()).toBe(true);
    await expectAccessible(page);

    await page.getByLabel('Payments only').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('heading', { name: 'Your new key' }).waitFor();
    await expectAccessible(page);
    const key = ((await page.locator('#new-key').textContent()) ?? '').trim();
    expect(key).toMatch(/^sk_test_/);
    expect((await pay(key)).status).toBe(201);

    await page.getByRole('link', { name: 'Back to API keys' }).click();
    expect(await page.content()).not.toContain(key);
    const label = `${key.slice(0, 12)}…${key.slice(-4)}`;
    await page.getByRole('button', { name: `Revoke ${label}` }).click();
    await page.getByRole('heading', { name: `Revoke ${label}?` }).waitFor();
    await expectAccessible(page);
    await page.getByRole('button', { name: `Revoke ${label}` }).click();
    await page.getByText('The key is revoked.').waitFor();
    await expectAccessible(page);
    expect((await pay(key)).status).toBe(401);

    const host = uniqueHost('store');
    await addDomain(deps, { merchantId: user.merchant_id, host, verified: true });
    await page.getByRole('link', { name: 'Connect tokens' }).click();
    await page.getByRole('heading', { name: 'Connect tokens', level: 1 }).waitFor();
    await expectAccessible(page);
    await page.getByLabel('Domain').selectOption(host);
    await page.getByLabel('Shopify').check();
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByRole('heading', { name: 'Your new connect token' }).waitFor();
    await page.getByRole('heading', { name: 'Install it in Shopify' }).waitFor();
    await expectAccessible(page);
    const token = ((await page.locator('#new-token').textContent()) ?? '').trim();
    const introspected = await fetch(`${g.t.url}/api/v1/connect_token`, { headers: { 'X-Service-Connect': token } });
    expect(introspected.status).toBe(200);

    await page.getByRole('link', { name: 'Back to connect tokens' }).click();
    expect(await page.content()).not.toContain(token);
    await page.getByRole('cell', { name: host, exact: true }).waitFor();
    await expectAccessible(page);
  }, 240_000);
});
