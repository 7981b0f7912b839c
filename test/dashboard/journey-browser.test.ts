/**
 * The way to a store taking payments, in one go, in headless Chromium (SQLite), as a shop owner
 * walks it from the first page: sign in, follow the checklist to Domains, add the shop's domain and
 * verify it by its DNS TXT record (a local DNS server the test controls), install the sandbox from
 * Processors (the checklist's "processor enabled" stays to do: the sandbox never pays a live
 * payment), configure Idram, create a WooCommerce connect token for the domain, and see the
 * checklist tick "domain added", "domain verified" and "processor enabled". The token works on the API.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestDnsServer } from '../support/dns-server.js';
import {
  type DashboardBrowser,
  expectAccessible,
  signInThroughForm,
  startDashboardBrowser,
} from './browser-support.js';
import { type DashboardGateway, signUpAndConfirm, uniqueEmail } from './support.js';

const TIMEOUT = 180_000;

describe('from sign-in to a connect token (sqlite)', { timeout: TIMEOUT }, () => {
  let g: DashboardGateway;
  let dns: TestDnsServer;
  let b: DashboardBrowser;

  beforeAll(async () => {
    dns = await TestDnsServer.start();
    b = await startDashboardBrowser('sqlite', {
      env: { GATEWAY_DNS_SERVERS: dns.servers },
      domainVerification: { dnsTimeoutMs: 1_000 },
    });
    g = b.g;
  }, TIMEOUT);
  afterAll(async () => {
    await b?.close();
    await dns?.close();
  });

  const state = (page: Page, item: string) => page.locator(`li[data-item="${item}"]`).getAttribute('class');

  it('adds and verifies a domain, installs the sandbox and a live processor, and creates a connect token', async () => {
    const email = uniqueEmail();
    await signUpAndConfirm(g, email);
    const page = await b.open();
    await signInThroughForm(page, g.t.url, email);
    for (const item of ['domain_added', 'domain_verified', 'processor_enabled'])
      expect(await state(page, item)).toBe('todo');

    // The checklist's step leads to the page where it is done.
    await page.locator('li[data-item="domain_added"] a').click();
    await page.getByRole('heading', { name: 'Domains', level: 1 }).waitFor();
    const host = `shop-${Math.random().toString(36).slice(2, 8)}.ararat-books.am`;
    await page.getByLabel('Domain', { exact: true }).fill(host);
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.getByText(`${host} is added.`).waitFor();
    const name = ((await page.locator('#txt-name').textContent()) ?? '').trim();
    const value = ((await page.locator('#txt-value').textContent()) ?? '').trim();
    dns.setTxt(name, [[value]]);
    await page.getByRole('button', { name: 'Check DNS record' }).click();
    await page.getByText(`${host} is verified.`).waitFor();
    await expectAccessible(page, { phone: false });

    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Processors' }).click();
    await page.getByRole('link', { name: `Manage processors ${host}` }).click();
    await page.getByRole('button', { name: 'Install Sandbox (test cards)' }).click();
    await page.getByText('Sandbox (test cards) is enabled.').waitFor();
    await expectAccessible(page, { phone: false });
    // The sandbox never pays a live payment: the checklist waits for a live processor.
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Get started' }).click();
    await page.getByRole('heading', { name: 'Get started' }).waitFor();
    expect(await state(page, 'processor_enabled')).toBe('todo');
    await page.locator('li[data-item="processor_enabled"] a').click();
    await page.getByRole('link', { name: `Manage processors ${host}` }).click();
    await page.getByRole('link', { name: 'Configure Idram' }).click();
    await page.getByLabel('IdramID (EDP_REC_ACCOUNT)').fill('110000601');
    await page.getByLabel('Secret key (SECRET_KEY)').fill('idram-secret-key-for-tests');
    await page.getByRole('button', { name: 'Save settings and enable' }).click();
    await page.getByText('Idram settings were saved, and it is enabled.').waitFor();

    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Connect tokens' }).click();
    await page.getByLabel('Domain').selectOption(host);
    await page.getByLabel('WooCommerce').check();
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByRole('heading', { name: 'Your new connect token' }).waitFor();
    await page.getByRole('heading', { name: 'Install it in WooCommerce' }).waitFor();
    await expectAccessible(page, { phone: false });
    const token = ((await page.locator('#new-token').textContent()) ?? '').trim();
    const introspected = await fetch(`${g.t.url}/api/v1/connect_token`, { headers: { 'X-Service-Connect': token } });
    expect(introspected.status).toBe(200);
    expect(((await introspected.json()) as { domain?: string }).domain).toBe(host);

    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Get started' }).click();
    await page.getByRole('heading', { name: 'Get started' }).waitFor();
    for (const item of ['domain_added', 'domain_verified', 'processor_enabled'])
      expect(await state(page, item)).toBe('done');
    expect(await state(page, 'business_verified')).toBe('todo');
    await expectAccessible(page, { phone: false });
  });
});
