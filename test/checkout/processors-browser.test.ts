/**
 * A buyer pays a live payment in real headless Chromium through the hosted checkout with a card
 * processor (Ameriabank, a redirect and a return read back) and with a wallet (Idram, a form post
 * and a signed confirmation), each against its local fake; lands back on the shop's `return_url`;
 * and the merchant's endpoint receives the signed webhook. A held payment (`capture_method:
 * manual`) on a shop with a two-stage Ameriabank terminal and Idram is offered the card only, and
 * the buyer's card is held, not charged. The shops have names (a live payment's return address lies
 * on a verified domain, which an IP address cannot be): Chromium resolves them to 127.0.0.1.
 */
import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../gateway/merchants/api-keys.service.js';
import { setProcessorEnabled } from '../../gateway/merchants/domain-processors.service.js';
import { addDomain } from '../../gateway/merchants/domains.service.js';
import {
  BROWSER_TIMEOUT_MS,
  type LocalServer,
  launchBrowser,
  newPage,
  startLocalServer,
  type TestPage,
} from '../support/browser.js';
import type { TestGateway } from '../support/gateway.js';
import { FakeAmeria } from '../support/processors/fake-ameria.js';
import { FakeIdram } from '../support/processors/fake-idram.js';
import { startLiveGateway } from '../support/processors/live-gateway.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const SHOP_HOST = 'ararat-tea.example';
/** A shop that rents things: its Ameriabank terminal holds (two-stage), and Idram is enabled beside it. */
const RENT_HOST = 'ararat-rent.example';
const IDRAM_ACCOUNT = '110000601';
const IDRAM_SECRET = 'idram-secret-for-the-browser-test';
/** The completed page goes back to the shop after 3 seconds. */
const LEAVE_TIMEOUT_MS = 10_000;

let t: TestGateway;
let shop: LocalServer;
let ameria: FakeAmeria;
let twoStage: FakeAmeria;
let idram: FakeIdram;
let receiver: WebhookReceiver;
let browser: Browser;
let liveKey: string;
const pages: TestPage[] = [];

beforeAll(async () => {
  t = await startLiveGateway('sqlite');
  shop = await startLocalServer((url) =>
    url.pathname === '/done'
      ? {
          body: '<!doctype html><html lang="en"><head><title>Thank you</title></head><body><h1>Thank you</h1></body></html>',
        }
      : undefined,
  );
  receiver = await WebhookReceiver.start();
  ameria = await FakeAmeria.start({ testAmountRule: false, now: () => t.clock.nowMs() });
  // A terminal of its own (the bank sets a terminal up for one-stage or two-stage payments).
  twoStage = await FakeAmeria.start({
    twoStage: true,
    clientId: '5c1e9a07-8d2b-4f3e-a6c4-2b7d90e1f4a8',
    orderIdMin: 2360301,
    orderIdMax: 2360400,
    testAmountRule: false,
    now: () => t.clock.nowMs(),
  });
  idram = await FakeIdram.start({
    recAccount: IDRAM_ACCOUNT,
    secretKey: IDRAM_SECRET,
    resultUrl: `${t.url}/processors/idram/callback`,
    successUrl: `${t.url}/processors/idram/return`,
    failUrl: `${t.url}/processors/idram/return`,
  });
  const deps = t.gateway.deps;
  const merchant = await t.merchant({ name: 'Ararat Tea', verifyBusiness: true, unlimited: true });
  await addDomain(deps, {
    merchantId: merchant.merchantId,
    host: SHOP_HOST,
    verified: true,
    webhookUrl: `${receiver.url}/hooks`,
  });
  await setProcessorEnabled(deps, {
    merchantId: merchant.merchantId,
    host: SHOP_HOST,
    processor: 'ameria',
    enabled: true,
    config: JSON.stringify(ameria.settings()),
    position: 1,
  });
  await setProcessorEnabled(deps, {
    merchantId: merchant.merchantId,
    host: SHOP_HOST,
    processor: 'idram',
    enabled: true,
    config: JSON.stringify({ rec_account: IDRAM_ACCOUNT, secret_key: IDRAM_SECRET, form_url: idram.formUrl }),
    position: 2,
  });
  await addDomain(deps, { merchantId: merchant.merchantId, host: RENT_HOST, verified: true });
  await setProcessorEnabled(deps, {
    merchantId: merchant.merchantId,
    host: RENT_HOST,
    processor: 'idram',
    enabled: true,
    config: JSON.stringify({ rec_account: IDRAM_ACCOUNT, secret_key: IDRAM_SECRET, form_url: idram.formUrl }),
    position: 1,
  });
  await setProcessorEnabled(deps, {
    merchantId: merchant.merchantId,
    host: RENT_HOST,
    processor: 'ameria',
    enabled: true,
    config: JSON.stringify(twoStage.settings()),
    position: 2,
  });
  liveKey = (await createApiKey(deps, { merchantId: merchant.merchantId, environment: 'live', access: 'full' })).key;
  browser = await launchBrowser([`--host-resolver-rules=MAP ${SHOP_HOST} 127.0.0.1, MAP ${RENT_HOST} 127.0.0.1`]);
});

afterAll(async () => {
  await Promise.allSettled(pages.map((p) => p.close()));
  await browser?.close().catch(() => {});
  await Promise.allSettled([shop?.close(), ameria?.close(), twoStage?.close(), idram?.close(), receiver?.close()]);
  await t?.close();
});

async function livePayment(amount: number): Promise<Record<string, unknown>> {
  const shopUrl = `http://${SHOP_HOST}:${new URL(shop.url).port}`;
  const created = await t.call('POST', '/api/v1/payments', {
    key: liveKey,
    body: { amount, order_id: `tea-${randomUUID()}`, return_url: `${shopUrl}/done`, description: 'Thyme tea, 2 packs' },
  });
  expect(created.status, created.text).toBe(201);
  return created.body;
}

async function webhookFor(uuid: unknown) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    await t.gateway.scheduler.runDueNow();
    const hook = receiver.received.find((r) => r.json?.transaction?.uuid === uuid);
    if (hook !== undefined) return hook;
    if (Date.now() > deadline) throw new Error(`no webhook for ${String(uuid)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a buyer pays a live payment at a processor', () => {
  it('with a card at Ameriabank: picks it, pays on the bank page, lands on return_url; the merchant gets the signed webhook', async () => {
    const payment = await livePayment(5000);
    const buyer = await newPage(browser);
    pages.push(buyer);
    const { page } = buyer;
    await page.goto(String(payment.checkout_url));
    await page.locator('input[name="processor"][value="ameria"]').check();
    await page.locator('form button[type="submit"]').click();
    // The handoff page's script goes on to the bank's page by itself.
    await page.waitForURL((url) => url.href.startsWith(`${ameria.baseUrl}Payments/Pay`), {
      timeout: BROWSER_TIMEOUT_MS,
    });
    await page.locator('#pay').click();
    await page.waitForURL((url) => url.hostname === SHOP_HOST && url.pathname === '/done', {
      timeout: LEAVE_TIMEOUT_MS,
    });
    const landed = new URL(page.url());
    expect(landed.searchParams.get('payment_uuid')).toBe(payment.uuid);
    expect(await page.locator('h1').textContent()).toBe('Thank you');
    expect(buyer.errors).toEqual([]);
    expect(buyer.console.filter((line) => /Content Security Policy|Refused to/i.test(line))).toEqual([]);

    const read = await t.call('GET', `/api/v1/payments/${String(payment.uuid)}`, { key: liveKey });
    expect(read.body).toMatchObject({ status: 'completed', processor: 'ameria' });
    expect(read.body.rrn).toEqual(expect.any(String));
    const hook = await webhookFor(payment.uuid);
    expect(hook.json).toMatchObject({ transaction: { status: 'completed', processor: 'ameria' } });
    expect(hook.headers['x-service-signature']).toEqual(expect.any(String));
  });

  it('with the Idram wallet: the form goes to Idram, Idram confirms, the buyer lands on return_url; the merchant gets the signed webhook', async () => {
    const payment = await livePayment(1900);
    const buyer = await newPage(browser);
    pages.push(buyer);
    const { page } = buyer;
    await page.goto(String(payment.checkout_url));
    await page.locator('input[name="processor"][value="idram"]').check();
    await page.locator('form button[type="submit"]').click();
    // The handoff page posts the EDP_ form to Idram by itself (its CSP allows exactly that origin).
    await page.waitForURL((url) => url.href.startsWith(idram.formUrl), { timeout: BROWSER_TIMEOUT_MS });
    await page.locator('button[value="pay"]').click();
    await page.waitForURL((url) => url.hostname === SHOP_HOST && url.pathname === '/done', {
      timeout: LEAVE_TIMEOUT_MS,
    });
    expect(new URL(page.url()).searchParams.get('payment_uuid')).toBe(payment.uuid);
    expect(buyer.errors).toEqual([]);
    expect(buyer.console.filter((line) => /Content Security Policy|Refused to/i.test(line))).toEqual([]);

    const read = await t.call('GET', `/api/v1/payments/${String(payment.uuid)}`, { key: liveKey });
    expect(read.body).toMatchObject({ status: 'completed', processor: 'idram' });
    const hook = await webhookFor(payment.uuid);
    expect(hook.json).toMatchObject({ transaction: { status: 'completed', processor: 'idram' } });
    expect(hook.headers['x-service-signature']).toEqual(expect.any(String));
  });

  it('a held payment: offered the card only (Idram cannot hold), the card held at the bank, the buyer back at the shop', async () => {
    const rentUrl = `http://${RENT_HOST}:${new URL(shop.url).port}`;
    const created = await t.call('POST', '/api/v1/payments', {
      key: liveKey,
      body: {
        amount: 40000,
        order_id: `rent-${randomUUID()}`,
        return_url: `${rentUrl}/done`,
        description: 'A tent for a week',
        capture_method: 'manual',
      },
    });
    expect(created.status, created.text).toBe(201);
    const payment = created.body;
    const buyer = await newPage(browser);
    pages.push(buyer);
    const { page } = buyer;
    await page.goto(String(payment.checkout_url));
    // Idram cannot hold: Ameriabank's two-stage terminal is the one method offered.
    const offered = page.locator('input[name="processor"]');
    await offered.first().waitFor();
    expect(await offered.evaluateAll((inputs) => inputs.map((input) => input.getAttribute('value')))).toEqual([
      'ameria',
    ]);
    await page.locator('form button[type="submit"]').click();
    await page.waitForURL((url) => url.href.startsWith(`${twoStage.baseUrl}Payments/Pay`), {
      timeout: BROWSER_TIMEOUT_MS,
    });
    await page.locator('#pay').click();
    await page.waitForURL((url) => url.hostname === RENT_HOST && url.pathname === '/done', {
      timeout: LEAVE_TIMEOUT_MS,
    });
    expect(new URL(page.url()).searchParams.get('payment_uuid')).toBe(payment.uuid);
    expect(buyer.errors).toEqual([]);
    expect(buyer.console.filter((line) => /Content Security Policy|Refused to/i.test(line))).toEqual([]);
    const read = await t.call('GET', `/api/v1/payments/${String(payment.uuid)}`, { key: liveKey });
    expect(read.body).toMatchObject({
      status: 'authorized',
      processor: 'ameria',
      capture_method: 'manual',
      authorized_amount: 40000,
      completed_at: null,
    });
    expect(read.body.capture_before).toEqual(expect.any(String));
  });
});
