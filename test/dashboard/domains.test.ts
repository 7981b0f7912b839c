/**
 * The Domains section over HTTP, on both databases: adding a domain (and the hosts refused),
 * verifying it for real against a local DNS server (GATEWAY_DNS_SERVERS) and a local HTTPS site
 * (its CA and port given to the gateway's checks), the webhook URL (private addresses refused by a
 * gateway that does not allow them), the secret revealed to managers only, the rotation countdown
 * on the manual clock, the test event delivered to a local receiver, 404 for another account's
 * host, 403 for viewers, and the audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWebhookSecrets } from '../../gateway/webhooks/secrets.js';
import { formToken } from '../checkout/support.js';
import { DIALECTS } from '../support/databases.js';
import { TestDnsServer } from '../support/dns-server.js';
import { SITE_CA, VerificationSite } from '../support/verification-site.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import {
  type DashboardClient,
  type DashboardGateway,
  locationPath,
  signedInMember,
  signedInOwner,
  startDashboardGateway,
} from './support.js';

const TIMEOUT = 60_000;

let counter = 0;
/** A host under the test site's certificate. */
function siteHost(): string {
  counter += 1;
  return `shop-${counter}-${Math.random().toString(36).slice(2, 8)}.verify-check.am`;
}

const path = (host: string, rest = '') => `/dashboard/domains/${encodeURIComponent(host)}${rest}`;

describe.each(DIALECTS)('dashboard domains (%s)', { timeout: TIMEOUT }, (dialect) => {
  let g: DashboardGateway;
  let dns: TestDnsServer;
  let site: VerificationSite;
  let receiver: WebhookReceiver;
  let owner: DashboardClient;
  let merchantId: string;

  beforeAll(async () => {
    dns = await TestDnsServer.start();
    site = await VerificationSite.start();
    receiver = await WebhookReceiver.start();
    // The site and the receiver listen on 127.0.0.1: development mode lets the gateway reach them.
    g = await startDashboardGateway(dialect, {
      env: { GATEWAY_DNS_SERVERS: dns.servers, GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1' },
      domainVerification: { dnsTimeoutMs: 1_000, file: { ca: SITE_CA, port: site.port, timeoutMs: 2_000 } },
    });
    const signedIn = await signedInOwner(g);
    owner = signedIn.client;
    merchantId = signedIn.merchantId;
  }, TIMEOUT);
  afterAll(async () => {
    await g?.close();
    await receiver?.close();
    await site?.close();
    await dns?.close();
  });

  async function add(client: DashboardClient, host: string) {
    return client.submit('/dashboard/domains', '/dashboard/domains', { host });
  }

  async function added(host: string): Promise<void> {
    const page = await add(owner, host);
    expect(page.status, page.text).toBe(303);
  }

  async function auditRows(action: string, account = merchantId) {
    return g.t.gateway.deps.db
      .selectFrom('dashboard_audit_events')
      .selectAll()
      .where('merchant_id', '=', account)
      .where('action', '=', action)
      .execute();
  }

  async function secretsOf(host: string) {
    const row = await g.t.gateway.deps.db
      .selectFrom('domains')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('host', '=', host)
      .executeTakeFirstOrThrow();
    return openWebhookSecrets(g.t.gateway.deps.sealer, row.id, row);
  }

  /** Posts a form of the domain's page (the page's form token). */
  async function act(client: DashboardClient, host: string, rest: string, fields: Record<string, string> = {}) {
    return client.submit(path(host), path(host, rest), fields);
  }

  it('lists the hosted domain as the gateway’s own, adds a domain, and refuses duplicates', async () => {
    const list = await owner.get('/dashboard/domains');
    expect(list.status).toBe(200);
    expect(list.text).toContain('Hosted by the gateway');
    expect(list.text).toContain('always offers the sandbox');
    expect(list.text).toContain('aria-current="page"');

    const host = siteHost();
    const page = await add(owner, `  ${host.toUpperCase()}  `);
    expect(page.status, page.text).toBe(303);
    expect(locationPath(page)).toBe(`${path(host)}?notice=added`);
    const shown = await owner.get(locationPath(page));
    expect(shown.text).toContain(`${host} is added.`);
    expect(shown.text).toContain('Not verified');
    expect((await owner.get('/dashboard/domains')).text).toContain(`>${host}</a>`);
    expect((await auditRows('domain.added')).map((row) => row.subject)).toContain(host);

    const again = await add(owner, host);
    expect(again.status).toBe(422);
    expect(again.text).toContain(`${host} is already one of your domains.`);
    expect(again.text).toContain('aria-invalid="true"');
    // The onboarding checklist ticks "domain added" from the database.
    const home = await owner.get('/dashboard');
    expect(home.text).toContain('class="done" data-item="domain_added"');
  });

  it('shows the hosted domain as verified by construction, with nothing to check', async () => {
    const hosted = await g.t.gateway.deps.db
      .selectFrom('domains')
      .select('host')
      .where('merchant_id', '=', merchantId)
      .where('hosted', '=', 1)
      .executeTakeFirstOrThrow();
    const page = await owner.get(path(hosted.host));
    expect(page.status).toBe(200);
    expect(page.text).toContain('Your hosted domain');
    expect(page.text).toContain('always offers the sandbox');
    expect(page.text).not.toContain('Check DNS record');
    expect(page.text).toContain(`href="${path(hosted.host, '/processors')}"`);
    const check = await act(owner, hosted.host, '/verify', { method: 'dns' });
    expect(check.status).toBe(422);
    // The language links of a page answered to a POST lead back to the domain's page.
    const back = await owner.get(`${path(hosted.host, '/verify')}?lang=hy`);
    expect(back.status).toBe(303);
    expect(locationPath(back)).toBe(`${path(hosted.host)}?lang=hy`);
    expect((await owner.get(locationPath(back))).text).toContain('Ձեր տրամադրված դոմենը');
    await owner.get(`${path(hosted.host)}?lang=en`);
  });

  it('refuses localhost, IP addresses and what is not a domain name, saying why', async () => {
    const before = (await g.t.gateway.deps.db.selectFrom('domains').select('id').execute()).length;
    const cases: Array<[string, string]> = [
      ['localhost', 'localhost and IP addresses can never be verified'],
      ['shop.localhost', 'localhost and IP addresses can never be verified'],
      ['127.0.0.1', 'localhost and IP addresses can never be verified'],
      ['::1', 'localhost and IP addresses can never be verified'],
      ['[2001:db8::1]', 'localhost and IP addresses can never be verified'],
      ['https://shop.example.am/pay', 'This is not a valid domain name'],
      ['not a host!', 'This is not a valid domain name'],
      ['intranet', 'Write the full domain name'],
      ['', 'Enter a domain name.'],
    ];
    for (const [host, message] of cases) {
      const page = await add(owner, host);
      expect(page.status, host).toBe(422);
      expect(page.text, host).toContain(message);
      expect(page.text, host).toContain('id="f-host-error"');
    }
    expect((await g.t.gateway.deps.db.selectFrom('domains').select('id').execute()).length).toBe(before);
  });

  it('verifies a domain by its DNS TXT record, showing why a check failed', async () => {
    const host = siteHost();
    await added(host);
    const name = `_gateway-verification.${host}`;
    const page = await owner.get(path(host));
    expect(page.text).toContain(name);
    const value = /id="txt-value">([^<]+)</.exec(page.text)?.[1] ?? '';
    expect(value).toMatch(/^gateway-verification=[A-Za-z0-9_-]{32}$/);
    expect(page.text).toContain(`https://${host}/.well-known/gateway-verification.txt`);

    const missing = await act(owner, host, '/verify', { method: 'dns' });
    expect(missing.status).toBe(303);
    const failed = await owner.get(locationPath(missing));
    expect(failed.text).toContain('No TXT record was found under the name shown.');
    expect(failed.text).toContain('data-code="dns_no_record"');
    expect(failed.text).toContain('Not verified');
    expect(dns.queries).toContainEqual({ name, type: 'TXT' });
    // In the reader's language when the reason is known.
    const russian = await owner.get(`${path(host)}?lang=ru`);
    expect(russian.text).toContain('TXT-запись с указанным именем не найдена.');
    await owner.get(`${path(host)}?lang=en`);

    dns.setTxt(name, [['v=spf1 -all'], [value]]);
    const passed = await act(owner, host, '/verify', { method: 'dns' });
    expect(passed.status).toBe(303);
    expect(locationPath(passed)).toBe(`${path(host)}?notice=verified`);
    const verified = await owner.get(locationPath(passed));
    expect(verified.text).toContain(`${host} is verified.`);
    expect(verified.text).toContain('Verified (DNS record)');
    expect(verified.text).not.toContain('data-code=');
    expect((await auditRows('domain.verified')).map((row) => row.subject)).toContain(`${host} (dns)`);
    const home = await owner.get('/dashboard');
    expect(home.text).toContain('class="done" data-item="domain_verified"');
  });

  it('verifies a domain by the HTTPS file, showing a wrong content', async () => {
    const host = siteHost();
    await added(host);
    dns.setA(host, ['127.0.0.1']);
    const page = await owner.get(path(host));
    const content = /id="file-content">([^<]+)</.exec(page.text)?.[1] ?? '';
    expect(content).toMatch(/^gateway-verification=/);

    site.replyWith({ status: 200, body: 'gateway-verification=something-else' });
    const wrong = await act(owner, host, '/verify', { method: 'https' });
    expect(wrong.status).toBe(303);
    const failed = await owner.get(path(host));
    expect(failed.text).toContain('data-code="https_wrong_content"');
    expect(failed.text).toContain('its content is not exactly the value shown');
    expect(site.requests).toContainEqual({
      host: `${host}:${site.port}`,
      path: '/.well-known/gateway-verification.txt',
    });

    site.replyWith({ status: 200, body: `${content}\n` });
    const right = await act(owner, host, '/verify', { method: 'https' });
    expect(locationPath(right)).toBe(`${path(host)}?notice=verified`);
    expect((await owner.get(path(host))).text).toContain('Verified (HTTPS file)');
    expect((await auditRows('domain.verified')).map((row) => row.subject)).toContain(`${host} (https)`);
  });

  it('sets the webhook URL, reveals the secret to managers, rotates it with a countdown', async () => {
    const host = siteHost();
    await added(host);
    const url = `${receiver.url}/hooks?token=abc`;
    const saved = await act(owner, host, '/webhook-url', { url });
    expect(saved.status, saved.text).toBe(303);
    expect((await owner.get(locationPath(saved))).text).toContain('The webhook URL is saved.');
    expect((await auditRows('webhook.url_changed')).map((row) => row.subject)).toContain(
      `${host}: ${receiver.url}/hooks?token=***`,
    );
    const bad = await act(owner, host, '/webhook-url', { url: 'ftp://shop.example.am/x' });
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('The address must start with https://');

    const { webhook_secret: secret } = await secretsOf(host);
    expect((await owner.get(path(host))).text).not.toContain(secret);
    const revealed = await act(owner, host, '/webhook-secret/reveal');
    expect(revealed.status).toBe(200);
    expect(revealed.text).toContain(secret);
    expect(revealed.headers.get('cache-control')).toContain('no-store');
    expect((await auditRows('webhook.secret_revealed')).map((row) => row.subject)).toContain(host);

    const rotated = await act(owner, host, '/webhook-secret/rotate');
    expect(locationPath(rotated)).toBe(`${path(host)}?notice=rotated`);
    const during = await owner.get(locationPath(rotated));
    expect(during.text).toContain('the old secret is accepted for 24 h 0 min more');
    g.t.clock.advance(10 * 60_000 + 30_000);
    expect((await owner.get(path(host))).text).toContain('the old secret is accepted for 23 h 49 min more');
    const next = (await secretsOf(host)).webhook_secret_next ?? '';
    expect(next).toMatch(/^whsec_/);
    const both = await act(owner, host, '/webhook-secret/reveal');
    expect(both.text).toContain(secret);
    expect(both.text).toContain(next);
    expect((await auditRows('webhook.secret_rotated')).map((row) => row.subject)).toContain(host);

    // A viewer sees the domain, its status and its URL (masked), never the secret or the forms.
    const viewer = await signedInMember(g, merchantId, 'viewer');
    for (const page of [await viewer.get('/dashboard/domains'), await viewer.get(path(host))]) {
      expect(page.status).toBe(200);
      expect(page.text).not.toContain(secret);
      expect(page.text).not.toContain(next);
      expect(page.text).not.toContain('action="/dashboard/domains');
    }
    const viewerPage = await viewer.get(path(host));
    expect(viewerPage.text).toContain(`${receiver.url}/hooks?token=***`);
    expect(viewerPage.text).toContain('Not verified');
    expect(viewerPage.text).toContain('the old secret is accepted for');
    const token = formToken(viewerPage.text);
    for (const rest of [
      '/verify',
      '/webhook-url',
      '/webhook-secret/reveal',
      '/webhook-secret/rotate',
      '/webhook-test',
    ]) {
      const page = await viewer.post(path(host, rest), { form_token: token, method: 'dns', url: 'https://x.am/h' });
      expect(page.status, rest).toBe(403);
      expect(page.text).not.toContain(secret);
    }
    expect((await viewer.post('/dashboard/domains', { form_token: token, host: siteHost() })).status).toBe(403);
  });

  it('sends a signed test event and shows the receiver’s answer', async () => {
    const host = siteHost();
    await added(host);
    const before = await owner.get(path(host));
    expect(before.text).toContain('Set a webhook URL first.');
    await act(owner, host, '/webhook-url', { url: `${receiver.url}/test-hooks` });
    receiver.replyWith({ status: 202, body: '<b>thanks</b> from the shop' });
    const received = receiver.received.length;
    const page = await act(owner, host, '/webhook-test');
    expect(page.status, page.text).toBe(200);
    expect(page.text).toContain('Delivered: your server accepted the event.');
    expect(page.text).toContain('<dd id="test-status">202</dd>');
    expect(page.text).toContain('&lt;b&gt;thanks&lt;/b&gt; from the shop');
    expect(page.text).not.toContain('<b>thanks</b>');
    const delivery = (await receiver.waitFor(received + 1)).at(-1);
    expect(delivery?.path).toBe('/test-hooks');
    expect(delivery?.json.event).toBe('transaction.status.updated');
    expect(delivery?.headers['x-service-signature']).toBeTruthy();

    receiver.replyWith({ status: 500, body: 'broken' });
    const failing = await act(owner, host, '/webhook-test');
    expect(failing.text).toContain('Not delivered.');
    expect(failing.text).toContain('<dd id="test-status">500</dd>');
    receiver.replyWith({ status: 200 });
  });

  it('answers 404 for another account’s host and for an unknown one', async () => {
    const host = siteHost();
    await added(host);
    const other = await signedInOwner(g);
    const mine = await other.client.get(path(host));
    expect(mine.status).toBe(404);
    const unknown = await other.client.get(path('nothing-here.example.am'));
    expect(unknown.status).toBe(404);
    const heading = (html: string) => /<h1>([^<]*)<\/h1>/.exec(html)?.[1];
    expect(heading(mine.text)).toBe(heading(unknown.text));
    const token = formToken((await other.client.get('/dashboard/domains')).text);
    for (const rest of [
      '/verify',
      '/webhook-url',
      '/webhook-secret/reveal',
      '/webhook-secret/rotate',
      '/webhook-test',
    ]) {
      const page = await other.client.post(path(host, rest), {
        form_token: token,
        method: 'dns',
        url: 'https://x.am/h',
      });
      expect(page.status, rest).toBe(404);
    }
    expect(await auditRows('webhook.secret_revealed', other.merchantId)).toEqual([]);
  });
});

describe.each(DIALECTS)('dashboard domains without private addresses (%s)', { timeout: TIMEOUT }, (dialect) => {
  let g: DashboardGateway;
  let dns: TestDnsServer;
  let site: VerificationSite;

  beforeAll(async () => {
    dns = await TestDnsServer.start();
    site = await VerificationSite.start();
    g = await startDashboardGateway(dialect, {
      env: { GATEWAY_DNS_SERVERS: dns.servers },
      domainVerification: { file: { ca: SITE_CA, port: site.port, timeoutMs: 2_000 } },
    });
  }, TIMEOUT);
  afterAll(async () => {
    await g?.close();
    await site?.close();
    await dns?.close();
  });

  it('refuses a private webhook URL, and never fetches the file from a private address', async () => {
    const { client } = await signedInOwner(g);
    const host = siteHost();
    expect((await client.submit('/dashboard/domains', '/dashboard/domains', { host })).status).toBe(303);
    for (const url of [
      'http://127.0.0.1:8080/hooks',
      'https://localhost/hooks',
      'http://10.0.0.5/h',
      'http://[::1]/h',
    ]) {
      const page = await client.submit(path(host), path(host, '/webhook-url'), { url });
      expect(page.status, url).toBe(422);
      expect(page.text, url).toContain('This address is private');
    }
    const notUrl = await client.submit(path(host), path(host, '/webhook-url'), { url: 'shop.example.am/hooks' });
    expect(notUrl.text).toContain('This is not a valid address.');

    dns.setA(host, ['127.0.0.1']);
    site.replyWith({ status: 200, body: 'anything' });
    const requests = site.requests.length;
    await client.submit(path(host), path(host, '/verify'), { method: 'https' });
    const page = await client.get(path(host));
    expect(page.text).toContain('data-code="https_private_address"');
    expect(page.text).toContain('The domain points to a private address');
    expect(site.requests.length).toBe(requests);
  });
});
