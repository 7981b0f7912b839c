/**
 * A Shopify shop's own domain (`<name>.myshopify.com`) verified at the gateway, end to end: the
 * gateway shows the value, the shop owner saves it in the app's page (embedded API), and the
 * gateway's HTTPS check reads it at `https://<shop>/apps/connector-pay/gateway-verification.txt`,
 * which Shopify's app proxy (a fake storefront over HTTPS, names resolved by a local DNS server)
 * forwards, signed, to the connector. Also a shop with a primary domain (one redirect, same path).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDomainVerification, verifyDomain } from '../../../gateway/merchants/domain-verification.service.js';
import { addDomain } from '../../../gateway/merchants/domains.service.js';
import { DIALECTS } from '../../support/databases.js';
import { TestDnsServer } from '../../support/dns-server.js';
import { makeTestPki, type TestPki } from '../../support/fake-shopify-payments.js';
import { type FakeShopifyStorefront, startFakeShopifyStorefront } from '../../support/fake-shopify-storefront.js';
import { startTestGateway, type TestGateway, type TestMerchant } from '../../support/gateway.js';
import { API_SECRET, sessionToken } from './install-support.js';
import { type PaymentsHarness, startPaymentsHarness } from './payments-support.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers read field by field
type Json = Record<string, any>;

const PRIMARY = 'shop-primary.am';

describe.each(DIALECTS)("a Shopify shop's domain verified at the gateway (%s)", (dialect) => {
  let dns: TestDnsServer;
  let pki: TestPki;
  let gw: TestGateway;
  let h: PaymentsHarness;
  let storefront: FakeShopifyStorefront;
  let merchant: TestMerchant;

  beforeAll(async () => {
    dns = await TestDnsServer.start();
    pki = makeTestPki(['*.myshopify.com', PRIMARY]);
    gw = await startTestGateway(dialect, {
      env: { GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1', GATEWAY_CLOCK: 'manual', GATEWAY_DNS_SERVERS: dns.servers },
    });
    h = await startPaymentsHarness(dialect, gw);
    storefront = await startFakeShopifyStorefront({
      apiSecret: API_SECRET,
      proxyPath: '/apps/connector-pay',
      proxyUrl: () => `${h.connector.url}/shopify/proxy`,
      nowS: () => gw.clock.nowMs() / 1000,
      tls: { cert: pki.serverCert, key: pki.serverKey },
    });
    merchant = await gw.merchant();
  }, 60_000);
  afterAll(async () => {
    await storefront?.close();
    await h?.close();
    await gw?.close();
    await dns?.close();
  });

  const fileOptions = () => ({ file: { ca: pki.ca, port: Number(new URL(storefront.url).port) } });
  const saveValue = (shop: string, value: unknown, token = sessionToken(shop, gw.clock.nowMs())) =>
    h.connector.call<Json>('PUT', '/shopify/api/domain-verification', {
      headers: { Authorization: `Bearer ${token}` },
      body: { value },
    });
  const verify = (host: string, method: 'https' | 'dns' = 'https') =>
    verifyDomain(gw.gateway.deps, { merchantId: merchant.merchantId, host, method }, fileOptions());

  it('the owner saves the value in the app; the gateway reads it through the storefront and verifies the shop', async () => {
    const shop = `verify-${dialect}.myshopify.com`;
    dns.setA(shop, ['127.0.0.1']);
    await h.connectShop(shop);
    await addDomain(gw.gateway.deps, { merchantId: merchant.merchantId, host: shop, verified: false });
    const shown = await getDomainVerification(gw.gateway.deps, { merchantId: merchant.merchantId, host: shop });
    expect(shown.file_url).toBe(`https://${shop}/apps/connector-pay/gateway-verification.txt`);

    // Nothing saved yet: the storefront answers the connector's 404.
    const before = await verify(shop);
    expect(before.ok).toBe(false);
    expect(before.failure?.code).toBe('https_not_found');
    // A Shopify shop's domain takes no DNS record: the check says which way works.
    const byDns = await verify(shop, 'dns');
    expect(byDns.failure?.code).toBe('dns_no_record');
    expect(byDns.failure?.message).toContain('https');

    const wrong = await saveValue(shop, 'not the value');
    expect(wrong.status).toBe(422);
    expect(wrong.body.error).toBe('validation_failed');
    const saved = await saveValue(shop, shown.file_content);
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toEqual({
      shop,
      value: shown.file_content,
      file_url: `https://${shop}/apps/connector-pay/gateway-verification.txt`,
    });
    const read = await h.connector.call<Json>('GET', '/shopify/api/domain-verification', {
      headers: { Authorization: `Bearer ${sessionToken(shop, gw.clock.nowMs())}` },
    });
    expect(read.body.value).toBe(shown.file_content);

    const after = await verify(shop);
    expect(after.failure).toBeNull();
    expect(after).toMatchObject({ ok: true, verified: true, verified_method: 'https' });
    const proxied = storefront.forwarded.at(-1);
    expect(proxied?.shop).toBe(shop);
    expect(new URL(proxied?.url ?? '').pathname).toBe('/shopify/proxy/gateway-verification.txt');
  });

  it('serves nothing to a request that did not come through Shopify, or for a shop that saved nothing', async () => {
    const direct = await h.connector.call<Json>('GET', '/shopify/proxy/gateway-verification.txt');
    expect(direct.status).toBe(401);
    expect(direct.body.error).toBe('invalid_proxy_signature');

    const silent = `silent-${dialect}.myshopify.com`;
    dns.setA(silent, ['127.0.0.1']);
    await h.connectShop(silent);
    await addDomain(gw.gateway.deps, { merchantId: merchant.merchantId, host: silent, verified: false });
    const outcome = await verify(silent);
    expect(outcome.failure?.code).toBe('https_not_found');
    expect(outcome.verified).toBe(false);
  });

  it("a shop with a primary domain: the check follows Shopify's redirect on the same path", async () => {
    const shop = `primary-${dialect}.myshopify.com`;
    dns.setA(shop, ['127.0.0.1']);
    dns.setA(PRIMARY, ['127.0.0.1']);
    await h.connectShop(shop);
    storefront.setPrimaryDomain(shop, PRIMARY);
    await addDomain(gw.gateway.deps, { merchantId: merchant.merchantId, host: shop, verified: false });
    const shown = await getDomainVerification(gw.gateway.deps, { merchantId: merchant.merchantId, host: shop });
    expect((await saveValue(shop, shown.file_content)).status).toBe(200);

    const outcome = await verify(shop);
    expect(outcome.failure).toBeNull();
    expect(outcome.verified).toBe(true);
    expect(storefront.forwarded.at(-1)?.shop).toBe(shop);
  });
});
