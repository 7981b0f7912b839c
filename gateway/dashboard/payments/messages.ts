/**
 * The texts of the payments list and its CSV export, in English, Armenian and Russian. Not escaped
 * here: the page escapes what it prints. The export's progress is said by a script in the browser:
 * the page renders `progress` and `exportDone` once per plural form of the language, with `{n}` and
 * `{m}` left for the script to fill in (rows downloaded, rows to download).
 */
import type { PaymentStatus } from '../../domain/payment.js';
import { type Catalog, defineMessages } from '../../i18n/messages.js';

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
  /** The quick filter of authorized payments, whose card holds the amount until it is captured or released. */
  readonly quickFilters: string;
  readonly uncaptured: string;
  readonly uncapturedHint: string;
  /** Before the deadline of an authorized payment's hold, in its row. */
  readonly captureBy: string;
  readonly statuses: Readonly<Record<PaymentStatus, string>>;
  readonly created: string;
  readonly amount: string;
  readonly customer: string;
  readonly rrn: string;
  readonly tableLabel: string;
  readonly empty: string;
  readonly total: (n: number) => string;
  readonly newer: string;
  readonly older: string;
  readonly newest: string;
  readonly pages: string;
  readonly exportTitle: string;
  readonly exportText: (n: number) => string;
  readonly exportButton: string;
  /** `n`: rows downloaded (as text); `m`: rows to download (its plural form picks the words). */
  readonly progress: (n: string, m: number) => string;
  /** `n`: rows downloaded. */
  readonly exportDone: (n: number) => string;
  readonly exportFailed: string;
  readonly badFilters: string;
  readonly badDate: string;
  readonly toBeforeFrom: string;
  readonly badSearch: string;
  readonly badStatus: string;
  readonly badCursorTitle: string;
  readonly badCursorText: string;
}

const en: Catalog<PaymentsMessages> = {
  title: 'Payments',
  intro:
    'Payments of this account, newest first, at Yerevan time. The date filters take whole days in UTC, as the API does.',
  environment: 'Environment',
  test: 'Test',
  live: 'Live',
  filters: 'Find payments',
  search: 'Search',
  searchHint: 'A payment ID, order ID or customer email, whole or its beginning, in any case; or a whole RRN.',
  status: 'Status',
  anyStatus: 'Any status',
  processor: 'Processor',
  anyProcessor: 'Any processor',
  orderId: 'Order ID',
  from: 'Created from',
  to: 'Created to',
  apply: 'Show payments',
  clear: 'Clear filters',
  quickFilters: 'Quick filters',
  uncaptured: 'Uncaptured',
  uncapturedHint: 'Authorized payments: the card holds the amount until you capture or release it.',
  captureBy: 'Capture by',
  statuses: {
    pending: 'Pending',
    processing: 'Processing',
    authorized: 'Authorized',
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
  total: '{n, plural, one {# payment matches.} other {# payments match.}}',
  newer: 'Newer payments',
  older: 'Older payments',
  newest: 'Newest payments',
  pages: 'Pages of the list',
  exportTitle: 'Export to CSV',
  exportText:
    '{n, plural, one {The export holds the # payment that matches the filters above.} other {The export holds the # payments that match the filters above, newest first.}}',
  exportButton: 'Download CSV',
  progress: '{n} of {m, plural, one {# row} other {# rows}}',
  exportDone: '{n, plural, one {Done: # row downloaded.} other {Done: # rows downloaded.}}',
  exportFailed: 'The export stopped. Try again.',
  badFilters: 'Some filters are not valid: see the fields marked.',
  badDate: 'Enter a date as YYYY-MM-DD.',
  toBeforeFrom: 'Must not be before “Created from”.',
  badSearch: 'Enter at most 255 characters.',
  badStatus: 'Choose a status from the list.',
  badCursorTitle: 'This page of the list does not exist',
  badCursorText: 'The link to this page of payments is not valid. Start again from the newest payments.',
};

const hy: Catalog<PaymentsMessages> = {
  title: 'Վճարումներ',
  intro:
    'Այս հաշվի վճարումները՝ սկսած ամենանորից, Երևանի ժամով։ Ամսաթվերի ֆիլտրերը, ինչպես API-ում, հաշվում են ամբողջ օրեր UTC-ով։',
  environment: 'Միջավայր',
  test: 'Թեստային',
  live: 'Իրական',
  filters: 'Գտնել վճարումներ',
  search: 'Որոնում',
  searchHint:
    'Վճարման ID, պատվերի ID կամ հաճախորդի էլ. փոստ՝ ամբողջը կամ սկզբնամասը (մեծատառերը նշանակություն չունեն), կամ ամբողջական RRN։',
  status: 'Կարգավիճակ',
  anyStatus: 'Ցանկացած կարգավիճակ',
  processor: 'Վճարային համակարգ',
  anyProcessor: 'Ցանկացած վճարային համակարգ',
  orderId: 'Պատվերի ID',
  from: 'Ստեղծված սկսած',
  to: 'Ստեղծված մինչև',
  apply: 'Ցույց տալ վճարումները',
  clear: 'Մաքրել ֆիլտրերը',
  quickFilters: 'Արագ ֆիլտրեր',
  uncaptured: 'Սպասում է գանձման',
  uncapturedHint: 'Արգելափակված վճարումներ. գումարը քարտին արգելափակված է, մինչև այն գանձեք կամ ապաարգելափակեք։',
  captureBy: 'Գանձել մինչև',
  statuses: {
    pending: 'Սպասման մեջ',
    processing: 'Մշակվում է',
    authorized: 'Արգելափակված',
    completed: 'Ավարտված',
    failed: 'Անհաջող',
    expired: 'Ժամկետանց',
    refunded: 'Վերադարձված',
  },
  created: 'Ստեղծվել է',
  amount: 'Գումար',
  customer: 'Հաճախորդ',
  rrn: 'RRN',
  tableLabel: 'Վճարումներ',
  empty: 'Համապատասխան վճարումներ չկան։',
  total: 'Համապատասխանող վճարումներ՝ {n, number}։',
  newer: 'Ավելի նոր վճարումներ',
  older: 'Ավելի հին վճարումներ',
  newest: 'Ամենանոր վճարումները',
  pages: 'Ցանկի էջերը',
  exportTitle: 'Արտահանել CSV',
  exportText: 'Արտահանման մեջ կլինեն վերևի ֆիլտրերին համապատասխանող {n, number} վճարումները՝ սկսած ամենանորից։',
  exportButton: 'Ներբեռնել CSV',
  progress: '{n}՝ {m, number} տողից',
  exportDone: 'Պատրաստ է. ներբեռնվել է {n, number} տող։',
  exportFailed: 'Արտահանումն ընդհատվեց։ Փորձեք կրկին։',
  badFilters: 'Որոշ ֆիլտրեր սխալ են. տե՛ս նշված դաշտերը։',
  badDate: 'Մուտքագրեք ամսաթիվը YYYY-MM-DD ձևաչափով։',
  toBeforeFrom: 'Չի կարող լինել «Ստեղծված սկսած»-ից առաջ։',
  badSearch: 'Մուտքագրեք առավելագույնը 255 նիշ։',
  badStatus: 'Ընտրեք կարգավիճակ ցանկից։',
  badCursorTitle: 'Ցանկի այս էջը գոյություն չունի',
  badCursorText: 'Վճարումների այս էջի հղումը վավեր չէ։ Սկսեք ամենանոր վճարումներից։',
};

const ru: Catalog<PaymentsMessages> = {
  title: 'Платежи',
  intro:
    'Платежи этого аккаунта, сначала новые, по ереванскому времени. Фильтры по датам, как и API, считают целые сутки по UTC.',
  environment: 'Среда',
  test: 'Тестовая',
  live: 'Боевая',
  filters: 'Поиск платежей',
  search: 'Поиск',
  searchHint:
    'ID платежа, ID заказа или email покупателя — целиком или первые символы (регистр не важен), либо RRN целиком.',
  status: 'Статус',
  anyStatus: 'Любой статус',
  processor: 'Платёжная система',
  anyProcessor: 'Любой процессор',
  orderId: 'ID заказа',
  from: 'Создан с',
  to: 'Создан по',
  apply: 'Показать платежи',
  clear: 'Сбросить фильтры',
  quickFilters: 'Быстрые фильтры',
  uncaptured: 'Ожидает списания',
  uncapturedHint:
    'Авторизованные платежи: сумма заблокирована на карте, пока вы её не спишете или не отмените блокировку.',
  captureBy: 'Списать до',
  statuses: {
    pending: 'Ожидает',
    processing: 'Обрабатывается',
    authorized: 'Авторизован',
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
  total:
    '{n, plural, one {Найден # платёж.} few {Найдено # платежа.} many {Найдено # платежей.} other {Найдено # платежа.}}',
  newer: 'Более новые платежи',
  older: 'Более старые платежи',
  newest: 'Самые новые платежи',
  pages: 'Страницы списка',
  exportTitle: 'Выгрузка в CSV',
  exportText:
    '{n, plural, one {В выгрузку попадёт # платёж, подходящий под фильтры выше.} few {В выгрузку попадут # платежа, подходящих под фильтры выше, сначала новые.} many {В выгрузку попадут # платежей, подходящих под фильтры выше, сначала новые.} other {В выгрузку попадут # платежа, подходящих под фильтры выше, сначала новые.}}',
  exportButton: 'Скачать CSV',
  progress: '{n} из {m, plural, one {# строки} few {# строк} many {# строк} other {# строки}}',
  exportDone:
    '{n, plural, one {Готово: скачана # строка.} few {Готово: скачаны # строки.} many {Готово: скачано # строк.} other {Готово: скачано # строки.}}',
  exportFailed: 'Выгрузка прервалась. Попробуйте ещё раз.',
  badFilters: 'Некоторые фильтры заданы неверно: см. отмеченные поля.',
  badDate: 'Введите дату в виде ГГГГ-ММ-ДД.',
  toBeforeFrom: 'Не может быть раньше, чем «Создан с».',
  badSearch: 'Введите не более 255 символов.',
  badStatus: 'Выберите статус из списка.',
  badCursorTitle: 'Такой страницы списка нет',
  badCursorText: 'Ссылка на эту страницу платежей недействительна. Начните с самых новых платежей.',
};

export const PAYMENTS_MESSAGES = defineMessages<PaymentsMessages>(
  'dashboard.payments',
  { en, hy, ru },
  {
    total: ['n'],
    exportText: ['n'],
    progress: ['n', 'm'],
    exportDone: ['n'],
  },
);
