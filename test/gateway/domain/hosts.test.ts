/**
 * Host names as the domain rules see them: normalisation, the host of a URL, hosts that can never
 * be verified, and when a host lies on a domain.
 */
import { describe, expect, it } from 'vitest';
import { hostLiesOn, hostOfUrl, isIpLiteral, isNeverVerifiable, normalizeHost } from '../../../gateway/domain/hosts.js';

describe('normalizeHost', () => {
  it.each([
    ['shop.am', 'shop.am'],
    ['Shop.AM', 'shop.am'],
    ['shop.am.', 'shop.am'],
    ['  www.shop.am  ', 'www.shop.am'],
    ['a-b.c-d.example.com', 'a-b.c-d.example.com'],
    ['xn--80aa0acd8a.xn--y9a3aq', 'xn--80aa0acd8a.xn--y9a3aq'],
    ['localhost', 'localhost'],
    [`${'a'.repeat(63)}.am`, `${'a'.repeat(63)}.am`],
  ])('reads %j as %j', (input, host) => {
    expect(normalizeHost(input)).toBe(host);
  });

  it('writes an internationalised name in punycode', () => {
    const host = normalizeHost('Խանութ.հայ');
    expect(host).not.toBeNull();
    expect(host).toMatch(/^xn--[a-z0-9-]+\.xn--[a-z0-9-]+$/);
    expect(normalizeHost(host as string)).toBe(host);
  });

  it.each([
    '',
    '   ',
    '.',
    'shop.am:443',
    'https://shop.am',
    'shop.am/path',
    'shop.am?x',
    'shop.am#x',
    'user@shop.am',
    'shop am',
    'shop\\am',
    'shop.am\u0000',
    'shop\u0007.am',
    '\u001fshop.am',
    '-shop.am',
    'shop-.am',
    'shop..am',
    'shop_am.am',
    `${'a'.repeat(64)}.am`,
    `${'a.'.repeat(127)}am`,
    '127.0.0.1',
    '[::1]',
    '::1',
  ])('refuses %j', (input) => {
    expect(normalizeHost(input)).toBeNull();
  });
});

describe('hostOfUrl', () => {
  it.each([
    ['https://shop.am/done', 'shop.am'],
    ['http://Shop.AM/done', 'shop.am'],
    ['https://shop.am./done', 'shop.am'],
    ['https://www.shop.am:8443/x?y=1#z', 'www.shop.am'],
    ['https://user:pass@shop.am/', 'shop.am'],
    ['http://localhost:3000/done', 'localhost'],
    ['http://127.0.0.1:8080/', '127.0.0.1'],
    ['http://[::1]:8080/', '::1'],
    ['http://0x7f.1/', '127.0.0.1'],
  ])('reads the host of %s as %s', (url, host) => {
    expect(hostOfUrl(url)).toBe(host);
  });

  it('writes an internationalised host in punycode', () => {
    expect(hostOfUrl('https://Խանութ.հայ/done')).toBe(normalizeHost('Խանութ.հայ'));
  });

  it.each([
    'shop.am/done',
    '/done',
    '',
    'not a url',
    'ftp://shop.am/file',
    'javascript:alert(1)',
    'mailto:shop@shop.am',
    'file:///etc/passwd',
    'data:text/html,hi',
  ])('answers null for %j', (url) => {
    expect(hostOfUrl(url)).toBeNull();
  });
});

describe('isIpLiteral', () => {
  it.each(['127.0.0.1', '10.0.0.1', '::1', 'fe80::1', '2001:db8::1'])('treats %s as an IP literal', (host) => {
    expect(isIpLiteral(host)).toBe(true);
  });

  it.each(['shop.am', 'localhost', '1.2.3.am', '1.2.3'])('does not treat %s as an IP literal', (host) => {
    expect(isIpLiteral(host)).toBe(false);
  });
});

describe('isNeverVerifiable', () => {
  it.each(['localhost', 'app.localhost', '127.0.0.1', '192.168.1.10', '::1', 'intranet'])(
    '%s can never be verified',
    (host) => {
      expect(isNeverVerifiable(host)).toBe(true);
    },
  );

  it.each(['shop.am', 'www.shop.am', 'localhost.am', 'my-localhost.com'])('%s may be verified', (host) => {
    expect(isNeverVerifiable(host)).toBe(false);
  });
});

describe('hostLiesOn', () => {
  it.each([
    ['shop.am', 'shop.am'],
    ['www.shop.am', 'shop.am'],
    ['a.b.c.shop.am', 'shop.am'],
  ])('%s lies on %s', (host, domain) => {
    expect(hostLiesOn(host, domain)).toBe(true);
  });

  it.each([
    ['evilshop.am', 'shop.am'],
    ['shop.am.evil.com', 'shop.am'],
    ['shop.am', 'www.shop.am'],
    ['shop.com', 'shop.am'],
    ['am', 'shop.am'],
  ])('%s does not lie on %s', (host, domain) => {
    expect(hostLiesOn(host, domain)).toBe(false);
  });
});
