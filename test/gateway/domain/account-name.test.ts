/**
 * Account names (docs/decisions.md "Account names"): the rule a new name must pass, and how a mail
 * prints any stored name so that it cannot pass for a link or markup.
 */
import { describe, expect, it } from 'vitest';
import { ACCOUNT_NAME_MAX_LENGTH, accountNameProblem, nameForMail } from '../../../gateway/domain/account-name.js';

/** What a mail client would make a link of, or read as markup. */
const LINK_LOOKING = /:\/\/|www\.|[\p{L}\p{N}][.\u3002\uff0e\uff61][\p{L}\p{N}]|[<>]/u;

describe('accountNameProblem', () => {
  it.each([
    'Demo Shop',
    'Payment Gateway (house account)',
    'Ararat Books',
    'Menu.am',
    'ООО "Ромашка"',
    '«Արարատ» ՍՊԸ',
    'Tom & Jerry, Ltd.',
    'Café 24/7: open',
    'a'.repeat(ACCOUNT_NAME_MAX_LENGTH),
    `  ${'b'.repeat(ACCOUNT_NAME_MAX_LENGTH)}  `,
  ])('takes %j', (name) => {
    expect(accountNameProblem(name)).toBeNull();
  });

  it.each([
    ['', 'required'],
    ['   ', 'required'],
    ['a'.repeat(ACCOUNT_NAME_MAX_LENGTH + 1), 'too_long'],
    ['<a href="http://evil.test/x">CLICK</a>', 'forbidden_characters'],
    ['Shop <b>', 'forbidden_characters'],
    ['Shop > all', 'forbidden_characters'],
    ['Shop\nSubject: hi', 'forbidden_characters'],
    ['Shop\u0007', 'forbidden_characters'],
    ['Shop\u0085', 'forbidden_characters'],
    ['Shop\u2028next', 'forbidden_characters'],
    ['Shop\u202egnp.exe', 'forbidden_characters'],
    ['Sh\u200bop', 'forbidden_characters'],
    ['Visit http://evil.test', 'looks_like_link'],
    ['evil://x', 'looks_like_link'],
    ['www.evil.test', 'looks_like_link'],
    ['WWW.Evil.Test', 'looks_like_link'],
    ['www\u3002evil\u3002test', 'looks_like_link'],
  ])('refuses %j: %s', (name, problem) => {
    expect(accountNameProblem(name)).toBe(problem);
  });
});

describe('nameForMail', () => {
  it('quotes a plain name and changes nothing else', () => {
    expect(nameForMail('Demo Shop')).toBe('"Demo Shop"');
    expect(nameForMail('Tom & Jerry, Ltd.')).toBe('"Tom & Jerry, Ltd."');
    expect(nameForMail('«Արարատ» ՍՊԸ')).toBe('"«Արարատ» ՍՊԸ"');
  });

  it('neutralises a stored name that holds markup and a link', () => {
    const shown = nameForMail('<a href="http://evil.test/x">CLICK</a>');
    expect(shown).toBe(`"‹a href='http[:]//evil[.]test/x'›CLICK‹/a›"`);
    expect(shown.slice(1, -1)).not.toMatch(LINK_LOOKING);
    expect(shown.slice(1, -1)).not.toContain('"');
  });

  it.each([
    'www.evil.test',
    'Pay at evil.test now',
    'mail sales@evil.test',
    'https://user:pass@evil.test:8443/x?y=z',
    'evil\u3002test and evil\uff0etest',
    'xn--80ak6aa92e.com',
  ])('leaves nothing link-looking in %j', (name) => {
    const shown = nameForMail(name);
    expect(shown.startsWith('"') && shown.endsWith('"')).toBe(true);
    expect(shown.slice(1, -1)).not.toMatch(LINK_LOOKING);
  });

  it('quotes with guillemets when asked, changing guillemets inside the name', () => {
    expect(nameForMail('«Արարատ» ՍՊԸ', 'guillemets')).toBe('«"Արարատ" ՍՊԸ»');
    expect(nameForMail('ООО "Ромашка"', 'guillemets')).toBe('«ООО "Ромашка"»');
    expect(nameForMail('<a href="http://evil.test/x">CLICK</a>', 'guillemets')).toBe(
      '«‹a href="http[:]//evil[.]test/x"›CLICK‹/a›»',
    );
  });

  it('keeps it on one line without invisible or direction-changing characters', () => {
    const shown = nameForMail('Shop\r\nBcc: x@evil.test\u202e\u200b\t end');
    expect(shown).toBe('"Shop Bcc: x@evil[.]test end"');
  });

  it('cuts a long name', () => {
    const shown = nameForMail('n'.repeat(ACCOUNT_NAME_MAX_LENGTH + 50));
    expect(shown).toBe(`"${'n'.repeat(ACCOUNT_NAME_MAX_LENGTH - 1)}…"`);
  });
});
