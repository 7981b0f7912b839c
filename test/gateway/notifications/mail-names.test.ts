/**
 * Names the merchant typed, as mails print them (docs/decisions.md "Account names"): quoted in the
 * mail's language and with nothing a mail client would make a link of; the business decision mail
 * prints the legal name that way.
 */
import { describe, expect, it } from 'vitest';
import { decisionEmail } from '../../../gateway/merchants/business-decision-email.js';
import { nameInMail } from '../../../gateway/notifications/mail-names.js';

const HOSTILE = '<a href="http://evil.test/x">CLICK</a>';

describe('nameInMail', () => {
  it('quotes as each language does', () => {
    expect(nameInMail('Demo Shop', 'en')).toBe('"Demo Shop"');
    expect(nameInMail('Demo Shop', 'hy')).toBe('«Demo Shop»');
    expect(nameInMail('Demo Shop', 'ru')).toBe('«Demo Shop»');
  });
});

describe('the business decision mail', () => {
  it.each(['en', 'hy', 'ru'] as const)('prints a hostile legal name quoted and defanged (%s)', (language) => {
    for (const kind of ['verified', 'rejected'] as const) {
      const mail = decisionEmail(
        { kind, legalName: HOSTILE, reason: 'Unreadable extract.' },
        'https://pay.am',
        language,
      );
      expect(mail.text).toContain(nameInMail(HOSTILE, language));
      for (const part of [mail.subject, mail.text]) {
        expect(part).not.toContain('<');
        expect(part).not.toContain('evil.test');
        expect(part).not.toContain('http://evil');
      }
    }
  });

  it('keeps a plain legal name as it reads', () => {
    const mail = decisionEmail({ kind: 'verified', legalName: 'Ararat Books LLC', reason: null }, 'https://pay.am');
    expect(mail.text).toContain('We checked the details you sent and verified "Ararat Books LLC".');
  });
});
