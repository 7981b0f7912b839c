/** The texts of the customers pages. Not escaped here: the pages escape what they print. */
import type { PaymentStatus } from '../../domain/payment.js';
import { type Catalog, defineMessages } from '../../i18n/messages.js';
import type { EnvironmentWords } from './environment.js';

export interface CustomersMessages {
  readonly title: string;
  readonly intro: string;
  readonly environment: EnvironmentWords;
  readonly searchLabel: string;
  readonly searchHint: string;
  readonly search: string;
  readonly clear: string;
  readonly empty: string;
  readonly noMatch: string;
  readonly tableLabel: string;
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly payments: string;
  readonly paid: string;
  readonly totalPaid: string;
  readonly refunded: string;
  readonly firstPayment: string;
  readonly lastPayment: string;
  readonly lastPaid: string;
  readonly none: string;
  readonly previous: string;
  readonly next: string;
  readonly pager: string;
  readonly pageOf: (page: number, last: number, total: number) => string;
  readonly detailTitle: (id: string) => string;
  readonly back: string;
  readonly paymentsTitle: string;
  readonly paymentsLabel: string;
  readonly created: string;
  readonly order: string;
  readonly amount: string;
  readonly status: string;
  readonly open: string;
  readonly openPayment: (order: string) => string;
  readonly statuses: Readonly<Record<PaymentStatus, string>>;
}

const en: Catalog<CustomersMessages> = {
  title: 'Customers',
  intro:
    'Buyers of your payments: the customer id the gateway gives a buyer once paid (one per email address), or the one you named when creating the payment. Amounts are whole drams; times are Yerevan time.',
  environment: { label: 'Environment', live: 'Live', test: 'Test' },
  searchLabel: 'Customer id or email',
  searchHint: 'The exact id (cus_… or your own) or the whole email address.',
  search: 'Search',
  clear: 'Show all',
  empty: 'No customers yet in this environment.',
  noMatch: 'No customer has this id or email address.',
  tableLabel: 'Customers, latest payment first',
  id: 'Customer id',
  email: 'Email',
  name: 'Name',
  payments: 'Payments',
  paid: 'Paid payments',
  totalPaid: 'Total paid',
  refunded: 'Refunded',
  firstPayment: 'First payment',
  lastPayment: 'Last payment',
  lastPaid: 'Last paid',
  none: 'none',
  previous: 'Previous page',
  next: 'Next page',
  pager: 'Pages',
  pageOf: 'Page {page} of {last} ({total} in all)',
  detailTitle: 'Customer {id}',
  back: 'All customers',
  paymentsTitle: 'Payments',
  paymentsLabel: 'Payments of this customer, newest first',
  created: 'Created',
  order: 'Order',
  amount: 'Amount',
  status: 'Status',
  open: 'Open',
  openPayment: 'Open the payment of order {order}',
  statuses: {
    pending: 'Pending',
    processing: 'Processing',
    authorized: 'Authorized',
    completed: 'Completed',
    failed: 'Failed',
    expired: 'Expired',
    refunded: 'Refunded',
  },
};

const hy: Catalog<CustomersMessages> = {
  title: 'Հաճախորդներ',
  intro:
    'Ձեր վճարումների գնորդները՝ հաճախորդի նույնացուցիչը, որը համակարգը տալիս է գնորդին վճարումից հետո (մեկը յուրաքանչյուր էլ. հասցեի համար), կամ այն, որը դուք նշել եք վճարումը ստեղծելիս։ Գումարներն ամբողջ դրամով են, ժամերը՝ Երևանի ժամով։',
  environment: { label: 'Միջավայր', live: 'Իրական', test: 'Թեստային' },
  searchLabel: 'Հաճախորդի նույնացուցիչ կամ էլ. հասցե',
  searchHint: 'Ճշգրիտ նույնացուցիչը (cus_… կամ ձերը) կամ ամբողջական էլ. հասցեն։',
  search: 'Որոնել',
  clear: 'Ցույց տալ բոլորը',
  empty: 'Այս միջավայրում դեռ հաճախորդներ չկան։',
  noMatch: 'Այս նույնացուցիչով կամ էլ. հասցեով հաճախորդ չկա։',
  tableLabel: 'Հաճախորդներ՝ վերջին վճարումը վերևում',
  id: 'Հաճախորդի նույնացուցիչ',
  email: 'Էլ. հասցե',
  name: 'Անուն',
  payments: 'Վճարումներ',
  paid: 'Վճարված վճարումներ',
  totalPaid: 'Ընդամենը վճարված',
  refunded: 'Վերադարձված',
  firstPayment: 'Առաջին վճարում',
  lastPayment: 'Վերջին վճարում',
  lastPaid: 'Վերջին վճարված',
  none: 'չկա',
  previous: 'Նախորդ էջ',
  next: 'Հաջորդ էջ',
  pager: 'Էջեր',
  pageOf: 'Էջ {page}՝ {last}-ից (ընդամենը {total})',
  detailTitle: 'Հաճախորդ {id}',
  back: 'Բոլոր հաճախորդները',
  paymentsTitle: 'Վճարումներ',
  paymentsLabel: 'Այս հաճախորդի վճարումները՝ նորերը վերևում',
  created: 'Ստեղծված',
  order: 'Պատվեր',
  amount: 'Գումար',
  status: 'Կարգավիճակ',
  open: 'Բացել',
  openPayment: 'Բացել {order} պատվերի վճարումը',
  statuses: {
    pending: 'Սպասման մեջ',
    processing: 'Մշակվում է',
    authorized: 'Արգելափակված',
    completed: 'Ավարտված',
    failed: 'Անհաջող',
    expired: 'Ժամկետանց',
    refunded: 'Վերադարձված',
  },
};

const ru: Catalog<CustomersMessages> = {
  title: 'Клиенты',
  intro:
    'Покупатели ваших платежей: идентификатор клиента, который шлюз присваивает покупателю после оплаты (один на адрес почты), или тот, что вы указали при создании платежа. Суммы в целых драмах, время ереванское.',
  environment: { label: 'Среда', live: 'Боевая', test: 'Тестовая' },
  searchLabel: 'Идентификатор клиента или почта',
  searchHint: 'Точный идентификатор (cus_… или ваш) или полный адрес почты.',
  search: 'Найти',
  clear: 'Показать всех',
  empty: 'В этой среде клиентов пока нет.',
  noMatch: 'Нет клиента с таким идентификатором или адресом почты.',
  tableLabel: 'Клиенты, сначала с последним платежом',
  id: 'Идентификатор клиента',
  email: 'Почта',
  name: 'Имя',
  payments: 'Платежи',
  paid: 'Оплаченные платежи',
  totalPaid: 'Всего оплачено',
  refunded: 'Возвращено',
  firstPayment: 'Первый платёж',
  lastPayment: 'Последний платёж',
  lastPaid: 'Последняя оплата',
  none: 'нет',
  previous: 'Предыдущая страница',
  next: 'Следующая страница',
  pager: 'Страницы',
  pageOf: 'Страница {page} из {last} (всего {total})',
  detailTitle: 'Клиент {id}',
  back: 'Все клиенты',
  paymentsTitle: 'Платежи',
  paymentsLabel: 'Платежи этого клиента, сначала новые',
  created: 'Создан',
  order: 'Заказ',
  amount: 'Сумма',
  status: 'Статус',
  open: 'Открыть',
  openPayment: 'Открыть платёж заказа {order}',
  statuses: {
    pending: 'Ожидает',
    processing: 'Обрабатывается',
    authorized: 'Авторизован',
    completed: 'Завершён',
    failed: 'Неуспешный',
    expired: 'Истёк',
    refunded: 'Возвращён',
  },
};

export const CUSTOMERS_MESSAGES = defineMessages<CustomersMessages>(
  'dashboard.customers',
  { en, hy, ru },
  {
    pageOf: ['page', 'last', 'total'],
    detailTitle: ['id'],
    openPayment: ['order'],
  },
);
