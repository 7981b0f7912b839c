/**
 * The checkout's languages: English (complete, the default), Armenian and Russian. The language is
 * `?lang=` when it names one of them, else the best match of `Accept-Language`, else English.
 */
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language } from '../../i18n/languages.js';
import { defineMessages } from '../../i18n/messages.js';
import { en } from './en.js';
import { hy } from './hy.js';
import type { Messages } from './messages.js';
import { ru } from './ru.js';

export type { Language, Messages } from './messages.js';
export { DEFAULT_LANGUAGE, isLanguage, LANGUAGES };

export const DICTIONARIES = defineMessages<Messages>(
  'checkout',
  { en, hy, ru },
  {
    continueToPay: ['amount'],
    chargedInAmd: ['amount', 'rate'],
    handoffTitle: ['method'],
    expiresIn: ['minutes'],
    payButton: ['amount'],
    confirmingText: ['name'],
    waitingForNotice: ['name'],
    unconfirmedText: ['name'],
  },
);

/** The best supported language of an `Accept-Language` header (q-values respected), if any. */
export function fromAcceptLanguage(header: string | undefined): Language | undefined {
  if (header === undefined || header === '') return undefined;
  const ranked = header
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q === undefined ? 1 : Number(q.slice(2));
      return { primary: tag.trim().toLowerCase().split('-')[0] ?? '', quality, index };
    })
    .filter((entry) => Number.isFinite(entry.quality) && entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  return ranked.map((entry) => entry.primary).find(isLanguage);
}

export function chooseLanguage(query: unknown, acceptLanguage: string | undefined): Language {
  if (isLanguage(query)) return query;
  return fromAcceptLanguage(acceptLanguage) ?? DEFAULT_LANGUAGE;
}
