/** The texts of the overview page. Not escaped here: the page escapes what it prints. */
import type { BlockedState, Counter } from '../../domain/billing.js';
import { type Catalog, defineMessages } from '../../i18n/messages.js';
import type { EnvironmentWords } from '../customers/environment.js';

export interface OverviewMessages {
  readonly title: string;
  readonly intro: (from: string, to: string) => string;
  readonly environment: EnvironmentWords;
  readonly completedCount: string;
  readonly completedVolume: string;
  readonly successRate: string;
  readonly successRateOf: (paid: number, finished: number) => string;
  readonly noFinished: string;
  readonly refunds: string;
  readonly refundsOf: (count: number) => string;
  readonly volumeChart: string;
  readonly countChart: string;
  readonly chartDesc: (total: string, max: string, days: number) => string;
  readonly barTitle: (day: string, value: string) => string;
  readonly numbers: string;
  readonly numbersLabel: string;
  readonly day: string;
  readonly count: string;
  readonly volume: string;
  readonly processorsTitle: string;
  readonly processorsLabel: string;
  readonly processor: string;
  readonly noProcessor: string;
  readonly noCompleted: string;
  readonly webhooksTitle: string;
  readonly webhooksSummary: (failed: number, delivered: number) => string;
  readonly webhooksHealthy: string;
  readonly failedLabel: string;
  readonly failedAt: string;
  readonly payment: string;
  readonly event: string;
  readonly target: string;
  readonly attempts: string;
  readonly lastAnswer: string;
  readonly noAnswer: string;
  readonly openPayment: string;
  readonly moreFailed: (shown: number, total: number) => string;
  readonly balancesTitle: string;
  readonly balancesLabel: string;
  readonly counter: string;
  readonly available: string;
  readonly graceFloor: string;
  readonly state: string;
  readonly counters: Readonly<Record<Counter, string>>;
  readonly blocked: Readonly<Record<BlockedState, string>>;
  readonly unlimited: string;
  readonly topUp: string;
  readonly balancesNote: string;
}

const en: Catalog<OverviewMessages> = {
  title: 'Overview',
  intro: 'The last 30 days at a glance, {from, date, day} to {to, date, day} (UTC days). Amounts are whole drams.',
  environment: { label: 'Environment', live: 'Live', test: 'Test' },
  completedCount: 'Completed payments',
  completedVolume: 'Completed volume',
  successRate: 'Success rate',
  successRateOf:
    '{paid, number} paid of {finished, plural, one {# finished payment} other {# finished payments}} created in these days',
  noFinished: 'No finished payment yet',
  refunds: 'Refunds',
  refundsOf: '{count, plural, one {# succeeded refund} other {# succeeded refunds}}',
  volumeChart: 'Completed volume per day',
  countChart: 'Completed payments per day',
  chartDesc: '{days, plural, one {# day} other {# days}}, {total} in all; the tallest bar is {max}.',
  barTitle: '{day}: {value}',
  numbers: 'Show the numbers of each day',
  numbersLabel: 'Completed payments and volume per day',
  day: 'Day',
  count: 'Payments',
  volume: 'Volume',
  processorsTitle: 'By processor',
  processorsLabel: 'Completed payments by processor',
  processor: 'Processor',
  noProcessor: '(none)',
  noCompleted: 'No payment completed in these days.',
  webhooksTitle: 'Webhook deliveries, last 24 hours',
  webhooksSummary: '{failed, number} failed for good, {delivered, number} delivered.',
  webhooksHealthy: 'No delivery failed in the last 24 hours.',
  failedLabel: 'Deliveries that failed for good, latest first',
  failedAt: 'Failed at',
  payment: 'Payment',
  event: 'Event',
  target: 'Receiver',
  attempts: 'Attempts',
  lastAnswer: 'Last answer',
  noAnswer: 'no answer',
  openPayment: 'Open the payment',
  moreFailed: 'The {shown, number} latest of {total, number} are listed.',
  balancesTitle: 'Balances',
  balancesLabel: 'Balances of the account',
  counter: 'Counter',
  available: 'Units left',
  graceFloor: 'Grace floor',
  state: 'State',
  counters: { transactions: 'Transactions', receipts: 'Receipts' },
  blocked: {
    no: 'Open',
    grace: 'Below zero: payments still taken',
    yes: 'Blocked: new live payments are refused',
  },
  unlimited: 'Unlimited',
  topUp: 'Top up in Billing',
  balancesNote: 'Balances belong to the account: they are the same in both environments.',
};

const hy: Catalog<OverviewMessages> = {
  title: 'Ամփոփում',
  intro: 'Վերջին 30 օրը մեկ հայացքով՝ {from, date, day} – {to, date, day} (UTC օրեր)։ Գումարներն ամբողջ դրամով են։',
  environment: { label: 'Միջավայր', live: 'Իրական', test: 'Թեստային' },
  completedCount: 'Ավարտված վճարումներ',
  completedVolume: 'Ավարտված ծավալ',
  successRate: 'Հաջողության տոկոս',
  successRateOf: 'Այս օրերին ստեղծված {finished, number} ավարտված վճարումից վճարված է {paid, number}-ը',
  noFinished: 'Դեռ ավարտված վճարում չկա',
  refunds: 'Վերադարձներ',
  refundsOf: '{count, number} հաջող վերադարձ',
  volumeChart: 'Ավարտված ծավալն ըստ օրերի',
  countChart: 'Ավարտված վճարումներն ըստ օրերի',
  chartDesc: '{days, number} օր, ընդամենը՝ {total}. ամենաբարձր սյունը՝ {max}։',
  barTitle: '{day}՝ {value}',
  numbers: 'Ցույց տալ յուրաքանչյուր օրվա թվերը',
  numbersLabel: 'Ավարտված վճարումներն ու ծավալն ըստ օրերի',
  day: 'Օր',
  count: 'Վճարումներ',
  volume: 'Ծավալ',
  processorsTitle: 'Ըստ վճարային համակարգի',
  processorsLabel: 'Ավարտված վճարումներն ըստ վճարային համակարգի',
  processor: 'Վճարային համակարգ',
  noProcessor: '(չկա)',
  noCompleted: 'Այս օրերին ավարտված վճարում չկա։',
  webhooksTitle: 'Վեբհուքների առաքումներ, վերջին 24 ժամ',
  webhooksSummary: 'Վերջնականապես չառաքված՝ {failed, number}, առաքված՝ {delivered, number}։',
  webhooksHealthy: 'Վերջին 24 ժամում ոչ մի առաքում չի ձախողվել։',
  failedLabel: 'Վերջնականապես ձախողված առաքումներ՝ վերջինները վերևում',
  failedAt: 'Ձախողման պահ',
  payment: 'Վճարում',
  event: 'Իրադարձություն',
  target: 'Ստացող',
  attempts: 'Փորձեր',
  lastAnswer: 'Վերջին պատասխան',
  noAnswer: 'պատասխան չկա',
  openPayment: 'Բացել վճարումը',
  moreFailed: 'Ցուցադրված են վերջին {shown, number}-ը՝ {total, number}-ից։',
  balancesTitle: 'Մնացորդներ',
  balancesLabel: 'Հաշվի մնացորդները',
  counter: 'Հաշվիչ',
  available: 'Մնացած միավորներ',
  graceFloor: 'Արտոնյալ սահման',
  state: 'Վիճակ',
  counters: { transactions: 'Գործարքներ', receipts: 'Կտրոններ' },
  blocked: {
    no: 'Բաց',
    grace: 'Զրոյից ցածր․ վճարումները դեռ ընդունվում են',
    yes: 'Արգելափակված․ նոր իրական վճարումները մերժվում են',
  },
  unlimited: 'Անսահմանափակ',
  topUp: 'Համալրել «Հաշվարկներ» բաժնում',
  balancesNote: 'Մնացորդները պատկանում են հաշվին․ երկու միջավայրերում նույնն են։',
};

const ru: Catalog<OverviewMessages> = {
  title: 'Обзор',
  intro: 'Последние 30 дней кратко: с {from, date, day} по {to, date, day} (сутки по UTC). Суммы в целых драмах.',
  environment: { label: 'Среда', live: 'Боевая', test: 'Тестовая' },
  completedCount: 'Оплаченные платежи',
  completedVolume: 'Оплаченный объём',
  successRate: 'Доля успешных',
  successRateOf:
    '{finished, plural, one {Оплачено {paid, number} из # завершённого платежа, созданного за эти дни} few {Оплачено {paid, number} из # завершённых платежей, созданных за эти дни} many {Оплачено {paid, number} из # завершённых платежей, созданных за эти дни} other {Оплачено {paid, number} из # завершённого платежа, созданных за эти дни}}',
  noFinished: 'Завершённых платежей пока нет',
  refunds: 'Возвраты',
  refundsOf:
    '{count, plural, one {# успешный возврат} few {# успешных возврата} many {# успешных возвратов} other {# успешного возврата}}',
  volumeChart: 'Оплаченный объём по дням',
  countChart: 'Оплаченные платежи по дням',
  chartDesc:
    '{days, plural, one {# день} few {# дня} many {# дней} other {# дня}}, всего {total}; самый высокий столбец — {max}.',
  barTitle: '{day}: {value}',
  numbers: 'Показать числа по дням',
  numbersLabel: 'Оплаченные платежи и объём по дням',
  day: 'День',
  count: 'Платежи',
  volume: 'Объём',
  processorsTitle: 'По процессорам',
  processorsLabel: 'Оплаченные платежи по процессорам',
  processor: 'Платёжная система',
  noProcessor: '(нет)',
  noCompleted: 'За эти дни оплаченных платежей нет.',
  webhooksTitle: 'Доставка вебхуков за последние 24 часа',
  webhooksSummary: 'Окончательно не доставлено: {failed, number}, доставлено: {delivered, number}.',
  webhooksHealthy: 'За последние 24 часа ни одна доставка не провалилась.',
  failedLabel: 'Окончательно не доставленные, сначала последние',
  failedAt: 'Когда',
  payment: 'Платёж',
  event: 'Событие',
  target: 'Получатель',
  attempts: 'Попытки',
  lastAnswer: 'Последний ответ',
  noAnswer: 'нет ответа',
  openPayment: 'Открыть платёж',
  moreFailed: 'Показаны последние {shown, number} из {total, number}.',
  balancesTitle: 'Балансы',
  balancesLabel: 'Балансы аккаунта',
  counter: 'Счётчик',
  available: 'Осталось единиц',
  graceFloor: 'Льготный порог',
  state: 'Состояние',
  counters: { transactions: 'Транзакции', receipts: 'Чеки' },
  blocked: {
    no: 'Открыт',
    grace: 'Ниже нуля: платежи ещё принимаются',
    yes: 'Заблокирован: новые боевые платежи отклоняются',
  },
  unlimited: 'Без ограничений',
  topUp: 'Пополнить в разделе «Биллинг»',
  balancesNote: 'Балансы принадлежат аккаунту и одинаковы в обеих средах.',
};

export const OVERVIEW_MESSAGES = defineMessages<OverviewMessages>(
  'dashboard.overview',
  { en, hy, ru },
  {
    intro: ['from', 'to'],
    successRateOf: ['paid', 'finished'],
    refundsOf: ['count'],
    chartDesc: ['total', 'max', 'days'],
    barTitle: ['day', 'value'],
    webhooksSummary: ['failed', 'delivered'],
    moreFailed: ['shown', 'total'],
  },
);
