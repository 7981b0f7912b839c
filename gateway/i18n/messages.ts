/**
 * Messages in ICU MessageFormat (intl-messageformat), so a sentence is always written whole in its
 * language, with `plural`, `select`, `number` and `date` arguments, never glued from pieces.
 *
 * Each area keeps its texts as a catalog per language: the same keys in each, every leaf an ICU
 * message (a list of messages for a paragraph of lines). `defineMessages` compiles the catalogs
 * once and binds them to the area's typed interface: a message with arguments becomes a function
 * whose parameters are named in `args`, in order (`pricePerUnit: ['amd']` formats
 * `{amd, number, amd} per unit`), or, with `'values'`, one function taking the values by name; a
 * message without arguments becomes its text. Every catalog is also recorded here, so tests can
 * read each message of each language (test/gateway/i18n).
 *
 * Formats a message may name: `{x, number, amd}` (whole drams, see format.ts), `{x, number}`,
 * `{x, date, datetime}`, `{x, date, day}` and `{x, date, zoned}` (Yerevan time; an instant as
 * milliseconds or ISO text). Tags are off: `<` and `>` are plain text.
 */
import { IntlMessageFormat } from 'intl-messageformat';
import { formatAmd, MESSAGE_FORMATS } from './format.js';
import { LANGUAGES, type Language, LOCALES } from './languages.js';

type AnyFn = (...args: never[]) => unknown;

/** The catalog that implements `T` in one language: the same keys, a message wherever `T` has text. */
export type Catalog<T> = T extends string
  ? string
  : T extends (...args: never[]) => readonly string[]
    ? readonly string[]
    : T extends AnyFn
      ? string
      : T extends readonly string[]
        ? readonly string[]
        : { readonly [K in keyof T]: Catalog<T[K]> };

type HasFunction<T> = T extends AnyFn
  ? true
  : T extends string | readonly string[]
    ? false
    : true extends { [K in keyof T]-?: HasFunction<T[K]> }[keyof T]
      ? true
      : false;

type Names<P extends readonly unknown[]> = { readonly [I in keyof P]: string };

/** The argument names of each message of `T` that takes arguments (see the file comment). */
export type ArgNames<T> = {
  readonly [K in keyof T as HasFunction<T[K]> extends true ? K : never]: T[K] extends AnyFn
    ? Names<Parameters<T[K]>> | 'values'
    : ArgNames<T[K]>;
};

/** One area's catalogs as written, for tests. */
export interface RecordedCatalogs {
  readonly area: string;
  readonly catalogs: Readonly<Record<Language, unknown>>;
  readonly args: unknown;
}

const RECORDED: RecordedCatalogs[] = [];

/** Every catalog defined so far (those of the modules imported). */
export function recordedCatalogs(): readonly RecordedCatalogs[] {
  return RECORDED;
}

/** `Intl.NumberFormat` for `{x, number, amd}` answers through formatAmd; any other through Intl. */
function formattersFor(language: Language) {
  const numberFormats = new Map<string, Intl.NumberFormat>();
  const dateFormats = new Map<string, Intl.DateTimeFormat>();
  const plurals = new Map<string, Intl.PluralRules>();
  return {
    getNumberFormat(locales?: string | string[], options?: Intl.NumberFormatOptions): Intl.NumberFormat {
      if (options?.style === 'currency' && options.currency === 'AMD') {
        return { format: (value: number) => formatAmd(language, value) } as Intl.NumberFormat;
      }
      const key = JSON.stringify(options ?? {});
      let format = numberFormats.get(key);
      if (format === undefined) {
        format = new Intl.NumberFormat(locales, options);
        numberFormats.set(key, format);
      }
      return format;
    },
    getDateTimeFormat(locales?: string | string[], options?: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
      const key = JSON.stringify(options ?? {});
      let format = dateFormats.get(key);
      if (format === undefined) {
        const inner = new Intl.DateTimeFormat(locales, options);
        // An instant may come as ISO text (as stored); Intl reads numbers.
        format = {
          format: (value: number | string) => inner.format(typeof value === 'string' ? Date.parse(value) : value),
        } as Intl.DateTimeFormat;
        dateFormats.set(key, format);
      }
      return format;
    },
    getPluralRules(locales?: string | string[], options?: Intl.PluralRulesOptions): Intl.PluralRules {
      const key = JSON.stringify(options ?? {});
      let rules = plurals.get(key);
      if (rules === undefined) {
        rules = new Intl.PluralRules(locales, options);
        plurals.set(key, rules);
      }
      return rules;
    },
  };
}

const FORMATTERS: Readonly<Record<Language, ReturnType<typeof formattersFor>>> = {
  en: formattersFor('en'),
  hy: formattersFor('hy'),
  ru: formattersFor('ru'),
};

/** `source` compiled for `language`; `where` names it in errors. */
export function compileMessage(language: Language, source: string, where = ''): IntlMessageFormat {
  try {
    return new IntlMessageFormat(source, LOCALES[language], MESSAGE_FORMATS as never, {
      ignoreTag: true,
      formatters: FORMATTERS[language],
    });
  } catch (error) {
    throw new Error(`message ${where} (${language}) is not valid ICU MessageFormat: ${String(error)}`);
  }
}

export type MessageValues = Readonly<Record<string, string | number>>;

/** Formats `message` with `values` to plain text. */
export function formatCompiled(message: IntlMessageFormat, values?: MessageValues): string {
  const out = message.format(values as Record<string, string | number>);
  return Array.isArray(out) ? out.join('') : String(out);
}

/** Formats one ICU message once (tests, one-off texts). */
export function formatMessage(language: Language, source: string, values?: MessageValues): string {
  return formatCompiled(compileMessage(language, source), values);
}

function bind(language: Language, source: unknown, args: unknown, where: string): unknown {
  if (typeof source === 'string' || Array.isArray(source)) {
    const lines = (Array.isArray(source) ? source : [source]).map((line: string, index) =>
      compileMessage(language, line, Array.isArray(source) ? `${where}[${index}]` : where),
    );
    const render = (values?: MessageValues) => {
      const texts = lines.map((line) => formatCompiled(line, values));
      return Array.isArray(source) ? texts : texts[0];
    };
    if (args === undefined) return render();
    if (args === 'values') return (values: MessageValues) => render(values);
    if (!Array.isArray(args)) throw new Error(`message ${where}: arguments must be a list of names`);
    const names = args as readonly string[];
    return (...given: (string | number)[]) =>
      render(Object.fromEntries(names.map((name, i) => [name, given[i] ?? ''])));
  }
  if (source !== null && typeof source === 'object') {
    const nested = (args ?? {}) as Record<string, unknown>;
    return Object.fromEntries(
      Object.entries(source).map(([key, value]) => [key, bind(language, value, nested[key], `${where}.${key}`)]),
    );
  }
  throw new Error(`message ${where} (${language}) is neither text nor a group of texts`);
}

/**
 * The messages of `area` in each language, from its catalogs (see the file comment). Throws at
 * start-up on a message that is not valid ICU MessageFormat.
 */
export function defineMessages<T>(
  area: string,
  catalogs: Readonly<Record<Language, Catalog<T>>>,
  args: ArgNames<T>,
): Readonly<Record<Language, T>> {
  RECORDED.push({ area, catalogs, args });
  return Object.fromEntries(
    LANGUAGES.map((language) => [language, bind(language, catalogs[language], args, area)]),
  ) as Record<Language, T>;
}
