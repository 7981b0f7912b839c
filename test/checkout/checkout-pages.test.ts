/**
 * The hosted checkout over HTTP, on both databases: every status's page, the 404 and 410 pages,
 * direct mode, choosing a method, the test payment page with every card of the spec's table,
 * form tokens, the security headers and framing per kind of payment, embedding origins, cancel,
 * languages, and that a card number is never stored nor sent back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueFormToken } from '../../gateway/checkout/form-token.js';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../gateway/domain/clock.js';
import { DIALECTS } from '../support/databases.js';
import {
  PUBLIC_URL,
  startTestGateway,
  TEST_GATEWAY_SECRET,
  type TestGateway,
  type TestMerchant,
  uniqueHost,
} from '../support/gateway.js';
import {
  checkoutPath,
  createPayment,
  cspOf,
  formAction,
  formToken,
  getPage,
  openTestPage,
  type PageResponse,
  payOnTestPage,
  postForm,
  readPayment,
  seenResponses,
  tokenOf,
  visibleText,
} from './support.js';

const SECRET = TEST_GATEWAY_SECRET;

/** The spec's table: card, final status, failure_code, and what the buyer reads. */
const CARDS: ReadonlyArray<[string, string, string | null, string]> = [
  ['4111 1111 1111 1111', 'completed', null, 'Payment received'],
  ['4000 0000 0000 0002', 'failed', 'declined', 'The card was declined by the issuer.'],
  ['4000 0000 0000 0069', 'failed', 'insufficient_funds', 'There is not enough money on the card.'],
  ['4000 0000 0000 0119', 'processing', 'processor_timeout', 'Waiting for the bank'],
  ['4000 0000 0000 0101', 'failed', '3ds_failed', 'The card could not be verified (3-D Secure failed).'],
  ['4000 0000 0000 0127', 'failed', 'amount_limit_exceeded', "The amount is above the card's limit."],
  [
    '4000 0000 0000 0200',
    'failed',
    'duplicate_transaction',
    'The bank refused the payment as a duplicate transaction.',
  ],
  [
    '4000 0000 0000 0259',
    'failed',
    'transaction_expired',
    "The bank's authorisation expired before the payment finished.",
  ],
  ['4000 0000 0000 0309', 'failed', 'processor_unavailable', 'The payment processor is unavailable right now.'],
  ['4000 0000 0000 0341', 'failed', 'general_failure', 'The payment could not be completed.'],
];

function expectSecurityHeaders(page: PageResponse): void {
  expect(page.headers.get('cache-control')).toBe('no-store');
  expect(page.headers.get('referrer-policy')).toBe('no-referrer');
  expect(page.headers.get('x-content-type-options')).toBe('nosniff');
  const csp = cspOf(page);
  expect(csp['default-src']).toBe("'none'");
  expect(csp['script-src']).toMatch(/^'nonce-[A-Za-z0-9+/=]{16,}'$/);
  expect(csp['style-src']).toBe(csp['script-src']);
  expect(csp['img-src']).toBe("'self' data:");
  expect(csp['form-action']).toBe(`'self' ${PUBLIC_URL}`);
  expect(csp['base-uri']).toBe("'none'");
  expect(csp['frame-ancestors']).toBeDefined();
  // DENY exactly where no one may frame the page; never where the merchant's site may.
  expect(page.headers.get('x-frame-options')).toBe(csp['frame-ancestors'] === "'none'" ? 'DENY' : null);
  if (page.status === 200 || page.status >= 400) {
    const nonce = (csp['script-src'] ?? '').slice("'nonce-".length, -1);
    const styles = [...page.text.matchAll(/<style( nonce="([^"]*)")?/g)];
    expect(styles.length).toBeGreaterThan(0);
    for (const style of styles) expect(style[2]).toBe(nonce);
    for (const script of page.text.matchAll(/<script( nonce="([^"]*)")?/g)) expect(script[2]).toBe(nonce);
    expect(page.text).not.toMatch(/\son[a-z]+=/i);
  }
}

describe.each(DIALECTS)('hosted checkout (%s)', (dialect) => {
  let t: TestGateway;
  let shop: TestMerchant;

  beforeAll(async () => {
    t = await startTestGateway(dialect, { env: { GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' } });
    shop = await t.merchant({ name: 'Ararat Books' });
  });

  afterAll(async () => {
    await t?.close();
  });

  describe('the payment page (pending)', () => {
    it('shows amount, the business (not the generated hosted domain), the description instead of the order id, and the methods as a form', async () => {
      const payment = await createPayment(t, shop.testKey, {
        amount: 5000,
        order_id: 'order-1001',
        description: 'Two books and a map',
      });
      const page = await getPage(t, checkoutPath(payment));
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expectSecurityHeaders(page);
      const text = visibleText(page.text);
      expect(text).toContain('AMD 5,000');
      expect(text).toContain('Ararat Books');
      // The account's hosted domain has a generated name that means nothing to a buyer.
      expect(text).not.toContain(shop.hostedDomain);
      expect(text).toContain('Two books and a map');
      // The description says what the payment is for; the order id is the merchant's reference.
      expect(text).not.toContain('order-1001');
      expect(text).toContain('Test mode');
      expect(page.text).toContain('<html lang="en">');
      expect(formAction(page.text)).toBe(`${checkoutPath(payment)}/method`);
      expect(formToken(page.text)).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
      // The hosted domain always offers the sandbox; the only method is chosen already.
      expect(page.text).toMatch(/<input type="radio" name="processor" value="sandbox" required checked>/);
      expect(page.text).toContain(`href="${checkoutPath(payment)}/cancel"`);
      expect(page.text).not.toContain('sk_test_');
      expect(page.text).not.toContain(shop.testKey);
      expect(page.text).not.toContain(SECRET);
      expect((await readPayment(t, shop.testKey, payment.uuid)).status).toBe('pending');
    });

    it("shows the shop's order number a plugin passes as the description, not its internal order id", async () => {
      const payment = await createPayment(t, shop.testKey, {
        order_id: 'wc-7d0c6f4e-3b1a-4c55-9a51-6f1d2f0e8a11-23',
        description: 'Order #1042',
      });
      const text = visibleText((await getPage(t, checkoutPath(payment))).text);
      expect(text).toContain('Order #1042');
      expect(text).not.toContain('wc-7d0c6f4e');
    });

    it('shows the order id when there is no description', async () => {
      const payment = await createPayment(t, shop.testKey, { order_id: 'order-1002' });
      const text = visibleText((await getPage(t, checkoutPath(payment))).text);
      expect(text).toContain('Order');
      expect(text).toContain('order-1002');
    });

    it('escapes everything it prints', async () => {
      // A name from before names were checked (a new one may not hold < or >): written to its row.
      const merchant = await t.merchant();
      await t.gateway.deps.db
        .updateTable('merchants')
        .set({ name: 'Evil <script>alert(1)</script> & "Co"' })
        .where('id', '=', merchant.merchantId)
        .execute();
      const payment = await createPayment(t, merchant.testKey, {
        order_id: '<img src=x onerror=alert(2)>',
        description: '</dd><script>alert(3)</script>',
        return_url: 'http://localhost:3000/done?q="><script>alert(4)</script>',
      });
      const page = await getPage(t, checkoutPath(payment));
      expect(page.status).toBe(200);
      expect(page.text).not.toContain('<script>alert');
      expect(page.text).not.toContain('<img src=x');
      expect(page.text).toContain('Evil &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;');
      expect(visibleText(page.text)).toContain('</dd><script>alert(3)</script>');
      const withoutDescription = await createPayment(t, merchant.testKey, { order_id: '<img src=x onerror=alert(5)>' });
      const orderPage = await getPage(t, checkoutPath(withoutDescription));
      expect(orderPage.text).not.toContain('<img src=x');
      expect(orderPage.text).toContain('&lt;img src=x onerror=alert(5)&gt;');
    });

    it('pre-selects the processor the merchant named', async () => {
      const payment = await createPayment(t, shop.testKey, { processor: 'sandbox' });
      const page = await getPage(t, checkoutPath(payment));
      expect(page.status).toBe(200);
      expect(page.text).toMatch(
        /value="sandbox" required checked><span class="logo"><svg [\s\S]*?<\/svg><\/span><span>Test card \(sandbox\)<small>chosen by the shop/,
      );
    });

    it('offers a live payment the live processors of its domain, never the sandbox installed there', async () => {
      const host = uniqueHost();
      const live = await t.liveMerchant(host); // the sandbox and Idram installed
      const payment = await createPayment(t, live.liveKey, { return_url: `https://${host}/done` });
      expect(payment.livemode).toBe(true);
      const page = await getPage(t, checkoutPath(payment));
      expect(page.status).toBe(200);
      expect(visibleText(page.text)).toContain(host);
      expect(visibleText(page.text)).not.toContain('Test mode');
      expect(page.text).toContain('value="idram"');
      expect(page.text).not.toContain('value="sandbox"');
      expect(visibleText(page.text)).not.toContain('Test card');
    });

    it('never lets a test card pay a live payment, whichever way the buyer tries', async () => {
      const host = uniqueHost();
      const live = await t.liveMerchant(host);
      const payment = await createPayment(t, live.liveKey, { return_url: `https://${host}/done` });
      const page = await getPage(t, checkoutPath(payment));

      // A hand-made choice of the sandbox is refused: the methods again, with the reason.
      const chose = await postForm(t, formAction(page.text), {
        form_token: formToken(page.text),
        processor: 'sandbox',
      });
      expect(chose.status).toBe(422);
      expect(chose.text).not.toContain('value="sandbox"');

      // The test page leads back to the payment's page, and a test card posted there (even with a
      // form token the test page would have issued) charges nothing.
      const test = await getPage(t, checkoutPath(payment, '/sandbox'));
      expect(test.status).toBe(303);
      expect(test.location).toBe(`${PUBLIC_URL}${checkoutPath(payment)}`);
      const posted = await postForm(t, checkoutPath(payment, '/sandbox'), {
        form_token: issueFormToken(SECRET, tokenOf(payment), 'sandbox', t.clock.nowMs()),
        card_number: '4111 1111 1111 1111',
      });
      expect(posted.status).toBe(303);
      expect(posted.location).toBe(`${PUBLIC_URL}${checkoutPath(payment)}`);

      // The test helpers answer a live key 404.
      const helper = await t.call('POST', `/api/v1/test_helpers/payments/${String(payment.uuid)}/pay`, {
        key: live.liveKey,
        body: { card_number: '4111 1111 1111 1111' },
      });
      expect(helper.status).toBe(404);

      expect(await readPayment(t, live.liveKey, payment.uuid)).toMatchObject({
        status: 'pending',
        livemode: true,
        processor: null,
        completed_at: null,
      });
      const again = await getPage(t, checkoutPath(payment));
      expect(again.text).toContain('value="idram"');
      expect(again.text).not.toContain('value="sandbox"');
    });

    it('makes a live key’s `processor: sandbox` payment a test payment from the start, paid on the test page', async () => {
      const host = uniqueHost();
      const live = await t.liveMerchant(host);
      const payment = await createPayment(t, live.liveKey, {
        return_url: `https://${host}/done`,
        processor: 'sandbox',
      });
      expect(payment.livemode).toBe(false);
      const test = await openTestPage(t, payment);
      expect(visibleText(test.text)).toContain('Test mode');
      await payOnTestPage(t, test, '4111 1111 1111 1111');
      expect(await readPayment(t, live.liveKey, payment.uuid)).toMatchObject({
        status: 'completed',
        livemode: false,
        processor: 'sandbox',
      });
    });

    it('speaks English, Armenian and Russian: ?lang= first, then Accept-Language', async () => {
      const payment = await createPayment(t, shop.testKey);
      const russian = await getPage(t, `${checkoutPath(payment)}?lang=ru`, { 'Accept-Language': 'hy' });
      expect(russian.text).toContain('<html lang="ru">');
      expect(visibleText(russian.text)).toContain('Выберите способ оплаты');
      expect(visibleText(russian.text)).toMatch(/5\s000 драмов/);
      expect(formAction(russian.text)).toBe(`${checkoutPath(payment)}/method?lang=ru`);

      const armenian = await getPage(t, checkoutPath(payment), { 'Accept-Language': 'fr-FR, hy;q=0.8, en;q=0.5' });
      expect(armenian.text).toContain('<html lang="hy">');
      expect(visibleText(armenian.text)).toContain('Ընտրեք վճարման եղանակը');

      const fallback = await getPage(t, `${checkoutPath(payment)}?lang=xx`, { 'Accept-Language': 'de' });
      expect(fallback.text).toContain('<html lang="en">');
      expect(visibleText(fallback.text)).toContain('Choose how to pay');
    });
  });

  describe('links that do not lead to a payment', () => {
    it('answers an unknown or malformed token with a 404 page that no one may frame', async () => {
      for (const token of ['AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'x', 'not a token at all']) {
        const page = await getPage(t, `/checkout/${encodeURIComponent(token)}`);
        expect(page.status).toBe(404);
        expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expectSecurityHeaders(page);
        expect(cspOf(page)['frame-ancestors']).toBe("'none'");
        expect(visibleText(page.text)).toContain('Payment not found');
      }
      const sandbox = await getPage(t, '/checkout/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/sandbox');
      expect(sandbox.status).toBe(404);
      const post = await postForm(t, '/checkout/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/method', { processor: 'sandbox' });
      expect(post.status).toBe(404);
    });

    it('answers 410 once the link is 24 hours old (the payment expired long before)', async () => {
      const payment = await createPayment(t, shop.testKey);
      t.clock.advance(DAY_MS - 1000);
      const before = await getPage(t, checkoutPath(payment));
      expect(before.status).toBe(200);
      expect(visibleText(before.text)).toContain('This payment has expired');
      t.clock.advance(1000);
      for (const suffix of ['', '/sandbox', '/cancel']) {
        const page = await getPage(t, checkoutPath(payment, suffix));
        expect(page.status).toBe(410);
        expectSecurityHeaders(page);
        expect(visibleText(page.text)).toContain('This payment link has expired');
      }
      const post = await postForm(t, checkoutPath(payment, '/method'), {
        form_token: issueFormToken(SECRET, tokenOf(payment), 'method', t.clock.nowMs()),
        processor: 'sandbox',
      });
      expect(post.status).toBe(410);
    });
  });

  describe('statuses', () => {
    it('expires a payment past its 20 minutes on the page itself, even before the job ran', async () => {
      const payment = await createPayment(t, shop.testKey, {
        return_url: 'http://localhost:3000/done',
        cancel_url: 'http://localhost:3000/cart?step=2',
      });
      await t.gateway.scheduler.stop();
      try {
        t.clock.advance(21 * MINUTE_MS);
        const page = await getPage(t, checkoutPath(payment));
        expect(page.status).toBe(200);
        expectSecurityHeaders(page);
        const text = visibleText(page.text);
        expect(text).toContain('This payment has expired');
        // Back to the return address (which reads the payment back), not the cancel address.
        const back = `http://localhost:3000/done?payment_uuid=${payment.uuid}&amp;order_id=${payment.order_id}`;
        expect(page.text).toContain(`href="${back}"`);
        expect(page.text).not.toContain('href="http://localhost:3000/cart');
        expect((await readPayment(t, shop.testKey, payment.uuid)).status).toBe('expired');
      } finally {
        t.gateway.scheduler.start();
      }
    });

    it('sends a pending payment of redirect_mode=direct straight to the processor (303)', async () => {
      const payment = await createPayment(t, shop.testKey, { processor: 'sandbox', redirect_mode: 'direct' });
      // A HEAD (a link preview) only looks.
      const head = await fetch(`${t.url}${checkoutPath(payment)}`, { method: 'HEAD', redirect: 'manual' });
      expect(head.status).toBe(200);
      expect((await readPayment(t, shop.testKey, payment.uuid)).status).toBe('pending');
      const page = await getPage(t, checkoutPath(payment));
      expect(page.status).toBe(303);
      expectSecurityHeaders(page);
      expect(page.location).toBe(`${PUBLIC_URL}/checkout/${tokenOf(payment)}/sandbox`);
      const read = await readPayment(t, shop.testKey, payment.uuid);
      expect(read.status).toBe('processing');
      expect(read.processor).toBe('sandbox');
      // Processing at the sandbox: the payment page leads to the test page.
      const again = await getPage(t, checkoutPath(payment));
      expect(again.status).toBe(303);
      expect(again.location).toBe(`${PUBLIC_URL}/checkout/${tokenOf(payment)}/sandbox`);
    });

    it('completed: "payment received", then back to return_url with payment_uuid and order_id', async () => {
      const payment = await createPayment(t, shop.testKey, {
        order_id: 'order/42 & co',
        return_url: 'http://localhost:3000/thanks?shop=1#top',
      });
      const { result } = await payOnTestPage(t, await openTestPage(t, payment), '4111 1111 1111 1111');
      expect(result.status).toBe(200);
      expectSecurityHeaders(result);
      expect(visibleText(result.text)).toContain('Payment received');
      const back = `http://localhost:3000/thanks?shop=1&payment_uuid=${payment.uuid}&order_id=order%2F42+%26+co#top`;
      expect(result.text).toContain(`href="${back.replace(/&/g, '&amp;')}"`);
      // It leaves by itself after a moment (a nonce script), to exactly that URL.
      expect(result.text).toContain(`"leaveTo":"${back.replace(/&/g, '\\u0026')}"`);
      expect(new URL(back).searchParams.get('order_id')).toBe('order/42 & co');
    });

    it('a held card (capture_method manual) is done for the buyer: "payment received", the payment authorized', async () => {
      const payment = await createPayment(t, shop.testKey, {
        capture_method: 'manual',
        return_url: 'http://localhost:3000/thanks',
      });
      const { result } = await payOnTestPage(t, await openTestPage(t, payment), '4111 1111 1111 1111');
      expect(result.status).toBe(200);
      expect(visibleText(result.text)).toContain('Payment received');
      expect(await readPayment(t, shop.testKey, payment.uuid)).toMatchObject({
        status: 'authorized',
        authorized_amount: payment.amount,
      });
    });

    it('failed: the message of its failure_code and a link back to the shop', async () => {
      const payment = await createPayment(t, shop.testKey, { return_url: 'http://localhost:3000/done' });
      const { result } = await payOnTestPage(t, await openTestPage(t, payment), '4000 0000 0000 0069');
      expect(result.status).toBe(200);
      const text = visibleText(result.text);
      expect(text).toContain('Payment not completed');
      expect(text).toContain('There is not enough money on the card.');
      expect(result.text).toContain(
        `href="http://localhost:3000/done?payment_uuid=${payment.uuid}&amp;order_id=${payment.order_id}"`,
      );
      expect(result.text).not.toContain('"leaveTo":"http');
    });

    it('processing after the timeout card: a waiting page that refreshes itself', async () => {
      const payment = await createPayment(t, shop.testKey);
      const { result } = await payOnTestPage(t, await openTestPage(t, payment), '4000000000000119');
      expect(result.status).toBe(200);
      expect(visibleText(result.text)).toContain('Waiting for the bank');
      expect(result.text).toMatch(/<meta http-equiv="refresh" content="\d+">/);
      // The test page is not offered again while the bank has not answered.
      const test = await getPage(t, checkoutPath(payment, '/sandbox'));
      expect(test.status).toBe(303);
      expect(test.location).toBe(`${PUBLIC_URL}${checkoutPath(payment)}`);
      // A late confirmation completes it.
      const confirmed = await t.call('POST', `/api/v1/test_helpers/payments/${payment.uuid}/confirm`, {
        key: shop.testKey,
        body: {},
      });
      expect(confirmed.body.status).toBe('completed');
      expect(visibleText((await getPage(t, checkoutPath(payment))).text)).toContain('Payment received');
    });
  });

  describe('choosing a method', () => {
    it('moves the payment to processing and sends the buyer to the test page (303)', async () => {
      const payment = await createPayment(t, shop.testKey);
      const page = await getPage(t, checkoutPath(payment));
      const chose = await postForm(t, formAction(page.text), {
        form_token: formToken(page.text),
        processor: 'sandbox',
      });
      expect(chose.status).toBe(303);
      expectSecurityHeaders(chose);
      expect(chose.location).toBe(`${PUBLIC_URL}/checkout/${tokenOf(payment)}/sandbox`);
      const read = await readPayment(t, shop.testKey, payment.uuid);
      expect(read.status).toBe('processing');
      expect(read.processor).toBe('sandbox');
      // Sending the form again is harmless.
      const again = await postForm(t, formAction(page.text), {
        form_token: formToken(page.text),
        processor: 'sandbox',
      });
      expect(again.status).toBe(303);
      expect((await readPayment(t, shop.testKey, payment.uuid)).status).toBe('processing');
    });

    it('refuses a method the payment does not offer (422, page again with a message)', async () => {
      const payment = await createPayment(t, shop.testKey);
      const page = await getPage(t, checkoutPath(payment));
      for (const processor of ['ameria', '', 'constructor']) {
        const chose = await postForm(t, formAction(page.text), { form_token: formToken(page.text), processor });
        expect(chose.status).toBe(422);
        expectSecurityHeaders(chose);
        expect(visibleText(chose.text)).toContain('Choose one of the payment methods below.');
        expect(formToken(chose.text)).toMatch(/^\d+\./);
      }
      expect((await readPayment(t, shop.testKey, payment.uuid)).status).toBe('pending');
    });

    it('refuses a missing, changed, foreign, misused or old form token with a 403 page', async () => {
      const payment = await createPayment(t, shop.testKey);
      const other = await createPayment(t, shop.testKey);
      const token = tokenOf(payment);
      const page = await getPage(t, checkoutPath(payment));
      const good = formToken(page.text);
      const [issued = '', mac = ''] = good.split('.');
      const flipped = `${mac.slice(0, 10)}${mac[10] === 'A' ? 'B' : 'A'}${mac.slice(11)}`;
      const bad = [
        undefined,
        '',
        'garbage',
        `${issued}.${flipped}`,
        `${Number(issued) - 1}.${mac}`,
        issueFormToken(SECRET, tokenOf(other), 'method', t.clock.nowMs()),
        issueFormToken(SECRET, token, 'sandbox', t.clock.nowMs()),
        issueFormToken('another-secret-another-secret-another', token, 'method', t.clock.nowMs()),
        issueFormToken(SECRET, token, 'method', t.clock.nowMs() - 25 * HOUR_MS),
        issueFormToken(SECRET, token, 'method', t.clock.nowMs() + 10 * MINUTE_MS),
      ];
      for (const formTokenValue of bad) {
        const fields: Record<string, string> = { processor: 'sandbox' };
        if (formTokenValue !== undefined) fields.form_token = formTokenValue;
        const res = await postForm(t, checkoutPath(payment, '/method'), fields);
        expect(res.status, String(formTokenValue)).toBe(403);
        expectSecurityHeaders(res);
        expect(visibleText(res.text)).toContain('This form can no longer be sent');
      }
      // A body that is not a form carries no token either.
      const json = await fetch(`${t.url}${checkoutPath(payment, '/method')}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ form_token: good, processor: 'sandbox' }),
      });
      expect(json.status).toBe(403);
      expect((await readPayment(t, shop.testKey, payment.uuid)).status).toBe('pending');
      // Nor does the test page accept a post without its token.
      const test = await openTestPage(t, payment);
      const noToken = await postForm(t, formAction(test.text), { card_number: '4111 1111 1111 1111' });
      expect(noToken.status).toBe(403);
      expect((await readPayment(t, shop.testKey, payment.uuid)).status).toBe('processing');
      // A token a day old is refused, one just younger is fine.
      const almost = issueFormToken(SECRET, token, 'sandbox', t.clock.nowMs() - DAY_MS + 1000);
      const fine = await postForm(t, formAction(test.text), { form_token: almost, card_number: '4000000000000002' });
      expect(fine.status).toBe(303);
      expect((await readPayment(t, shop.testKey, payment.uuid)).failure_code).toBe('declined');
    });
  });

  describe('the test payment page', () => {
    it('asks for card number, expiry, CVV and name, says it is a test, and lists the test cards', async () => {
      const payment = await createPayment(t, shop.testKey, { amount: 12500 });
      const page = await openTestPage(t, payment);
      expectSecurityHeaders(page);
      const text = visibleText(page.text);
      expect(text).toContain('Test payment');
      expect(text).toContain('no real money moves');
      expect(text).toContain('AMD 12,500');
      for (const name of ['card_number', 'expiry', 'cvv', 'cardholder']) expect(page.text).toContain(`name="${name}"`);
      for (const [card] of CARDS) expect(text).toContain(card);
      expect(text).toContain('Declined by issuer');
      expect(text).toContain('Any other 16-digit number is approved.');
      expect(formAction(page.text)).toBe(checkoutPath(payment, '/sandbox'));
    });

    it.each(CARDS)('card %s: %s (%s), and the page says so', async (card, status, failureCode, message) => {
      const payment = await createPayment(t, shop.testKey);
      const { paid, result } = await payOnTestPage(t, await openTestPage(t, payment), card);
      expect(paid.status).toBe(303);
      expect(paid.location).toBe(`${PUBLIC_URL}${checkoutPath(payment)}`);
      expect(result.status).toBe(200);
      expect(visibleText(result.text)).toContain(message);
      const read = await readPayment(t, shop.testKey, payment.uuid);
      expect(read.status).toBe(status);
      expect(read.failure_code).toBe(failureCode);
      expect(read.processor).toBe('sandbox');
      if (status === 'completed') expect(read.rrn).toMatch(/^\d{12}$/);
    });

    it('refuses a number that is not 16 digits: the page again, 422, with the message and no number', async () => {
      const payment = await createPayment(t, shop.testKey);
      const test = await openTestPage(t, payment);
      const cases: Array<[string, string]> = [
        ['5555 4444 3333', 'The card number must have 16 digits.'],
        ['5555 4444 3333 2222 1', 'The card number must have 16 digits.'],
        ['5555-4444-3333-222x', 'The card number must have 16 digits.'],
        ['', 'Enter the 16-digit card number.'],
      ];
      for (const [card, message] of cases) {
        const { paid } = await payOnTestPage(t, test, card);
        expect(paid.status).toBe(422);
        expectSecurityHeaders(paid);
        expect(visibleText(paid.text)).toContain(message);
        expect(paid.text).toContain('aria-invalid="true"');
        if (card !== '') expect(paid.text).not.toContain(card);
        expect(paid.text).not.toContain('55554444');
        expect(paid.text).not.toContain('5555 4444');
        expect(paid.text).not.toMatch(/name="card_number"[^>]*value=/);
      }
      expect((await readPayment(t, shop.testKey, payment.uuid)).status).toBe('processing');
    });

    it('never stores nor sends back the card number (only its last four digits)', async () => {
      const card = '4242 4242 4242 4242';
      const digits = card.replace(/ /g, '');
      const payment = await createPayment(t, shop.testKey);
      const before = seenResponses.length;
      const { result } = await payOnTestPage(t, await openTestPage(t, payment), card);
      expect(visibleText(result.text)).toContain('Payment received');
      const invalid = await createPayment(t, shop.testKey);
      await payOnTestPage(t, await openTestPage(t, invalid), '4242 4242 4242 424');

      const rows = await t.gateway.deps.db.selectFrom('payments').selectAll().execute();
      const events = await t.gateway.deps.db.selectFrom('outbox_events').selectAll().execute();
      const dump = JSON.stringify([rows, events]);
      for (const needle of [digits, card, '424242424242424', '4242 4242 4242 424']) {
        expect(dump).not.toContain(needle);
        for (const text of seenResponses.slice(before)) expect(text).not.toContain(needle);
      }
      const row = rows.find((r) => r.id === payment.uuid);
      expect(row?.card_last4).toBe('4242');
      const api = await t.call('GET', `/api/v1/payments/${payment.uuid}`, { key: shop.testKey });
      expect(api.text).not.toContain(digits);
    });

    it('sends a payment that is not waiting for a test card back to its page', async () => {
      const pending = await createPayment(t, shop.testKey);
      const page = await getPage(t, checkoutPath(pending, '/sandbox'));
      expect(page.status).toBe(303);
      expect(page.location).toBe(`${PUBLIC_URL}${checkoutPath(pending)}`);
      // Posting a card to a pending payment charges nothing (the buyer has not chosen the sandbox).
      const posted = await postForm(t, checkoutPath(pending, '/sandbox'), {
        form_token: issueFormToken(SECRET, tokenOf(pending), 'sandbox', t.clock.nowMs()),
        card_number: '4111111111111111',
      });
      expect(posted.status).toBe(303);
      expect((await readPayment(t, shop.testKey, pending.uuid)).status).toBe('pending');

      const paid = await createPayment(t, shop.testKey);
      const test = await openTestPage(t, paid);
      await payOnTestPage(t, test, '4111111111111111');
      const repeat = await payOnTestPage(t, test, '4000000000000002');
      expect(repeat.paid.status).toBe(303);
      expect((await readPayment(t, shop.testKey, paid.uuid)).status).toBe('completed');
    });
  });

  describe('framing and embedding', () => {
    it('lets anyone frame a sandbox payment on the hosted domain, and accepts any http(s) origin', async () => {
      const payment = await createPayment(t, shop.testKey);
      const page = await getPage(t, checkoutPath(payment));
      expect(cspOf(page)['frame-ancestors']).toBe('*');
      for (const origin of ['http://127.0.0.1:5555', 'https://any.example', 'http://localhost:3000']) {
        const embedded = await getPage(t, `${checkoutPath(payment)}?embed=1&origin=${encodeURIComponent(origin)}`);
        expect(embedded.status, origin).toBe(200);
        expect(embedded.text).toContain('<body class="embedded">');
        expect(embedded.text).toContain(`"origin":"${origin}"`);
        expect(formAction(embedded.text)).toBe(
          `${checkoutPath(payment)}/method?embed=1&origin=${encodeURIComponent(origin)}`,
        );
      }
      for (const origin of ['null', 'file://', 'javascript:alert(1)', 'http://127.0.0.1:5555/', 'ftp://x.am', '']) {
        const refused = await getPage(t, `${checkoutPath(payment)}?embed=1&origin=${encodeURIComponent(origin)}`);
        expect(refused.status, origin).toBe(400);
        expect(visibleText(refused.text)).toContain('This checkout cannot be shown here');
      }
    });

    it('lets only the verified domain frame a payment bound to it, and accepts only its origins', async () => {
      const host = uniqueHost();
      const live = await t.liveMerchant(host);
      const livePayment = await createPayment(t, live.liveKey, { return_url: `https://${host}/done` });
      // A test key naming a verified domain of the account binds the sandbox payment to it.
      const testPayment = await createPayment(t, live.testKey, { domain: host, return_url: `https://${host}/done` });
      for (const payment of [livePayment, testPayment]) {
        const page = await getPage(t, checkoutPath(payment));
        expect(page.status).toBe(200);
        expect(cspOf(page)['frame-ancestors']).toBe(`https://${host} https://*.${host}`);
        for (const origin of [`https://${host}`, `https://www.${host}`, `http://${host}:8080`]) {
          const embedded = await getPage(t, `${checkoutPath(payment)}?embed=1&origin=${encodeURIComponent(origin)}`);
          expect(embedded.status, origin).toBe(200);
          expect(cspOf(embedded)['frame-ancestors']).toBe(`https://${host} https://*.${host}`);
        }
        for (const origin of [
          'https://evil.example',
          `https://${host}.evil.example`,
          `https://evil${host}`,
          `https://${host}/path`,
          'http://127.0.0.1:5555',
        ]) {
          const refused = await getPage(t, `${checkoutPath(payment)}?embed=1&origin=${encodeURIComponent(origin)}`);
          expect(refused.status, origin).toBe(400);
        }
      }
    });

    it('carries embed and origin through the flow and reports the result instead of leaving', async () => {
      const origin = 'http://127.0.0.1:5555';
      const query = `?embed=1&origin=${encodeURIComponent(origin)}`;
      const payment = await createPayment(t, shop.testKey, { return_url: 'http://localhost:3000/done' });
      const test = await openTestPage(t, payment, query);
      expect(formAction(test.text)).toBe(`${checkoutPath(payment)}/sandbox${query}`);
      const { paid, result } = await payOnTestPage(t, test, '4111 1111 1111 1111');
      expect(paid.location).toBe(`${PUBLIC_URL}${checkoutPath(payment)}${query}`);
      expect(result.status).toBe(200);
      expect(result.text).toContain('<body class="embedded">');
      expect(result.text).toContain('checkout.result');
      expect(result.text).toContain(
        `"result":{"status":"completed","payment_uuid":"${payment.uuid}","order_id":"${payment.order_id}","message":"Thank you! Your payment has been received."}`,
      );
      expect(result.text).toContain('"leaveTo":null');
      expect(visibleText(result.text)).not.toContain('Return to the shop');

      const declined = await createPayment(t, shop.testKey);
      const failed = await payOnTestPage(t, await openTestPage(t, declined, query), '4000 0000 0000 0002');
      expect(failed.result.text).toContain('"status":"failed"');
      expect(failed.result.text).toContain('"message":"The card was declined by the issuer."');

      const direct = await createPayment(t, shop.testKey, { processor: 'sandbox', redirect_mode: 'direct' });
      const redirected = await getPage(t, `${checkoutPath(direct)}${query}`);
      expect(redirected.location).toBe(`${PUBLIC_URL}${checkoutPath(direct)}/sandbox${query}`);
    });
  });

  describe('cancel', () => {
    it('goes back to cancel_url, else return_url, with payment_uuid and order_id; the payment stays', async () => {
      const withCancel = await createPayment(t, shop.testKey, {
        return_url: 'http://localhost:3000/done',
        cancel_url: 'http://localhost:3000/cart?from=checkout',
      });
      const page = await getPage(t, checkoutPath(withCancel));
      expect(page.text).toContain(`href="${checkoutPath(withCancel)}/cancel"`);
      const cancelled = await getPage(t, checkoutPath(withCancel, '/cancel'));
      expect(cancelled.status).toBe(303);
      expectSecurityHeaders(cancelled);
      expect(cancelled.location).toBe(
        `http://localhost:3000/cart?from=checkout&payment_uuid=${withCancel.uuid}&order_id=${withCancel.order_id}`,
      );
      expect((await readPayment(t, shop.testKey, withCancel.uuid)).status).toBe('pending');

      const withoutCancel = await createPayment(t, shop.testKey, { return_url: 'http://localhost:3000/done' });
      const back = await getPage(t, checkoutPath(withoutCancel, '/cancel'));
      expect(back.location).toBe(
        `http://localhost:3000/done?payment_uuid=${withoutCancel.uuid}&order_id=${withoutCancel.order_id}`,
      );
    });

    it('embedded: reports "cancelled" to the embedding page instead of leaving', async () => {
      const payment = await createPayment(t, shop.testKey);
      const origin = 'https://merchant.example';
      const page = await getPage(t, `${checkoutPath(payment, '/cancel')}?embed=1&origin=${encodeURIComponent(origin)}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain(`"origin":"${origin}"`);
      expect(page.text).toContain('"status":"cancelled"');
      expect(visibleText(page.text)).toContain('Payment cancelled');
    });

    it('leads a payment that already ended to its page', async () => {
      const payment = await createPayment(t, shop.testKey);
      await payOnTestPage(t, await openTestPage(t, payment), '4111 1111 1111 1111');
      const cancelled = await getPage(t, checkoutPath(payment, '/cancel'));
      expect(cancelled.status).toBe(303);
      expect(cancelled.location).toBe(`${PUBLIC_URL}${checkoutPath(payment)}`);
    });
  });
});
