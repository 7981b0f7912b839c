/**
 * Names the merchant typed (the account's name, the business's legal name) as every mail prints
 * them: through `nameForMail` (gateway/domain/account-name.ts), quoted as the mail's language
 * quotes: `"…"` in English, `«…»` in Armenian and Russian.
 */
import type { Language } from '../checkout/i18n/index.js';
import { type MailQuotes, nameForMail } from '../domain/account-name.js';

const QUOTES: Readonly<Record<Language, MailQuotes>> = { en: 'straight', hy: 'guillemets', ru: 'guillemets' };

/** `name` quoted and neutralised for a plain-text mail in `language` (subject or body). */
export function nameInMail(name: string, language: Language): string {
  return nameForMail(name, QUOTES[language]);
}
