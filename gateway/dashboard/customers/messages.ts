/** The texts of the customers pages. Not escaped here: the pages escape what they print. */
import type { PaymentStatus } from '../../domain/payment.js';
import type { Language } from '../i18n/index.js';
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

const en: CustomersMessages = {
  title: 'Customers',
  intro:
    'Buyers of your payments: the customer id the gateway gives a buyer once paid (one per email address), or the one you named when creating the payment. Amounts are whole AMD; times are UTC.',
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
  pageOf: (page, last, total) => `Page ${page} of ${last} (${total} in all)`,
  detailTitle: (id) => `Customer ${id}`,
  back: 'All customers',
  paymentsTitle: 'Payments',
  paymentsLabel: 'Payments of this customer, newest first',
  created: 'Created',
  order: 'Order',
  amount: 'Amount',
  status: 'Status',
  open: 'Open',
  openPayment: (order) => `Open the payment of order ${order}`,
  statuses: {
    pending: 'Pending',
    processing: 'Processing',
    completed: 'Completed',
    failed: 'Failed',
    expired: 'Expired',
    refunded: 'Refunded',
  },
};

const hy: CustomersMessages = {
  title: 'Հաճախորդներ',
  intro:
    'Ձեր վճարումների գնորդները՝ հաճախորդի նույնացուցիչը, որը համակարգը տալիս է գնորդին վճարումից հետո (մեկը յուրաքանչյուր էլ. հասցեի համար), կամ այն, որը դուք նշել եք վճարումը ստեղծելիս։ Գումարները ամբողջ դրամով են, ժամերը՝ UTC։',
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
  pageOf: (page, last, total) => `Էջ ${page}՝ ${last}-ից (ընդամենը ${total})`,
  detailTitle: (id) => `Հաճախորդ ${id}`,
  back: 'Բոլոր հաճախորդները',
  paymentsTitle: 'Վճարումներ',
  paymentsLabel: 'Այս հաճախորդի վճարումները՝ նորերը վերևում',
  created: 'Ստեղծված',
  order: 'Պատվեր',
  amount: 'Գումար',
  status: 'Կարգավիճակ',
  open: 'Բացել',
  openPayment: (order) => `Բացել ${order} պատվերի վճարումը`,
  statuses: {
    pending: 'Սպասման մեջ',
    processing: 'Մշակվում է',
    completed: 'Ավարտված',
    failed: 'Ձախողված',
    expired: 'Ժամկետանց',
    refunded: 'Վերադարձված',
  },
};

const ru: CustomersMessages = {
  title: 'Клиенты',
  intro:
    'Покупатели ваших платежей: идентификатор клиента, который шлюз присваивает покупателю после оплаты (один на адрес почты), или тот, что вы указали при создании платежа. Суммы в целых драмах, время в UTC.',
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
  pageOf: (page, last, total) => `Страница ${page} из ${last} (всего ${total})`,
  detailTitle: (id) => `Клиент ${id}`,
  back: 'Все клиенты',
  paymentsTitle: 'Платежи',
  paymentsLabel: 'Платежи этого клиента, сначала новые',
  created: 'Создан',
  order: 'Заказ',
  amount: 'Сумма',
  status: 'Статус',
  open: 'Открыть',
  openPayment: (order) => `Открыть платёж заказа ${order}`,
  statuses: {
    pending: 'Ожидает',
    processing: 'Обрабатывается',
    completed: 'Оплачен',
    failed: 'Не прошёл',
    expired: 'Истёк',
    refunded: 'Возвращён',
  },
};

export const CUSTOMERS_MESSAGES: Readonly<Record<Language, CustomersMessages>> = { en, hy, ru };
