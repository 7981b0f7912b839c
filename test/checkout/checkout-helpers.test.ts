/**
 * The checkout's pure helpers: form tokens, framing and embedding origins, the CSP, shop URLs with
 * the payment's parameters, escaping, and the choice of language.
 */
import { describe, expect, it } from 'vitest';
import { checkFormToken, FORM_TOKEN_TTL_MS, issueFormToken } from '../../gateway/checkout/form-token.js';
import { embedOriginAllowed, frameAncestors, framingPolicy } from '../../gateway/checkout/framing.js';
import { escapeHtml, scriptJson } from '../../gateway/checkout/html.js';
import { chooseLanguage, DICTIONARIES, fromAcceptLanguage, LANGUAGES } from '../../gateway/checkout/i18n/index.js';
import { cancelDestination, checkoutPath, shopUrl, withCarried } from '../../gateway/checkout/links.js';
import { contentSecurityPolicy } from '../../gateway/checkout/security.js';
import { FAILURE_CODES } from '../../gateway/domain/payment-lifecycle.js';

const SECRET = 'a-service-secret-of-at-least-32-characters';
const TOKEN = 'SADcxDIVi3a-pb0p0OSH6DCQzNxqj_xr';
const NOW = Date.UTC(2026, 10, 21, 10, 0, 0);

describe('form tokens', () => {
  it('accepts its own token for the same payment and form within 24 hours', () => {
    const token = issueFormToken(SECRET, TOKEN, 'method', NOW);
    expect(token).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
    expect(checkFormToken(SECRET, TOKEN, 'method', token, NOW)).toEqual({ ok: true });
    expect(checkFormToken(SECRET, TOKEN, 'method', token, NOW + FORM_TOKEN_TTL_MS - 1)).toEqual({ ok: true });
  });

  it('refuses a token that is missing, malformed, changed, foreign or too old', () => {
    const token = issueFormToken(SECRET, TOKEN, 'method', NOW);
    const [issued = '', mac = ''] = token.split('.');
    const reason = (value: unknown, nowMs = NOW, purpose: 'method' | 'sandbox' = 'method', payment = TOKEN) => {
      const check = checkFormToken(SECRET, payment, purpose, value, nowMs);
      return check.ok ? 'ok' : check.reason;
    };
    expect(reason(undefined)).toBe('missing');
    expect(reason('')).toBe('missing');
    expect(reason(42)).toBe('missing');
    expect(reason('abc')).toBe('malformed');
    expect(reason(`${issued}.${mac}x`)).toBe('malformed');
    expect(reason(`${Number(issued) + 1}.${mac}`)).toBe('tampered');
    expect(reason(`${issued}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`)).toBe('tampered');
    expect(reason(token, NOW, 'sandbox')).toBe('tampered');
    expect(reason(token, NOW, 'method', `${TOKEN.slice(0, -1)}z`)).toBe('tampered');
    expect(checkFormToken(`${SECRET}!`, TOKEN, 'method', token, NOW)).toEqual({ ok: false, reason: 'tampered' });
    expect(reason(token, NOW + FORM_TOKEN_TTL_MS)).toBe('expired');
    expect(reason(issueFormToken(SECRET, TOKEN, 'method', NOW + 5 * 60_000))).toBe('expired');
  });
});

describe('framing', () => {
  const hostedSandbox = framingPolicy({ sandbox: true }, { host: 'shop-1a2b3c.pay.example', hosted: true });
  const verified = framingPolicy({ sandbox: false }, { host: 'shop.am', hosted: false });
  const sandboxOnVerified = framingPolicy({ sandbox: true }, { host: 'shop.am', hosted: false });
  const liveOnHosted = framingPolicy({ sandbox: false }, { host: 'shop-1a2b3c.pay.example', hosted: true });

  it('lets anyone frame a sandbox payment on the hosted domain, else only the domain', () => {
    expect(frameAncestors(hostedSandbox)).toBe('*');
    expect(frameAncestors(verified)).toBe('https://shop.am https://*.shop.am');
    expect(frameAncestors(sandboxOnVerified)).toBe('https://shop.am https://*.shop.am');
    expect(frameAncestors(liveOnHosted)).toBe('https://shop-1a2b3c.pay.example https://*.shop-1a2b3c.pay.example');
    expect(frameAncestors(null)).toBe("'none'");
  });

  it('accepts embedding origins on the domain (or any http(s) origin for the hosted sandbox)', () => {
    for (const origin of ['https://shop.am', 'https://www.shop.am', 'http://shop.am:8080', 'https://a.b.shop.am']) {
      expect(embedOriginAllowed(verified, origin), origin).toBe(true);
    }
    for (const origin of [
      'https://evilshop.am',
      'https://shop.am.evil.example',
      'https://shop.am/',
      'https://shop.am/path',
      'https://user@shop.am',
      'null',
      '',
      'javascript:alert(1)',
      'ws://shop.am',
    ]) {
      expect(embedOriginAllowed(verified, origin), origin).toBe(false);
    }
    expect(embedOriginAllowed(hostedSandbox, 'http://127.0.0.1:3000')).toBe(true);
    expect(embedOriginAllowed(hostedSandbox, 'http://localhost')).toBe(true);
    expect(embedOriginAllowed(hostedSandbox, 'file://')).toBe(false);
    expect(embedOriginAllowed(hostedSandbox, 'http://localhost/')).toBe(false);
  });

  it('writes the CSP with the nonce, form-action to ourselves and the frame ancestors', () => {
    expect(contentSecurityPolicy('n0nce', verified, 'https://pay.example')).toBe(
      "default-src 'none'; script-src 'nonce-n0nce'; style-src 'nonce-n0nce'; img-src 'self' data:; " +
        "form-action 'self' https://pay.example; base-uri 'none'; frame-ancestors https://shop.am https://*.shop.am",
    );
  });
});

describe('links', () => {
  const payment = { uuid: '0192f0c4-0000-7000-8000-000000000001', orderId: 'A-1/2 & 3' };

  it("appends payment_uuid and order_id, keeping the URL's own query and fragment", () => {
    expect(shopUrl('https://shop.am/done', payment)).toBe(
      'https://shop.am/done?payment_uuid=0192f0c4-0000-7000-8000-000000000001&order_id=A-1%2F2+%26+3',
    );
    expect(shopUrl('https://shop.am/done?a=%20b&c', payment)).toBe(
      'https://shop.am/done?a=%20b&c&payment_uuid=0192f0c4-0000-7000-8000-000000000001&order_id=A-1%2F2+%26+3',
    );
    expect(shopUrl('https://shop.am/done?#step', payment)).toBe(
      'https://shop.am/done?payment_uuid=0192f0c4-0000-7000-8000-000000000001&order_id=A-1%2F2+%26+3#step',
    );
    expect(cancelDestination({ ...payment, cancelUrl: null, returnUrl: 'https://shop.am/r' })).toMatch(
      /^https:\/\/shop\.am\/r\?payment_uuid=/,
    );
    expect(cancelDestination({ ...payment, cancelUrl: 'https://shop.am/c', returnUrl: 'https://shop.am/r' })).toMatch(
      /^https:\/\/shop\.am\/c\?payment_uuid=/,
    );
  });

  it("never adds a parameter the merchant's URL already carries (a WooCommerce return or cancel URL)", () => {
    // WooCommerce's return URL carries its own order_id: the gateway adds only payment_uuid.
    expect(shopUrl('https://shop.am/?wc-api=gw_return&order_id=23&key=wc_order_x', payment)).toBe(
      'https://shop.am/?wc-api=gw_return&order_id=23&key=wc_order_x&payment_uuid=0192f0c4-0000-7000-8000-000000000001',
    );
    // get_cancel_order_url_raw(): cancel_order, order, order_id, _wpnonce.
    const cancel = 'https://shop.am/cart/?cancel_order=true&order=wc_order_x&order_id=23&redirect&_wpnonce=abc';
    expect(cancelDestination({ ...payment, cancelUrl: cancel, returnUrl: 'https://shop.am/r' })).toBe(
      `${cancel}&payment_uuid=0192f0c4-0000-7000-8000-000000000001`,
    );
    // Keys are compared as a server decodes them; a URL carrying both gets nothing added.
    expect(shopUrl('https://shop.am/r?order%5Fid=9&payment_uuid=mine#top', payment)).toBe(
      'https://shop.am/r?order%5Fid=9&payment_uuid=mine#top',
    );
    // A key that only looks alike is another key.
    expect(shopUrl('https://shop.am/r?order_id_shop=9', payment)).toBe(
      'https://shop.am/r?order_id_shop=9&payment_uuid=0192f0c4-0000-7000-8000-000000000001&order_id=A-1%2F2+%26+3',
    );
  });

  it('carries embed, origin and lang through the pages', () => {
    const carried = { embedOrigin: 'https://shop.am', lang: 'hy' as const };
    expect(checkoutPath(TOKEN, '', { embedOrigin: null, lang: null })).toBe(`/checkout/${TOKEN}`);
    expect(checkoutPath(TOKEN, 'sandbox', carried)).toBe(
      `/checkout/${TOKEN}/sandbox?embed=1&origin=https%3A%2F%2Fshop.am&lang=hy`,
    );
    expect(withCarried(`https://pay.example/checkout/${TOKEN}/sandbox`, carried)).toBe(
      `https://pay.example/checkout/${TOKEN}/sandbox?embed=1&origin=https%3A%2F%2Fshop.am&lang=hy`,
    );
  });
});

describe('escaping', () => {
  it('escapes HTML and keeps script JSON inert', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
    const json = scriptJson({ text: '</script><!-- \u2028 & >' });
    expect(json).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(json)).toEqual({ text: '</script><!-- \u2028 & >' });
  });
});

describe('languages', () => {
  it('takes ?lang=, then the best Accept-Language match, then English', () => {
    expect(chooseLanguage('ru', 'hy')).toBe('ru');
    expect(chooseLanguage('de', 'hy-AM,hy;q=0.9')).toBe('hy');
    expect(chooseLanguage(undefined, 'de-DE, ru;q=0.3, hy;q=0.7')).toBe('hy');
    expect(chooseLanguage(undefined, 'de, fr;q=0.5')).toBe('en');
    expect(chooseLanguage(undefined, undefined)).toBe('en');
    expect(fromAcceptLanguage('ru;q=0, en;q=0.1')).toBe('en');
    expect(fromAcceptLanguage('*')).toBeUndefined();
  });

  it('has every text in every language, with a message for every failure code', () => {
    const keys = Object.keys(DICTIONARIES.en).sort();
    for (const lang of LANGUAGES) {
      const dictionary = DICTIONARIES[lang];
      expect(Object.keys(dictionary).sort(), lang).toEqual(keys);
      for (const code of FAILURE_CODES) expect(dictionary.failure[code], `${lang} ${code}`).toMatch(/\S/);
      for (const [key, value] of Object.entries(dictionary)) {
        if (typeof value === 'string') expect(value, `${lang}.${key}`).toMatch(/\S/);
      }
    }
    expect(new Set(LANGUAGES.map((lang) => DICTIONARIES[lang].failure.declined)).size).toBe(3);
  });
});
