/**
 * The service's languages: English (complete, the default), Armenian and Russian, and the locale
 * each one formats numbers, money and dates with. Every page and mail picks one of these.
 */
export type Language = 'en' | 'hy' | 'ru';

export const LANGUAGES: readonly Language[] = ['en', 'hy', 'ru'];
export const DEFAULT_LANGUAGE: Language = 'en';

/** BCP 47 locale of each language: `<html lang>`, plural rules, number and date formats. */
export const LOCALES: Readonly<Record<Language, string>> = { en: 'en-US', hy: 'hy-AM', ru: 'ru-RU' };

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * Times are shown in Yerevan time (UTC+4 all year since 2012), the time of the buyers and
 * merchants in Armenia; the API keeps UTC.
 */
export const YEREVAN_TIME_ZONE = 'Asia/Yerevan';
