/**
 * Every Russian plural message of the service's catalogs, rendered for 1, 2, 5, 21 and 0, says the
 * forms a Russian reader expects (and names `one`, `few` and `many`); a new plural message needs its
 * line here. And the dram, written by the number.
 */
import { describe, expect, it } from 'vitest';
import { formatAmd } from '../../../gateway/i18n/format.js';
import { formatMessage } from '../../../gateway/i18n/messages.js';
import { astOf, messagesOf, sampleValues } from './catalogs.js';

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
