/**
 * Domain verification against real name servers and a real HTTPS site on 127.0.0.1 (a test DNS
 * server the gateway asks through GATEWAY_DNS_SERVERS, an HTTPS server whose CA the check is
 * given), on both dialects: every reason a check fails, the refusals, and a domain verified by a
 * check taking live payments over HTTP at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getDomainVerification,
  type VerificationOptions,
  verifyDomain,
} from '../../../gateway/merchants/domain-verification.service.js';
import { addDomain } from '../../../gateway/merchants/domains.service.js';
import { OperatorError } from '../../../gateway/merchants/operator.js';
import type { Deps } from '../../../gateway/runtime/deps.js';
import { DIALECTS } from '../../support/databases.js';
import { TestDnsServer } from '../../support/dns-server.js';
import { enableLiveProcessor, paymentBody, startTestGateway, type TestGateway } from '../../support/gateway.js';
import { freePort } from '../../support/ports.js';
import { SITE_CA, VerificationSite } from '../../support/verification-site.js';

let counter = 0;
/** A host under the test certificate's name. */
function siteHost(): string {
  counter += 1;
  return `shop-${counter}-${Math.random().toString(36).slice(2, 8)}.verify-check.am`;
}

describe.each(DIALECTS)('domain verification on %s', (dialect) => {
  let t: TestGateway;
  let dns: TestDnsServer;
  let site: VerificationSite;
  let deps: Deps;
  let fileOptions: VerificationOptions;

  beforeAll(async () => {
    dns = await TestDnsServer.start();
    site = await VerificationSite.start();
    // The site listens on 127.0.0.1: development mode lets the check reach it (as webhooks).
    t = await startTestGateway(dialect, {
      env: { GATEWAY_DNS_SERVERS: dns.servers, GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1' },
    });
    deps = t.gateway.deps;
    fileOptions = { file: { ca: SITE_CA, port: site.port, timeoutMs: 1_000 } };
  });
  afterAll(async () => {
    await t?.close();
    await site?.close();
    await dns?.close();
  });

  async function merchantWith(host: string): Promise<string> {
    const m = await t.merchant({ verifyBusiness: true });
    await addDomain(deps, { merchantId: m.merchantId, host, verified: false });
    return m.merchantId;
  }

  async function publishedValue(merchantId: string, host: string): Promise<string> {
    return (await getDomainVerification(deps, { merchantId, host })).txt_value;
  }

  it('shows a stable token, the TXT record and the file to publish', async () => {
    const host = siteHost();
    const merchantId = await merchantWith(host);
    const first = await getDomainVerification(deps, { merchantId, host: host.toUpperCase() });
    expect(first).toMatchObject({
      merchant_id: merchantId,
      host,
      verified: false,
      hosted: false,
      verified_method: null,
      verified_at: null,
      txt_name: `_gateway-verification.${host}`,
      file_url: `https://${host}/.well-known/gateway-verification.txt`,
      last_check: null,
    });
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(first.txt_value).toBe(`gateway-verification=${first.token}`);
    expect(first.file_content).toBe(first.txt_value);
    expect((await getDomainVerification(deps, { merchantId, host })).token).toBe(first.token);
    // Another merchant naming the same host gets a token of its own.
    const other = await merchantWith(host);
    expect((await getDomainVerification(deps, { merchantId: other, host })).token).not.toBe(first.token);
  });

  describe('by DNS', () => {
    it('fails without a record, with the wrong value, on SERVFAIL and on silence, saying why', async () => {
      const host = siteHost();
      const merchantId = await merchantWith(host);
      const name = `_gateway-verification.${host}`;
      const check = (options: VerificationOptions = {}) =>
        verifyDomain(deps, { merchantId, host, method: 'dns' }, options);

      const missing = await check();
      expect(missing.ok).toBe(false);
      expect(missing.failure?.code).toBe('dns_no_record');
      expect(missing.failure?.message).toContain(name);
      expect(missing.verified).toBe(false);
      expect(missing.last_check).toMatchObject({
        checked_at: new Date(t.clock.nowMs()).toISOString(),
        method: 'dns',
        ok: false,
        failure_code: 'dns_no_record',
      });
      expect(dns.queries).toContainEqual({ name, type: 'TXT' });

      dns.setTxt(name, [['gateway-verification=not-the-token'], ['v=spf1 -all']]);
      const wrong = await check();
      expect(wrong.failure?.code).toBe('dns_wrong_value');
      expect(wrong.failure?.message).toContain('"gateway-verification=not-the-token"');

      dns.setMode('servfail');
      try {
        expect((await check()).failure?.code).toBe('dns_servfail');
        dns.setMode('refused');
        const refused = await check();
        expect(refused.failure?.code).toBe('dns_error');
        expect(refused.failure?.message).toContain('EREFUSED');
        dns.setMode('silent');
        const silent = await check({ dnsTimeoutMs: 200 });
        expect(silent.failure?.code).toBe('dns_timeout');
        expect(silent.verified).toBe(false);
      } finally {
        dns.setMode('answer');
      }
      const stored = await getDomainVerification(deps, { merchantId, host });
      expect(stored.last_check).toMatchObject({ ok: false, failure_code: 'dns_timeout' });
    });

    it('verifies a domain whose record holds the value (in chunks, among others); it takes live payments at once', async () => {
      const host = siteHost();
      const merchantId = await merchantWith(host);
      await enableLiveProcessor(deps, merchantId, host);
      const liveKey = await t.key(merchantId, 'live');
      const pay = () =>
        t.call('POST', '/api/v1/payments', {
          key: liveKey,
          body: paymentBody({ domain: host, return_url: `https://${host}/done` }),
        });
      const before = await pay();
      expect(before.status, before.text).toBe(403);
      expect(before.body.error).toBe('domain_not_registered');

      const value = await publishedValue(merchantId, host);
      dns.setTxt(`_gateway-verification.${host}`, [['v=spf1 -all'], [value.slice(0, 10), `${value.slice(10)} `]]);
      const passed = await verifyDomain(deps, { merchantId, host, method: 'dns' });
      expect(passed).toMatchObject({
        ok: true,
        failure: null,
        verified: true,
        verified_method: 'dns',
        verified_at: new Date(t.clock.nowMs()).toISOString(),
        last_check: { method: 'dns', ok: true, failure_code: null, failure_message: null },
      });
      const after = await pay();
      expect(after.status, after.text).toBe(201);

      // Checking again is harmless; a later failure records why but keeps the domain verified.
      t.clock.advance(60_000);
      const again = await verifyDomain(deps, { merchantId, host, method: 'dns' });
      expect(again).toMatchObject({ ok: true, verified: true, verified_at: passed.verified_at });
      dns.setTxt(`_gateway-verification.${host}`, []);
      const gone = await verifyDomain(deps, { merchantId, host, method: 'dns' });
      expect(gone).toMatchObject({ ok: false, verified: true, verified_method: 'dns' });
      expect(gone.failure?.code).toBe('dns_no_record');
      expect((await pay()).status).toBe(201);
    });

    it('does not verify a host another account has verified', async () => {
      const host = siteHost();
      const first = await merchantWith(host);
      await addDomain(deps, { merchantId: first, host, verified: true });
      const second = await merchantWith(host);
      dns.setTxt(`_gateway-verification.${host}`, [[await publishedValue(second, host)]]);
      const outcome = await verifyDomain(deps, { merchantId: second, host, method: 'dns' });
      expect(outcome).toMatchObject({ ok: false, verified: false });
      expect(outcome.failure?.code).toBe('taken');
    });
  });

  describe('by HTTPS file', () => {
    async function fileCase(reply: Parameters<VerificationSite['replyWith']>[0] | ((value: string) => string)) {
      const host = siteHost();
      const merchantId = await merchantWith(host);
      dns.setA(host, ['127.0.0.1']);
      const value = await publishedValue(merchantId, host);
      site.replyWith(typeof reply === 'function' ? { status: 200, body: reply(value) } : reply);
      return { host, merchantId, value };
    }

    it('verifies a domain whose file holds the value (whitespace around it aside)', async () => {
      const { host, merchantId } = await fileCase((value) => `\n  ${value}\r\n`);
      const outcome = await verifyDomain(deps, { merchantId, host, method: 'https' }, fileOptions);
      expect(outcome).toMatchObject({ ok: true, verified: true, verified_method: 'https', failure: null });
      expect(site.requests.at(-1)).toEqual({
        host: `${host}:${site.port}`,
        path: '/.well-known/gateway-verification.txt',
      });
    });

    it('fails on a missing file, other content, a redirect, a large file, a slow site', async () => {
      const https = async (reply: Parameters<typeof fileCase>[0]) => {
        const { host, merchantId } = await fileCase(reply);
        const outcome = await verifyDomain(deps, { merchantId, host, method: 'https' }, fileOptions);
        expect(outcome.verified).toBe(false);
        return outcome.failure;
      };
      const missing = await https({ status: 404, body: 'nope' });
      expect(missing?.code).toBe('https_not_found');
      expect(missing?.message).toContain('HTTP 404');
      const other = await https((value) => `${value}x`);
      expect(other?.code).toBe('https_wrong_content');
      const redirect = await https({ status: 301, headers: { Location: 'https://elsewhere.am/file?token=secret' } });
      expect(redirect?.code).toBe('https_redirect');
      expect(redirect?.message).toContain('https://elsewhere.am/file?token=***');
      const large = await https((value) => `${value}\n${'#'.repeat(10_000)}`);
      expect(large?.code).toBe('https_too_large');
      const slow = await https({ hang: true });
      expect(slow?.code).toBe('https_timeout');
    });

    it('fails when nothing listens on the domain', async () => {
      const { host, merchantId } = await fileCase((value) => value);
      const closed = await freePort();
      const outcome = await verifyDomain(
        deps,
        { merchantId, host, method: 'https' },
        { file: { ...fileOptions.file, port: closed } },
      );
      expect(outcome.failure?.code).toBe('https_unreachable');
      expect(outcome.failure?.message).toContain('connection refused');
    });

    it('fails on a certificate not valid for the host, or not from a trusted authority', async () => {
      const { host, merchantId } = await fileCase((value) => value);
      const untrusted = await verifyDomain(deps, { merchantId, host, method: 'https' }, { file: { port: site.port } });
      expect(untrusted.failure?.code).toBe('https_tls_error');
      expect(untrusted.verified).toBe(false);

      const stranger = `shop-${counter}.other-check.am`;
      const strangerMerchant = await merchantWith(stranger);
      dns.setA(stranger, ['127.0.0.1']);
      site.replyWith({ status: 200, body: await publishedValue(strangerMerchant, stranger) });
      const wrongName = await verifyDomain(
        deps,
        { merchantId: strangerMerchant, host: stranger, method: 'https' },
        fileOptions,
      );
      expect(wrongName.failure?.code).toBe('https_tls_error');
      expect(wrongName.failure?.message).toContain('ERR_TLS_CERT_ALTNAME_INVALID');
    });

    it('refuses a domain that resolves to a private address, as webhook delivery does', async () => {
      const { host, merchantId } = await fileCase((value) => value);
      const strict: Deps = { ...deps, config: { ...deps.config, allowPrivateWebhooks: false } };
      const before = site.requests.length;
      const outcome = await verifyDomain(strict, { merchantId, host, method: 'https' }, fileOptions);
      expect(outcome.failure?.code).toBe('https_private_address');
      expect(outcome.failure?.message).toContain('127.0.0.1');
      expect(outcome.verified).toBe(false);
      expect(site.requests.length).toBe(before);
    });
  });

  it("tells the operator's override and the hosted domain apart from a check", async () => {
    const host = siteHost();
    const merchantId = await merchantWith(host);
    await addDomain(deps, { merchantId, host, verified: true });
    expect(await getDomainVerification(deps, { merchantId, host })).toMatchObject({
      verified: true,
      verified_method: 'operator',
      verified_at: null,
    });
    const m = await t.merchant();
    expect(await getDomainVerification(deps, { merchantId: m.merchantId, host: m.hostedDomain })).toMatchObject({
      verified: true,
      hosted: true,
      verified_method: 'hosted',
    });
  });

  it('refuses localhost, IP addresses and the hosted domain before checking anything', async () => {
    const m = await t.merchant();
    await addDomain(deps, { merchantId: m.merchantId, host: 'localhost', verified: false });
    const before = dns.queries.length;
    for (const host of ['localhost', '127.0.0.1', '203.0.114.7', '[::1]', m.hostedDomain]) {
      const attempt = verifyDomain(deps, { merchantId: m.merchantId, host, method: 'dns' });
      await expect(attempt, host).rejects.toThrow(OperatorError);
    }
    await expect(verifyDomain(deps, { merchantId: m.merchantId, host: 'localhost', method: 'dns' })).rejects.toThrow(
      'can never be verified',
    );
    await expect(
      verifyDomain(deps, { merchantId: m.merchantId, host: m.hostedDomain, method: 'https' }),
    ).rejects.toThrow('hosted domain');
    expect(dns.queries.length).toBe(before);
    expect((await getDomainVerification(deps, { merchantId: m.merchantId, host: 'localhost' })).verified).toBe(false);
  });
});
