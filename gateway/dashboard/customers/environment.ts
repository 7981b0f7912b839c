/**
 * What the customers and overview pages share: the test/live switch (`?env=test|live`, live when
 * absent or anything else), whole-AMD amounts and instants in the reader's language.
 */
import { escapeHtml } from '../../checkout/html.js';
import { formatAmd, formatDateTime, formatNumber } from '../../i18n/format.js';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '../../i18n/languages.js';

export type Environment = 'live' | 'test';

export function environmentOf(raw: string | undefined): Environment {
  return raw === 'test' ? 'test' : 'live';
}

export interface EnvironmentWords {
  readonly label: string;
  readonly live: string;
  readonly test: string;
}

/** Two links, the current one marked `aria-current`; `href(env)` builds each link. */
export function environmentSwitch(words: EnvironmentWords, current: Environment, href: (env: Environment) => string) {
  const link = (env: Environment) =>
    `<a href="${escapeHtml(href(env))}"${env === current ? ' aria-current="true"' : ''}>${escapeHtml(words[env])}</a>`;
  return `<nav class="env-switch" aria-label="${escapeHtml(words.label)}">${link('live')}${link('test')}</nav>`;
}

function languageOf(locale: string): Language {
  return isLanguage(locale) ? locale : DEFAULT_LANGUAGE;
}

/** Whole drams in the reader's language, from the shared formatter: `AMD 12,500`, `12 500 ֏`. */
export function amd(amount: number, locale: string): string {
  return formatAmd(languageOf(locale), amount);
}

export function count(n: number, locale: string): string {
  return formatNumber(languageOf(locale), n);
}

/** A stored instant in words of the reader's language (Yerevan time), in a `<time>`. */
export function instant(stored: string | null, locale: string): string {
  if (stored === null) return '—';
  const text = Number.isNaN(Date.parse(stored)) ? stored : formatDateTime(languageOf(locale), stored);
  return `<time datetime="${escapeHtml(stored)}">${escapeHtml(text)}</time>`;
}
