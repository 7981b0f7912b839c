/**
 * The Domains section in headless Chromium (SQLite): add a domain, verify it by its DNS TXT record
 * against a local DNS server, verify a second one by the well-known file on a local HTTPS site,
 * set the webhook URL, send a test event to a local receiver, reveal and rotate the secret. Every
 * page passes axe-core (no serious or critical violation) at 1280px and at 375px, and fits a phone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestDnsServer } from '../support/dns-server.js';
import { SITE_CA, VerificationSite } from '../support/verification-site.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import {
  type DashboardBrowser,
  expectAccessible,
  expectFitsWidth,
  signInThroughForm,
  startDashboardBrowser,
} from './browser-support.js';
import { type DashboardGateway, signUpAndConfirm, uniqueEmail } from './support.js';

const TIMEOUT = 120_000;

function siteHost(label: string): string {
  return `${label}-${Math.random().toString(36).slice(2, 8)}.verify-check.am`;
}

describe('dashboard domains in the browser (sqlite)', { timeout: TIMEOUT }, () => {
  let g: DashboardGateway;
  let dns: TestDnsServer;
  let site: VerificationSite;
  let receiver: WebhookReceiver;
  let b: DashboardBrowser;

  beforeAll(async () => {
    dns = await TestDnsServer.start();
    site = await VerificationSite.start();
    receiver = await WebhookReceiver.start();
    b = await startDashboardBrowser('sqlite', {
      env: {
        GATEWAY_DNS_SERVERS: dns.servers,
        GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1',
      },
      domainVerification: { dnsTimeoutMs: 1_000, file: { ca: SITE_CA, port: site.port, timeoutMs: 2_000 } },
    });
    g = b.g;
  }, TIMEOUT);
  afterAll(async () => {
    await b?.close();
    await receiver?.close();
    await site?.close();
    await dns?.close();
  });

  it('adds domains, verifies one by DNS and one by file, sets the webhook and sends a test event', async () => {
    const email = uniqueEmail();
    await signUpAndConfirm(g, email);
    const page = await b.open();
    await signInThroughForm(page, g.t.url, email);

    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Domains' }).click();
    await page.getByRole('heading', { name: 'Domains', level: 1 }).waitFor();
    await expectAccessible(page, { phone: false });

    // A host that can never be verified is refused with the reason.
    await page.getByLabel('Domain', { exact: true }).fill('localhost');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.getByText('localhost and IP addresses can never be verified').first().waitFor();
    await expectAccessible(page, { phone: false });

    // By DNS record.
    const dnsHost = siteHost('dns');
    await page.getByLabel('Domain', { exact: true }).fill(dnsHost);
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.getByRole('heading', { name: dnsHost }).waitFor();
    await page.getByText(`${dnsHost} is added.`).waitFor();
    await expectAccessible(page, { phone: false });
    await page.getByRole('button', { name: 'Check DNS record' }).click();
    await page.getByText('No TXT record was found under the name shown.').waitFor();
    await expectAccessible(page, { phone: false });
    const name = ((await page.locator('#txt-name').textContent()) ?? '').trim();
    const value = ((await page.locator('#txt-value').textContent()) ?? '').trim();
    expect(name).toBe(`_gateway-verification.${dnsHost}`);
    dns.setTxt(name, [[value]]);
    await page.getByRole('button', { name: 'Check DNS record' }).click();
    await page.getByText(`${dnsHost} is verified.`).waitFor();
    await expectAccessible(page, { phone: false });

    // By the well-known file, on a second domain.
    await page.getByRole('link', { name: 'All domains' }).click();
    const fileHost = siteHost('file');
    await page.getByLabel('Domain', { exact: true }).fill(fileHost);
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.getByRole('heading', { name: fileHost }).waitFor();
    dns.setA(fileHost, ['127.0.0.1']);
    expect(((await page.locator('#file-url').textContent()) ?? '').trim()).toBe(
      `https://${fileHost}/.well-known/gateway-verification.txt`,
    );
    const content = ((await page.locator('#file-content').textContent()) ?? '').trim();
    site.replyWith({ status: 404, body: 'not here' });
    await page.getByRole('button', { name: 'Check file' }).click();
    await page.getByText('The file was not found at the address shown.').waitFor();
    site.replyWith({ status: 200, body: content });
    await page.getByRole('button', { name: 'Check file' }).click();
    await page.getByText(`${fileHost} is verified.`).waitFor();
    await expectAccessible(page, { phone: false });

    // The webhook URL, then a test event to the local receiver.
    await page.getByLabel('Webhook URL', { exact: true }).fill(`${receiver.url}/hooks`);
    await page.getByRole('button', { name: 'Save webhook URL' }).click();
    await page.getByText('The webhook URL is saved.').waitFor();
    receiver.replyWith({ status: 200, body: '{"received":true}' });
    await page.getByRole('button', { name: 'Send a test event' }).click();
    await page.getByText('Delivered: your server accepted the event.').waitFor();
    expect((await page.locator('#test-status').textContent())?.trim()).toBe('200');
    expect((await page.locator('#test-answer').textContent())?.trim()).toBe('{"received":true}');
    expect(receiver.received.at(-1)?.json.event).toBe('transaction.status.updated');
    await expectAccessible(page, { phone: false });

    // The secret on request, and a rotation with its countdown.
    await page.getByRole('button', { name: 'Reveal secret' }).click();
    expect(((await page.locator('#webhook-secret').textContent()) ?? '').trim()).toMatch(/^whsec_/);
    await expectAccessible(page, { phone: false });
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByText('the old secret is accepted for 24 h 0 min more').waitFor();
    await expectAccessible(page, { phone: false });

    // The checklist ticked itself.
    await page.goto(`${g.t.url}/dashboard`);
    expect(await page.locator('li[data-item="domain_added"]').getAttribute('class')).toBe('done');
    expect(await page.locator('li[data-item="domain_verified"]').getAttribute('class')).toBe('done');

    // A phone.
    await page.setViewportSize({ width: 375, height: 812 });
    for (const path of [
      '/dashboard/domains',
      `/dashboard/domains/${dnsHost}`,
      `/dashboard/domains/${fileHost}`,
      '/dashboard/domains?lang=hy',
      `/dashboard/domains/${fileHost}?lang=ru`,
    ]) {
      await page.goto(`${g.t.url}${path}`);
      await expectFitsWidth(page);
      await expectAccessible(page, { phone: false });
    }
    await page.goto(`${g.t.url}/dashboard/domains/${fileHost}?lang=en`);
    await page.getByRole('button', { name: 'Send a test event' }).click();
    await page.getByText('Delivered: your server accepted the event.').waitFor();
    await expectFitsWidth(page);
    await expectAccessible(page, { phone: false });
  });
});
