/**
 * Every text of the service's pages and mails, in English, Armenian and Russian, as written in its
 * catalogs (gateway/i18n/messages.ts records each catalog):
 *
 * - every key exists in every language (and a paragraph has as many lines in each);
 * - no Armenian or Russian message is its English one, but for the proper names listed here;
 * - the glossary's words (docs/glossary.md) where a product word has been mistranslated before,
 *   and the hold's words on the payment page and the payments list;
 * - amounts: every `{x, number, amd}` argument prints what the shared formatter prints, and no page
 *   or mail builds an amount by hand (a scan of the sources for amounts glued to a currency, or
 *   numbers and dates formatted outside gateway/i18n/format.ts);
 * - the auto top-up mail calls the bank transfer's code a code, never a link.
 *
 * The Russian plural forms are ./russian-plurals.test.ts; the catalogs and their readers ./catalogs.ts.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { autoTopupEmail } from '../../../gateway/billing/auto-topup.service.js';
import { formatAmd } from '../../../gateway/i18n/format.js';
import { LANGUAGES, type Language } from '../../../gateway/i18n/languages.js';
import { formatMessage } from '../../../gateway/i18n/messages.js';
import { astOf, CATALOGS, messagesOf, sampleValues } from './catalogs.js';

/** Texts that read the same in every language: brands, field names of the processors' own documents, abbreviations. */
const SAME_IN_EVERY_LANGUAGE = new Set([
  'Idram',
  'WooCommerce',
  'Shopify',
  'CVV',
  'RRN',
  'Client ID',
  'IdramID (EDP_REC_ACCOUNT)',
  '—',
  '{day}: {value}',
]);

describe('message catalogs', () => {
  it('were recorded for the checkout, buyer pages, receipt page, dashboard and mails', () => {
    const areas = CATALOGS.map((c) => c.area);
    for (const area of [
      'checkout',
      'dashboard',
      'dashboard.billing',
      'dashboard.payment-detail',
      'dashboard.payment-detail.events',
      'dashboard.payment-detail.refunds',
      'dashboard.payment-detail.holds',
      'mail.auto-topup',
    ]) {
      expect(areas).toContain(area);
    }
    expect(messagesOf('en').length).toBeGreaterThan(600);
  });

  it('have every key in every language', () => {
    for (const { area, texts } of CATALOGS) {
      // A mail's paragraph is a list of lines, wrapped as each language needs: its key counts, not its line count.
      const keys = (language: Language) =>
        [...new Set([...texts[language].keys()].map((k) => k.replace(/\[\d+\]$/, '')))].sort();
      for (const language of ['hy', 'ru'] as const) {
        expect(keys(language), `${area} (${language})`).toEqual(keys('en'));
      }
    }
  });

  it('never leave an Armenian or Russian message in English, but for the listed proper names', () => {
    const same: string[] = [];
    for (const { area, texts } of CATALOGS) {
      for (const [path, english] of texts.en) {
        for (const language of ['hy', 'ru'] as const) {
          const text = texts[language].get(path);
          if (text === english && !SAME_IN_EVERY_LANGUAGE.has(text))
            same.push(`${area}.${path} (${language}): ${text}`);
        }
      }
    }
    expect(same).toEqual([]);
  });

  it('use the same arguments in every language', () => {
    for (const { area, texts } of CATALOGS) {
      for (const [path, english] of texts.en) {
        const names = (language: Language, text: string) =>
          [
            ...new Set(astOf(language, text).flatMap((n) => (n.type > 0 && n.value !== undefined ? [n.value] : []))),
          ].sort();
        const expected = names('en', english);
        for (const language of ['hy', 'ru'] as const) {
          expect(names(language, texts[language].get(path) ?? ''), `${area}.${path} (${language})`).toEqual(expected);
        }
      }
    }
  });

  it('keep the glossary: no English product words left in Armenian and Russian', () => {
    const english = /\b(sandbox|webhooks?|firewall|Payment Gateway|live|processors?)\b/i;
    for (const language of ['hy', 'ru'] as const) {
      // Not counted: select keys (`live {`), code and addresses (`payment.refunded`, `https://…`), the plugin's own name.
      const prose = (text: string) =>
        text
          .replace(/\b\w+ \{/g, '{')
          .replace(/https?:\/\/\S+|"[^"]*"|[a-z_]+\.[a-z_.]+/g, '')
          .replace(/Armenian Payment Gateway/g, '');
      const left = messagesOf(language).filter(([, text]) => english.test(prose(text)));
      expect(left.map(([path, text]) => `${path}: ${text}`)).toEqual([]);
    }
    const russian = messagesOf('ru')
      .map(([, text]) => text)
      .join('\n');
    expect(russian).not.toMatch(/песочниц|живо[йгем]|Не прошёл|Процессор|AMD/);
    const armenian = messagesOf('hy')
      .map(([, text]) => text)
      .join('\n');
    expect(armenian).not.toMatch(/AMD|Ավազարկղ|ավազարկղ|պրոցեսոր|Պրոցեսոր|հարկային կտրոն|Սպասվող(?! հրավեր)/);
  });
});

describe('holds in the dashboard', () => {
  /** The message `path` of `area` in English, Armenian and Russian. */
  const inEachLanguage = (area: string, path: string) =>
    LANGUAGES.map((language) => CATALOGS.find((c) => c.area === area)?.texts[language].get(path));

  it('say hold, capture, release and uncaptured in the glossary’s words', () => {
    const holds = 'dashboard.payment-detail.holds';
    expect(inEachLanguage(holds, 'captureTitle')).toEqual(['Capture', 'Գանձել', 'Списать']);
    expect(inEachLanguage(holds, 'captureConfirmButton')).toEqual(['Capture', 'Գանձել', 'Списать']);
    expect(inEachLanguage(holds, 'releaseTitle')).toEqual([
      'Release the hold',
      'Ապաարգելափակել',
      'Отменить блокировку',
    ]);
    expect(inEachLanguage(holds, 'releaseConfirmButton')).toEqual([
      'Release the hold',
      'Ապաարգելափակել',
      'Отменить блокировку',
    ]);
    expect(inEachLanguage(holds, 'heldAmount')).toEqual([
      'Held on the card',
      'Արգելափակված գումար',
      'Заблокированная сумма',
    ]);
    expect(inEachLanguage(holds, 'captureBefore')).toEqual(['Capture by', 'Գանձել մինչև', 'Списать до']);
    expect(inEachLanguage('dashboard.payments', 'uncaptured')).toEqual([
      'Uncaptured',
      'Սպասում է գանձման',
      'Ожидает списания',
    ]);
    for (const area of ['dashboard.payments', 'dashboard.payment-detail', 'dashboard.customers']) {
      expect(inEachLanguage(area, 'statuses.authorized'), area).toEqual(['Authorized', 'Արգելափակված', 'Авторизован']);
    }
  });

  it('never name a capture or a release in other words', () => {
    const texts = (language: Language) =>
      messagesOf(language)
        .filter(([name]) => name.startsWith('dashboard.payment-detail.holds.') || name.includes('uncaptured'))
        .map(([, text]) => text);
    expect(texts('en').length).toBeGreaterThan(40);
    // Not the card-scheme jargon, a transliteration, or a word that means something else here.
    expect(texts('ru').join('\n')).not.toMatch(/захват|холд|капчур|снят|вернуть/i);
    expect(texts('hy').join('\n')).not.toMatch(/Ավտորիզաց|ավտորիզաց|կապչ|հոլդ|դուրս գր/);
    expect(texts('en').join('\n')).not.toMatch(/\bvoid/i);
  });
});

/** What a hand-built amount or time looks like in a page's or mail's source. */
const HAND_BUILT: readonly RegExp[] = [
  // an interpolated number glued to a currency: `${amount} AMD`, `AMD ${amount}`, `${n} ֏`, `${n} драмов`
  /\$\{[^}]*\}\s*(AMD|֏|драм|դրամ)/,
  /(AMD|֏)\s*\$\{/,
  // numbers, money and dates formatted outside the shared formatter
  /new Intl\.(NumberFormat|DateTimeFormat)\(/,
  /\.toLocaleString\('/,
  /toFixed\(2\)\}?\s*(AMD|֏)/,
  // an instant printed as ISO text with "UTC"
  /slice\(\d+, \d+\)\}? UTC/,
];

describe('amounts', () => {
  it('print every {x, number, amd} argument through the shared formatter', () => {
    let checked = 0;
    for (const language of LANGUAGES) {
      for (const [name, text] of messagesOf(language)) {
        const ast = astOf(language, text);
        const amounts = ast.filter((node) => node.type === 2 && node.style === 'amd');
        if (amounts.length === 0) continue;
        const values = sampleValues(ast, null, 0);
        for (const node of amounts) values[node.value ?? ''] = 18_500;
        const shown = formatMessage(language, text, values);
        expect(shown, `${name} (${language})`).toContain(formatAmd(language, 18_500));
        expect(shown, `${name} (${language})`).not.toMatch(/18[, {2}]?500(\.00)? ?AMD|AMD-/);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('are never built by hand in the sources of pages and mails', () => {
    const roots = [
      'gateway/checkout',
      'gateway/dashboard',
      'gateway/payment-links',
      'gateway/receipts',
      'gateway/billing',
      'gateway/notifications',
      'gateway/merchants',
      'gateway/i18n',
    ];
    const exempt = new Set(['gateway/i18n/format.ts', 'gateway/i18n/messages.ts']);
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
      });
    const found: string[] = [];
    for (const file of roots.flatMap((root) => files(root))) {
      if (exempt.has(file)) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (HAND_BUILT.some((pattern) => pattern.test(line)))
            found.push(`${file}:${i + 1}: ${line.trim().slice(0, 120)}`);
        });
    }
    expect(found).toEqual([]);
  });

  it('the scan catches a hand-built amount', () => {
    const interpolated = (inner: string) => ['$', '{', inner, '}'].join('');
    const samples = [
      `return \`${interpolated('amount')} AMD\`;`,
      `\`AMD ${interpolated('amount')}\``,
      `\`${interpolated('n')} драмов\``,
      'return new Intl.NumberFormat(locale).format(amount);',
      "amount.toLocaleString('en-US')",
    ];
    for (const line of samples)
      expect(
        HAND_BUILT.some((pattern) => pattern.test(line)),
        line,
      ).toBe(true);
  });
});

describe('the auto top-up mail', () => {
  const input = {
    counter: 'transactions' as const,
    balance: 1,
    threshold: 2,
    quantity: 21,
    amountAmd: 18_500,
    payLink: null,
    reference: 'GW-AB12-CD34',
    purchaseId: 'pur_1',
  };

  it('calls the bank transfer code a code in every language, never a link, and prints the amount from the formatter', () => {
    const words: Record<Language, RegExp> = {
      en: /Reference: +GW-AB12-CD34/,
      hy: /Փոխանցման կոդ՝ +GW-AB12-CD34/,
      ru: /Код: +GW-AB12-CD34/,
    };
    for (const language of LANGUAGES) {
      const { text } = autoTopupEmail(input, language);
      expect(text).toMatch(words[language]);
      expect(text).toContain(formatAmd(language, 18_500));
    }
    const armenian = autoTopupEmail(input, 'hy').text;
    expect(armenian).not.toContain('հղում');
    expect(autoTopupEmail(input, 'ru').text).not.toContain('ссылк');
    expect(armenian).toContain('Վճարային դարպաս');
    expect(autoTopupEmail(input, 'ru').subject).toBe('Пополните баланс транзакций: 21 единица готова к оплате');
  });
});
