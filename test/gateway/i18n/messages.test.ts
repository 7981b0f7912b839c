/**
 * Every text of the service's pages and mails, in English, Armenian and Russian, as written in its
 * catalogs (gateway/i18n/messages.ts records each catalog):
 *
 * - every key exists in every language (and a paragraph has as many lines in each);
 * - no Armenian or Russian message is its English one, but for the proper names listed here;
 * - every Russian plural message, rendered for 1, 2, 5, 21 and 0, says the forms a Russian reader
 *   expects (and names `one`, `few` and `many`);
 * - amounts: every `{x, number, amd}` argument prints what the shared formatter prints, and no page
 *   or mail builds an amount by hand (a scan of the sources for amounts glued to a currency, or
 *   numbers and dates formatted outside gateway/i18n/format.ts);
 * - the auto top-up mail calls the bank transfer's code a code, never a link.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { autoTopupEmail } from '../../../gateway/billing/auto-topup.service.js';
import { formatAmd } from '../../../gateway/i18n/format.js';
import { LANGUAGES, type Language } from '../../../gateway/i18n/languages.js';
import { compileMessage, formatMessage, recordedCatalogs } from '../../../gateway/i18n/messages.js';
// Each module below defines its catalogs when imported.
import '../../../gateway/checkout/i18n/index.js';
import '../../../gateway/dashboard/i18n/index.js';
import '../../../gateway/dashboard/api-keys/messages.js';
import '../../../gateway/dashboard/audit/messages.js';
import '../../../gateway/dashboard/billing/messages.js';
import '../../../gateway/dashboard/business/messages.js';
import '../../../gateway/dashboard/connect-tokens/messages.js';
import '../../../gateway/dashboard/customers/messages.js';
import '../../../gateway/dashboard/demo/messages.js';
import '../../../gateway/dashboard/domains/messages.js';
import '../../../gateway/dashboard/overview/messages.js';
import '../../../gateway/dashboard/payment-detail/messages.js';
import '../../../gateway/dashboard/payment-links/messages.js';
import '../../../gateway/dashboard/payments/messages.js';
import '../../../gateway/dashboard/processors/messages.js';
import '../../../gateway/dashboard/team/messages.js';
import '../../../gateway/dashboard/two-factor/messages.js';
import '../../../gateway/i18n/method-names.js';
import '../../../gateway/notifications/delivery-failure-email.js';
import '../../../gateway/payment-links/buyer-messages.js';
import '../../../gateway/receipts/receipt-page.js';

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

type Leaf = readonly [path: string, text: string];

function leaves(node: unknown, path = ''): Leaf[] {
  if (typeof node === 'string') return [[path, node]];
  if (Array.isArray(node)) return node.flatMap((item, i) => leaves(item, `${path}[${i}]`));
  return Object.entries(node as Record<string, unknown>).flatMap(([key, value]) =>
    leaves(value, path === '' ? key : `${path}.${key}`),
  );
}

const CATALOGS = recordedCatalogs().map((recorded) => ({
  area: recorded.area,
  texts: Object.fromEntries(
    LANGUAGES.map((language) => [language, new Map(leaves(recorded.catalogs[language]))]),
  ) as Record<Language, Map<string, string>>,
}));

/** Every message of `language`, named `area.path`. */
function messagesOf(language: Language): Leaf[] {
  return CATALOGS.flatMap(({ area, texts }) =>
    [...texts[language]].map(([path, text]) => [`${area}.${path}`, text] as const),
  );
}

// ICU element types (see @formatjs/icu-messageformat-parser): 1 argument, 2 number, 3 date, 5 select, 6 plural.
interface AstNode {
  readonly type: number;
  readonly value?: string;
  readonly style?: unknown;
  readonly options?: Record<string, { readonly value: readonly AstNode[] }>;
}

function nodes(ast: readonly AstNode[]): AstNode[] {
  return ast.flatMap((node) => [node, ...Object.values(node.options ?? {}).flatMap((option) => nodes(option.value))]);
}

function astOf(language: Language, text: string): AstNode[] {
  return nodes(compileMessage(language, text).getAst() as unknown as AstNode[]);
}

/** Values for every argument of a message: `n` for `plural`, others plain samples. */
function sampleValues(ast: readonly AstNode[], plural: string | null, n: number): Record<string, string | number> {
  const values: Record<string, string | number> = {};
  for (const node of ast) {
    if (node.value === undefined || node.type === 0) continue;
    if (node.value === plural) values[node.value] = n;
    else if (node.type === 6 || node.type === 2) values[node.value] ??= 3;
    else if (node.type === 3) values[node.value] ??= '2026-03-05T14:00:00Z';
    else if (node.type === 5) values[node.value] ??= 'transactions';
    else values[node.value] ??= node.value.toUpperCase();
  }
  return values;
}

describe('message catalogs', () => {
  it('were recorded for the checkout, buyer pages, receipt page, dashboard and mails', () => {
    const areas = CATALOGS.map((c) => c.area);
    for (const area of ['checkout', 'dashboard', 'dashboard.billing', 'dashboard.payment-detail', 'mail.auto-topup']) {
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

/**
 * The forms each Russian plural message takes for 1, 2, 5, 21 and 0, keyed `area.path:argument`. A
 * new plural message needs its line here.
 */
const RUSSIAN_PLURALS: Readonly<Record<string, readonly [string, string, string, string, string]>> = {
  'checkout.expiresIn:minutes': [
    'осталось меньше минуты',
    'осталось 2 минуты',
    'осталось 5 минут',
    'осталась 21 минута',
    'осталось 0 минут',
  ],
  'dashboard.lockedOut:minutes': ['на 1 минуту', 'на 2 минуты', 'на 5 минут', 'на 21 минуту', 'на 0 минут'],
  'dashboard.billing.atLeast:minimum': ['— 1 единица.', '— 2 единицы.', '— 5 единиц.', '— 21 единица.', '— 0 единиц.'],
  'dashboard.billing.purchaseSummary:quantity': [
    '1 единица транзакций',
    '2 единицы транзакций',
    '5 единиц транзакций',
    '21 единица транзакций',
    '0 единиц транзакций',
  ],
  'dashboard.billing.openReceipt:quantity': [
    'Чек за 1 единицу',
    'Чек за 2 единицы',
    'Чек за 5 единиц',
    'Чек за 21 единицу',
    'Чек за 0 единиц',
  ],
  'dashboard.billing.details:quantity': [
    'Покупка 1 единицы',
    'Покупка 2 единиц',
    'Покупка 5 единиц',
    'Покупка 21 единицы',
    'Покупка 0 единиц',
  ],
  'dashboard.billing.autoOn:threshold': [
    'на балансе 1 единица или',
    'на балансе 2 единицы или',
    'на балансе 5 единиц или',
    'на балансе 21 единица или',
    'на балансе 0 единиц или',
  ],
  'dashboard.billing.autoOn:refill': [
    'покупка 1 единицы',
    'покупка 2 единиц',
    'покупка 5 единиц',
    'покупка 21 единицы',
    'покупка 0 единиц',
  ],
  'dashboard.overview.successRateOf:finished': [
    'из 1 завершённого платежа, созданного',
    'из 2 завершённых платежей, созданных',
    'из 5 завершённых платежей, созданных',
    'из 21 завершённого платежа, созданного',
    'из 0 завершённых платежей, созданных',
  ],
  'dashboard.overview.refundsOf:count': [
    '1 успешный возврат',
    '2 успешных возврата',
    '5 успешных возвратов',
    '21 успешный возврат',
    '0 успешных возвратов',
  ],
  'dashboard.overview.chartDesc:days': ['1 день,', '2 дня,', '5 дней,', '21 день,', '0 дней,'],
  'dashboard.payments.total:n': [
    'Найден 1 платёж.',
    'Найдено 2 платежа.',
    'Найдено 5 платежей.',
    'Найден 21 платёж.',
    'Найдено 0 платежей.',
  ],
  'dashboard.payments.exportText:n': [
    'попадёт 1 платёж, подходящий',
    'попадут 2 платежа, подходящих',
    'попадут 5 платежей, подходящих',
    'попадёт 21 платёж, подходящий',
    'попадут 0 платежей, подходящих',
  ],
  'dashboard.payments.progress:m': ['из 1 строки', 'из 2 строк', 'из 5 строк', 'из 21 строки', 'из 0 строк'],
  'dashboard.payments.exportDone:n': [
    'скачана 1 строка.',
    'скачаны 2 строки.',
    'скачано 5 строк.',
    'скачана 21 строка.',
    'скачано 0 строк.',
  ],
  'dashboard.team.mailText:days': [
    'действует 1 день,',
    'действует 2 дня,',
    'действует 5 дней,',
    'действует 21 день,',
    'действует 0 дней,',
  ],
  'dashboard.two-factor.recoveryLeft:count': [
    'Остался 1 неиспользованный резервный код.',
    'Осталось 2 неиспользованных резервных кода.',
    'Осталось 5 неиспользованных резервных кодов.',
    'Остался 21 неиспользованный резервный код.',
    'Осталось 0 неиспользованных резервных кодов.',
  ],
  'mail.auto-topup.subject:quantity': [
    '1 единица готова к оплате',
    '2 единицы готовы к оплате',
    '5 единиц готовы к оплате',
    '21 единица готова к оплате',
    '0 единиц готовы к оплате',
  ],
  'mail.auto-topup.intro:balance': [
    'до 1 единицы —',
    'до 2 единиц —',
    'до 5 единиц —',
    'до 21 единицы —',
    'до 0 единиц —',
  ],
};

describe('Russian plural messages', () => {
  const plurals = [
    ...new Map(
      messagesOf('ru').flatMap(([name, text]) =>
        astOf('ru', text)
          .filter((node) => node.type === 6)
          .map((node) => [`${name}:${node.value}`, { key: `${name}:${node.value}`, text, node }] as const),
      ),
    ).values(),
  ];

  it('are all listed with their expected forms', () => {
    expect(plurals.map((p) => p.key).sort()).toEqual(Object.keys(RUSSIAN_PLURALS).sort());
  });

  it.each(plurals.map((p) => [p.key, p] as const))('%s reads right for 1, 2, 5, 21 and 0', (key, plural) => {
    expect(Object.keys(plural.node.options ?? {})).toEqual(expect.arrayContaining(['one', 'few', 'many']));
    const ast = astOf('ru', plural.text);
    const expected = RUSSIAN_PLURALS[key] ?? [];
    [1, 2, 5, 21, 0].forEach((n, i) => {
      expect(
        formatMessage('ru', plural.text, sampleValues(ast, plural.node.value ?? '', n)),
        `${key} for ${n}`,
      ).toContain(expected[i]);
    });
  });

  it('write the dram by the number: 1 драм, 2 драма, 5 драмов, 21 драм, 0 драмов', () => {
    expect([1, 2, 5, 21, 0].map((n) => formatAmd('ru', n).replace(/\s/g, ' '))).toEqual([
      '1 драм',
      '2 драма',
      '5 драмов',
      '21 драм',
      '0 драмов',
    ]);
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
