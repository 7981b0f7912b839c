/**
 * The one way amounts, numbers and times are written for people: `Intl.NumberFormat` and
 * `Intl.DateTimeFormat` in the reader's locale. Pages, mails and messages print money only through
 * `formatMoney` (or the `{amount, number, amd}` argument of a message, which calls it), so an
 * amount reads the same on every page of one language:
 *
 * - English `AMD 18,500`, Armenian `18 500 ֏` (the locales' own currency forms);
 * - Russian `18 500 драмов`: the Russian locale has no sign for the dram (it prints `AMD`), so the
 *   word is written out and agrees with the number (`1 драм`, `2 драма`, `5 драмов`, `21 драм`).
 *
 * Money is whole drams (see gateway/domain): no fraction digits are ever printed for AMD. Times are
 * Yerevan time in the reader's locale; `withZone` adds the zone's name where the reader could
 * otherwise take it for their own.
 */
import { type Language, LOCALES, YEREVAN_TIME_ZONE } from './languages.js';

const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function numberFormat(language: Language, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${language}|${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (format === undefined) {
    format = new Intl.NumberFormat(LOCALES[language], options);
    numberFormats.set(key, format);
  }
  return format;
}

function dateFormat(language: Language, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${language}|${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(LOCALES[language], { ...options, timeZone: YEREVAN_TIME_ZONE });
    dateFormats.set(key, format);
  }
  return format;
}

const WHOLE_AMD: Intl.NumberFormatOptions = {
  style: 'currency',
  currency: 'AMD',
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
};

/** The Russian word for the dram after a number, by the number's plural category. */
const RUSSIAN_DRAM: Readonly<Record<Intl.LDMLPluralRule, string>> = {
  zero: 'драмов',
  one: 'драм',
  two: 'драма',
  few: 'драма',
  many: 'драмов',
  other: 'драма',
};
const russianPlural = new Intl.PluralRules(LOCALES.ru);

/** Whole drams in `language`: `AMD 18,500`, `18 500 ֏`, `18 500 драмов`. */
export function formatAmd(language: Language, amount: number): string {
  const format = numberFormat(language, WHOLE_AMD);
  if (language !== 'ru') return format.format(amount);
  const word = RUSSIAN_DRAM[russianPlural.select(Math.abs(amount))];
  return format
    .formatToParts(amount)
    .map((part) => (part.type === 'currency' ? word : part.value))
    .join('');
}

/**
 * An amount with its currency in `language`: drams as `formatAmd`, another currency (a payment
 * priced in USD, say) with that currency's own digits: `$10.50`, `$10`, `10,50 $`.
 */
export function formatMoney(language: Language, amount: number, currency = 'AMD'): string {
  if (currency === 'AMD') return formatAmd(language, amount);
  return numberFormat(language, { style: 'currency', currency, trailingZeroDisplay: 'stripIfInteger' }).format(amount);
}

/** A count or a plain number, grouped as `language` groups digits (`12,500`, `12 500`). */
export function formatNumber(language: Language, value: number, maximumFractionDigits = 0): string {
  return numberFormat(language, { maximumFractionDigits }).format(value);
}

/** A share as a percentage (`0.125` -> `12.5%`, `12,5 %`). */
export function formatPercent(language: Language, share: number): string {
  return numberFormat(language, { style: 'percent', maximumFractionDigits: 1 }).format(share);
}

/** An exchange rate: `1 USD = 387.5 AMD`, digits in `language`. */
export function formatRate(language: Language, from: string, rate: number, to: string): string {
  return `1 ${from} = ${formatNumber(language, rate, 6)} ${to}`;
}

export type InstantInput = number | string;

function toMs(instant: InstantInput): number {
  return typeof instant === 'number' ? instant : Date.parse(instant);
}

/** Date and time, Yerevan time: `Mar 5, 2026, 6:00 PM`, `05 մրտ, 2026 թ., 18:00`, `5 мар. 2026 г., 18:00`. */
export function formatDateTime(language: Language, instant: InstantInput): string {
  return dateFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(toMs(instant));
}

/** Date and time to the second, Yerevan time (logs, audit entries). */
export function formatDateTimeSeconds(language: Language, instant: InstantInput): string {
  return dateFormat(language, { dateStyle: 'medium', timeStyle: 'medium' }).format(toMs(instant));
}

/** The day alone, Yerevan time: `Mar 5, 2026`. */
export function formatDate(language: Language, instant: InstantInput): string {
  return dateFormat(language, { dateStyle: 'medium' }).format(toMs(instant));
}

/** Day and month, Yerevan time, for chart axes: `Mar 5`, `5 մրտ`, `5 мар.`. */
export function formatDayMonth(language: Language, instant: InstantInput): string {
  return dateFormat(language, { day: 'numeric', month: 'short' }).format(toMs(instant));
}

/** Date and time with the zone named (`GMT+4`): where a reader abroad could take it for their own time. */
export function formatDateTimeWithZone(language: Language, instant: InstantInput): string {
  return dateFormat(language, {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(toMs(instant));
}

/** The options messages use for `{x, number, amd}` and `{x, date, ...}` arguments (see messages.ts). */
export const MESSAGE_FORMATS = {
  number: { amd: WHOLE_AMD },
  date: {
    datetime: { dateStyle: 'medium', timeStyle: 'short', timeZone: YEREVAN_TIME_ZONE },
    day: { dateStyle: 'medium', timeZone: YEREVAN_TIME_ZONE },
    zoned: {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZoneName: 'short',
      timeZone: YEREVAN_TIME_ZONE,
    },
  },
  time: {},
} as const;
