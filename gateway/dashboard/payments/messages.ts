/**
 * The texts of the payments list and its CSV export, in English, Armenian and Russian. Not escaped
 * here: the page escapes what it prints. `{n}` and `{m}` in `progress` are filled in by the export
 * script (rows downloaded, rows to download).
 */
import type { PaymentStatus } from '../../domain/payment.js';
import type { Language } from '../i18n/index.js';

export interface PaymentsMessages {
  readonly title: string;
  readonly intro: string;
  readonly environment: string;
  readonly test: string;
  readonly live: string;
  readonly filters: string;
  readonly search: string;
  readonly searchHint: string;
  readonly status: string;
  readonly anyStatus: string;
  readonly processor: string;
  readonly anyProcessor: string;
  readonly orderId: string;
  readonly from: string;
  readonly to: string;
  readonly apply: string;
  readonly clear: string;
  readonly statuses: Readonly<Record<PaymentStatus, string>>;
  readonly created: string;
  readonly amount: string;
  readonly customer: string;
  readonly rrn: string;
  readonly tableLabel: string;
  readonly empty: string;
  readonly total: (n: string) => string;
  readonly newer: string;
  readonly older: string;
  readonly newest: string;
  readonly pages: string;
  readonly exportTitle: string;
  readonly exportText: (n: string) => string;
  readonly exportButton: string;
  readonly progress: string;
  readonly exportDone: string;
  readonly exportFailed: string;
  readonly badFilters: string;
  readonly badDate: string;
  readonly toBeforeFrom: string;
  readonly badSearch: string;
  readonly badStatus: string;
  readonly badCursorTitle: string;
  readonly badCursorText: string;
}

const en: PaymentsMessages = {
  title: 'Payments',
  intro: 'Payments of this account, newest first. Dates are UTC, as in the API.',
  environment: 'Environment',
  test: 'Test',
  live: 'Live',
  filters: 'Find payments',
  search: 'Search',
  searchHint: 'An exact payment ID, order ID, RRN or customer email.',
  status: 'Status',
  anyStatus: 'Any status',
  processor: 'Processor',
  anyProcessor: 'Any processor',
  orderId: 'Order ID',
  from: 'Created from',
  to: 'Created to',
  apply: 'Show payments',
  clear: 'Clear filters',
  statuses: {
    pending: 'Pending',
    processing: 'Processing',
    completed: 'Completed',
    failed: 'Failed',
    expired: 'Expired',
    refunded: 'Refunded',
  },
  created: 'Created',
  amount: 'Amount',
  customer: 'Customer',
  rrn: 'RRN',
  tableLabel: 'Payments',
  empty: 'No payments match.',
  total: (n) => `${n} payments match.`,
  newer: 'Newer payments',
  older: 'Older payments',
  newest: 'Newest payments',
  pages: 'Pages of the list',
  exportTitle: 'Export to CSV',
  exportText: (n) => `The export holds the ${n} payments that match the filters above, newest first.`,
  exportButton: 'Download CSV',
  progress: '{n} of {m} rows',
  exportDone: 'Done: {n} rows downloaded.',
  exportFailed: 'The export stopped. Try again.',
  badFilters: 'Some filters are not valid: see the fields marked.',
  badDate: 'Enter a date as YYYY-MM-DD.',
  toBeforeFrom: 'Must not be before “Created from”.',
  badSearch: 'Enter at most 255 characters.',
  badStatus: 'Choose a status from the list.',
  badCursorTitle: 'This page of the list does not exist',
  badCursorText: 'The link to this page of payments is not valid. Start again from the newest payments.',
};

const hy: PaymentsMessages = {
  title: 'Վճարումներ',
  intro: 'Այս հաշվի վճարումները՝ սկսած ամենանորից։ Ամսաթվերը UTC են, ինչպես API-ում։',
  environment: 'Միջավայր',
  test: 'Թեստային',
  live: 'Իրական',
  filters: 'Գտնել վճարումներ',
  search: 'Որոնում',
  searchHint: 'Վճարման ճշգրիտ ID, պատվերի ID, RRN կամ հաճախորդի էլ. փոստ։',
  status: 'Կարգավիճակ',
  anyStatus: 'Ցանկացած կարգավիճակ',
  processor: 'Պրոցեսոր',
  anyProcessor: 'Ցանկացած պրոցեսոր',
  orderId: 'Պատվերի ID',
  from: 'Ստեղծված սկսած',
  to: 'Ստեղծված մինչև',
  apply: 'Ցույց տալ վճարումները',
  clear: 'Մաքրել ֆիլտրերը',
  statuses: {
    pending: 'Սպասման մեջ',
    processing: 'Մշակվում է',
    completed: 'Ավարտված',
    failed: 'Ձախողված',
    expired: 'Ժամկետանց',
    refunded: 'Վերադարձված',
  },
  created: 'Ստեղծվել է',
  amount: 'Գումար',
  customer: 'Հաճախորդ',
  rrn: 'RRN',
  tableLabel: 'Վճարումներ',
  empty: 'Համապատասխան վճարումներ չկան։',
  total: (n) => `Համապատասխանում է ${n} վճարում։`,
  newer: 'Ավելի նոր վճարումներ',
  older: 'Ավելի հին վճարումներ',
  newest: 'Ամենանոր վճարումները',
  pages: 'Ցանկի էջերը',
  exportTitle: 'Արտահանել CSV',
  exportText: (n) => `Արտահանման մեջ կլինեն վերևի ֆիլտրերին համապատասխանող ${n} վճարումները՝ սկսած ամենանորից։`,
  exportButton: 'Ներբեռնել CSV',
  progress: '{n}՝ {m} տողից',
  exportDone: 'Պատրաստ է. ներբեռնվել է {n} տող։',
  exportFailed: 'Արտահանումն ընդհատվեց։ Փորձեք կրկին։',
  badFilters: 'Որոշ ֆիլտրեր սխալ են. տե՛ս նշված դաշտերը։',
  badDate: 'Մուտքագրեք ամսաթիվը YYYY-MM-DD ձևաչափով։',
  toBeforeFrom: 'Չի կարող լինել «Ստեղծված սկսած»-ից առաջ։',
  badSearch: 'Մուտքագրեք առավելագույնը 255 նիշ։',
  badStatus: 'Ընտրեք կարգավիճակ ցանկից։',
  badCursorTitle: 'Ցանկի այս էջը գոյություն չունի',
  badCursorText: 'Վճարումների այս էջի հղումը վավեր չէ։ Սկսեք ամենանոր վճարումներից։',
};

const ru: PaymentsMessages = {
  title: 'Платежи',
  intro: 'Платежи этого аккаунта, сначала новые. Даты в UTC, как в API.',
  environment: 'Среда',
  test: 'Тестовая',
  live: 'Боевая',
  filters: 'Поиск платежей',
  search: 'Поиск',
  searchHint: 'Точный ID платежа, ID заказа, RRN или email покупателя.',
  status: 'Статус',
  anyStatus: 'Любой статус',
  processor: 'Процессор',
  anyProcessor: 'Любой процессор',
  orderId: 'ID заказа',
  from: 'Создан с',
  to: 'Создан по',
  apply: 'Показать платежи',
  clear: 'Сбросить фильтры',
  statuses: {
    pending: 'Ожидает',
    processing: 'Обрабатывается',
    completed: 'Завершён',
    failed: 'Неуспешный',
    expired: 'Истёк',
    refunded: 'Возвращён',
  },
  created: 'Создан',
  amount: 'Сумма',
  customer: 'Покупатель',
  rrn: 'RRN',
  tableLabel: 'Платежи',
  empty: 'Подходящих платежей нет.',
  total: (n) => `Подходящих платежей: ${n}.`,
  newer: 'Более новые платежи',
  older: 'Более старые платежи',
  newest: 'Самые новые платежи',
  pages: 'Страницы списка',
  exportTitle: 'Выгрузка в CSV',
  exportText: (n) => `В выгрузку попадут ${n} платежей, подходящих под фильтры выше, сначала новые.`,
  exportButton: 'Скачать CSV',
  progress: '{n} из {m} строк',
  exportDone: 'Готово: скачано строк: {n}.',
  exportFailed: 'Выгрузка прервалась. Попробуйте ещё раз.',
  badFilters: 'Некоторые фильтры заданы неверно: см. отмеченные поля.',
  badDate: 'Введите дату в виде ГГГГ-ММ-ДД.',
  toBeforeFrom: 'Не может быть раньше, чем «Создан с».',
  badSearch: 'Введите не более 255 символов.',
  badStatus: 'Выберите статус из списка.',
  badCursorTitle: 'Такой страницы списка нет',
  badCursorText: 'Ссылка на эту страницу платежей недействительна. Начните с самых новых платежей.',
};

export const PAYMENTS_MESSAGES: Readonly<Record<Language, PaymentsMessages>> = { en, hy, ru };
