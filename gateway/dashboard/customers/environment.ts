/**
 * What the customers and overview pages share: the test/live switch (`?env=test|live`, live when
 * absent or anything else), whole-AMD amounts and instants in the reader's language.
 */
import { escapeHtml } from '../../checkout/html.js';

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

/** Whole AMD, grouped in the reader's language: `12 500 AMD`. */
export function amd(amount: number, locale: string): string {
  return `${new Intl.NumberFormat(locale).format(amount)} AMD`;
}

export function count(n: number, locale: string): string {
  return new Intl.NumberFormat(locale).format(n);
}

/** A stored instant in words of the reader's language (UTC), in a `<time>`. */
export function instant(stored: string | null, locale: string): string {
  if (stored === null) return '—';
  const ms = Date.parse(stored);
  const text = Number.isNaN(ms)
    ? stored
    : new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(ms);
  return `<time datetime="${escapeHtml(stored)}">${escapeHtml(text)}</time>`;
}
