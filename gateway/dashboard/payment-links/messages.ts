/**
 * The texts of the payment links pages, in the dashboard's three languages (picked with
 * `shell.lang`). Not escaped here: the pages escape everything they print.
 */
import { type Catalog, defineMessages } from '../../i18n/messages.js';

export interface PaymentLinksMessages {
  readonly title: string;
  readonly intro: string;
  readonly listTitle: string;
  readonly none: string;
  readonly link: string;
  readonly amount: string;
  readonly environment: string;
  readonly kind: string;
  readonly statusLabel: string;
  readonly payments: string;
  readonly created: string;
  readonly range: (min: string, max: string) => string;
  readonly reusable: string;
  readonly singleUse: string;
  readonly statuses: {
    readonly active: string;
    readonly inactive: string;
    readonly expired: string;
    readonly completed: string;
  };
  readonly paymentsCount: (completed: number, all: number) => string;
  readonly environments: { readonly test: string; readonly live: string };
  readonly viewerNote: string;
  readonly previous: string;
  readonly next: string;
  readonly pageOf: (page: number, last: number) => string;

  readonly createTitle: string;
  readonly testHint: string;
  readonly liveHint: string;
  readonly liveNeedsVerification: string;
  readonly verifyBusiness: string;
  readonly amountKind: string;
  readonly fixedAmount: string;
  readonly fixedHint: string;
  readonly rangeAmount: string;
  readonly rangeHint: string;
  readonly amountField: string;
  readonly amountMin: string;
  readonly amountMax: string;
  readonly description: string;
  readonly descriptionHint: string;
  readonly use: string;
  readonly singleUseHint: string;
  readonly reusableHint: string;
  readonly expiresAt: string;
  readonly expiresHint: string;
  readonly create: string;
  readonly chooseEnvironment: string;
  readonly chooseKind: string;
  readonly badAmount: string;
  readonly badRange: string;
  readonly badExpiry: string;
  readonly badDescription: string;

  readonly detailTitle: (id: string) => string;
  readonly url: string;
  readonly shareTitle: string;
  readonly qrAlt: string;
  readonly downloadPng: string;
  readonly downloadSvg: string;
  readonly expires: string;
  readonly never: string;
  readonly linkPayments: string;
  readonly noPayments: string;
  readonly order: string;
  readonly paymentStatus: string;
  readonly deactivate: string;
  readonly deactivateHint: string;
  readonly backToList: string;
  readonly createdNotice: string;
  readonly deactivatedNotice: string;
  readonly alreadyInactive: string;
  readonly paymentStatuses: Readonly<Record<string, string>>;
}

const en: Catalog<PaymentLinksMessages> = {
  title: 'Payment links',
  intro:
    'A payment link is a page on your hosted domain where a buyer pays you, no website needed. Share its address or its QR code; each payment made through it shows here.',
  listTitle: 'Your payment links',
  none: 'No payment links yet.',
  link: 'Link',
  amount: 'Amount',
  environment: 'Environment',
  kind: 'Use',
  statusLabel: 'Status',
  payments: 'Payments',
  created: 'Created',
  range: '{min} to {max}',
  reusable: 'Reusable',
  singleUse: 'Single use',
  statuses: { active: 'Active', inactive: 'Deactivated', expired: 'Expired', completed: 'Paid' },
  paymentsCount: '{completed, number} paid of {all, number}',
  environments: { test: 'Test', live: 'Live' },
  viewerNote: 'You can see the links; only the owner and admins can create or deactivate them.',
  previous: 'Previous page',
  next: 'Next page',
  pageOf: 'Page {page} of {last}',

  createTitle: 'Create a payment link',
  testHint: 'Test payments with the sandbox cards; no money moves.',
  liveHint: 'Real payments through the processors enabled on your hosted domain.',
  liveNeedsVerification: 'Live links need a verified business.',
  verifyBusiness: 'Verify your business',
  amountKind: 'Amount',
  fixedAmount: 'A fixed amount',
  fixedHint: 'The buyer pays exactly this.',
  rangeAmount: 'The buyer chooses',
  rangeHint: 'The buyer enters an amount between the smallest and the largest.',
  amountField: 'Amount (AMD)',
  amountMin: 'Smallest amount (AMD)',
  amountMax: 'Largest amount (AMD)',
  description: 'Description (optional)',
  descriptionHint: 'What the buyer pays for; shown on the page. At most 500 characters.',
  use: 'How many payments',
  singleUseHint: 'Paid once, then it stops taking payments.',
  reusableHint: 'Takes any number of payments until you deactivate it.',
  expiresAt: 'Expires (optional, Yerevan time)',
  expiresHint: 'Form: 2026-12-31 18:00. After this the link takes no payment.',
  create: 'Create the link',
  chooseEnvironment: 'Choose test or live.',
  chooseKind: 'Choose a fixed amount or a range.',
  badAmount: 'Enter a whole number of AMD, at least 1 and within the largest payment allowed.',
  badRange: 'Enter whole amounts; the largest must be greater than the smallest.',
  badExpiry: 'Enter a date and time in the future, in the form 2026-12-31 18:00.',
  badDescription: 'At most 500 characters, without control characters.',

  detailTitle: 'Payment link {id}',
  url: 'Address',
  shareTitle: 'Share',
  qrAlt: 'QR code of the payment link address',
  downloadPng: 'Download the QR code (PNG)',
  downloadSvg: 'Download the QR code (SVG)',
  expires: 'Expires',
  never: 'Never',
  linkPayments: 'Payments through this link',
  noPayments: 'No payment yet.',
  order: 'Order',
  paymentStatus: 'Status',
  deactivate: 'Deactivate this link',
  deactivateHint: 'Buyers can no longer pay through it. This cannot be undone.',
  backToList: 'All payment links',
  createdNotice: 'The payment link was created.',
  deactivatedNotice: 'The payment link was deactivated.',
  alreadyInactive: 'The payment link was already deactivated.',
  paymentStatuses: {
    pending: 'Pending',
    processing: 'Processing',
    completed: 'Completed',
    failed: 'Failed',
    expired: 'Expired',
    refunded: 'Refunded',
  },
};

const hy: Catalog<PaymentLinksMessages> = {
  title: 'Վճարման հղումներ',
  intro:
    'Վճարման հղումը ձեր հոսթինգային դոմենի էջ է, որտեղ գնորդը վճարում է ձեզ՝ առանց կայքի։ Կիսվեք դրա հասցեով կամ QR կոդով․ դրանով կատարված յուրաքանչյուր վճարում երևում է այստեղ։',
  listTitle: 'Ձեր վճարման հղումները',
  none: 'Վճարման հղումներ դեռ չկան։',
  link: 'Հղում',
  amount: 'Գումար',
  environment: 'Միջավայր',
  kind: 'Օգտագործում',
  statusLabel: 'Կարգավիճակ',
  payments: 'Վճարումներ',
  created: 'Ստեղծվել է',
  range: '{min} – {max}',
  reusable: 'Բազմակի',
  singleUse: 'Միանվագ',
  statuses: { active: 'Ակտիվ', inactive: 'Ապաակտիվացված', expired: 'Ժամկետանց', completed: 'Վճարված' },
  paymentsCount: 'Վճարված՝ {completed, number} / {all, number}',
  environments: { test: 'Թեստային', live: 'Իրական' },
  viewerNote: 'Դուք տեսնում եք հղումները․ ստեղծել կամ ապաակտիվացնել կարող են միայն սեփականատերը և ադմինները։',
  previous: 'Նախորդ էջ',
  next: 'Հաջորդ էջ',
  pageOf: 'Էջ {page}՝ {last}-ից',

  createTitle: 'Ստեղծել վճարման հղում',
  testHint: 'Թեստային վճարումներ թեստային քարտերով․ գումար չի փոխանցվում։',
  liveHint: 'Իրական վճարումներ՝ ձեր հոսթինգային դոմենում միացված վճարային համակարգերով։',
  liveNeedsVerification: 'Իրական հղումների համար պետք է հաստատված բիզնես։',
  verifyBusiness: 'Հաստատել բիզնեսը',
  amountKind: 'Գումար',
  fixedAmount: 'Ֆիքսված գումար',
  fixedHint: 'Գնորդը վճարում է հենց այս գումարը։',
  rangeAmount: 'Գնորդն է ընտրում',
  rangeHint: 'Գնորդը մուտքագրում է գումար նվազագույնի և առավելագույնի միջև։',
  amountField: 'Գումար (֏)',
  amountMin: 'Նվազագույն գումար (֏)',
  amountMax: 'Առավելագույն գումար (֏)',
  description: 'Նկարագրություն (ըստ ցանկության)',
  descriptionHint: 'Ինչի համար է վճարում գնորդը․ ցուցադրվում է էջում։ Առավելագույնը 500 նիշ։',
  use: 'Քանի վճարում',
  singleUseHint: 'Վճարվում է մեկ անգամ, հետո այլևս վճարումներ չի ընդունում։',
  reusableHint: 'Ընդունում է ցանկացած թվով վճարումներ, մինչև այն ապաակտիվացնեք։',
  expiresAt: 'Գործում է մինչև (ըստ ցանկության, Երևանի ժամով)',
  expiresHint: 'Ձևաչափ՝ 2026-12-31 18:00։ Դրանից հետո հղումը վճարումներ չի ընդունում։',
  create: 'Ստեղծել հղումը',
  chooseEnvironment: 'Ընտրեք թեստային կամ իրական։',
  chooseKind: 'Ընտրեք ֆիքսված գումար կամ միջակայք։',
  badAmount: 'Մուտքագրեք գումարն ամբողջ դրամներով՝ առնվազն 1 ֏ և ոչ ավելի, քան թույլատրելի առավելագույն վճարումը։',
  badRange: 'Մուտքագրեք ամբողջ գումարներ․ առավելագույնը պետք է մեծ լինի նվազագույնից։',
  badExpiry: 'Մուտքագրեք ապագա ամսաթիվ և ժամ՝ 2026-12-31 18:00 ձևաչափով։',
  badDescription: 'Առավելագույնը 500 նիշ, առանց կառավարման նիշերի։',

  detailTitle: 'Վճարման հղում {id}',
  url: 'Հասցե',
  shareTitle: 'Կիսվել',
  qrAlt: 'Վճարման հղման հասցեի QR կոդը',
  downloadPng: 'Ներբեռնել QR կոդը (PNG)',
  downloadSvg: 'Ներբեռնել QR կոդը (SVG)',
  expires: 'Ժամկետ',
  never: 'Անժամկետ',
  linkPayments: 'Այս հղումով վճարումներ',
  noPayments: 'Վճարումներ դեռ չկան։',
  order: 'Պատվեր',
  paymentStatus: 'Կարգավիճակ',
  deactivate: 'Ապաակտիվացնել այս հղումը',
  deactivateHint: 'Գնորդներն այլևս չեն կարողանա վճարել դրանով։ Սա հնարավոր չէ հետարկել։',
  backToList: 'Բոլոր վճարման հղումները',
  createdNotice: 'Վճարման հղումը ստեղծվեց։',
  deactivatedNotice: 'Վճարման հղումն ապաակտիվացվեց։',
  alreadyInactive: 'Վճարման հղումն արդեն ապաակտիվացված էր։',
  paymentStatuses: {
    pending: 'Սպասման մեջ',
    processing: 'Մշակվում է',
    completed: 'Ավարտված',
    failed: 'Անհաջող',
    expired: 'Ժամկետանց',
    refunded: 'Վերադարձված',
  },
};

const ru: Catalog<PaymentLinksMessages> = {
  title: 'Платёжные ссылки',
  intro:
    'Платёжная ссылка — страница на вашем хостинговом домене, где покупатель платит вам, сайт не нужен. Поделитесь её адресом или QR-кодом; каждый платёж по ней виден здесь.',
  listTitle: 'Ваши платёжные ссылки',
  none: 'Платёжных ссылок пока нет.',
  link: 'Ссылка',
  amount: 'Сумма',
  environment: 'Среда',
  kind: 'Использование',
  statusLabel: 'Статус',
  payments: 'Платежи',
  created: 'Создана',
  range: '{min} – {max}',
  reusable: 'Многоразовая',
  singleUse: 'Одноразовая',
  statuses: { active: 'Активна', inactive: 'Отключена', expired: 'Истекла', completed: 'Оплачена' },
  paymentsCount: 'Оплачено: {completed, number} из {all, number}',
  environments: { test: 'Тестовая', live: 'Боевая' },
  viewerNote: 'Вы видите ссылки; создавать и отключать их могут только владелец и администраторы.',
  previous: 'Предыдущая страница',
  next: 'Следующая страница',
  pageOf: 'Страница {page} из {last}',

  createTitle: 'Создать платёжную ссылку',
  testHint: 'Тестовые платежи тестовыми картами; настоящие деньги не списываются.',
  liveHint: 'Настоящие платежи через платёжные системы, включённые на вашем хостинговом домене.',
  liveNeedsVerification: 'Для боевых ссылок нужен подтверждённый бизнес.',
  verifyBusiness: 'Подтвердить бизнес',
  amountKind: 'Сумма',
  fixedAmount: 'Фиксированная сумма',
  fixedHint: 'Покупатель платит ровно эту сумму.',
  rangeAmount: 'Выбирает покупатель',
  rangeHint: 'Покупатель вводит сумму между наименьшей и наибольшей.',
  amountField: 'Сумма, драм',
  amountMin: 'Наименьшая сумма, драм',
  amountMax: 'Наибольшая сумма, драм',
  description: 'Описание (необязательно)',
  descriptionHint: 'За что платит покупатель; показывается на странице. Не более 500 символов.',
  use: 'Сколько платежей',
  singleUseHint: 'Оплачивается один раз, затем больше не принимает платежей.',
  reusableHint: 'Принимает любое число платежей, пока вы её не отключите.',
  expiresAt: 'Действует до (необязательно, по ереванскому времени)',
  expiresHint: 'Формат: 2026-12-31 18:00. После этого ссылка не принимает платежей.',
  create: 'Создать ссылку',
  chooseEnvironment: 'Выберите тестовую или боевую.',
  chooseKind: 'Выберите фиксированную сумму или диапазон.',
  badAmount: 'Введите сумму в целых драмах: не меньше 1 драма и не больше наибольшего допустимого платежа.',
  badRange: 'Введите целые суммы; наибольшая должна быть больше наименьшей.',
  badExpiry: 'Введите дату и время в будущем в формате 2026-12-31 18:00.',
  badDescription: 'Не более 500 символов, без управляющих символов.',

  detailTitle: 'Платёжная ссылка {id}',
  url: 'Адрес',
  shareTitle: 'Поделиться',
  qrAlt: 'QR-код адреса платёжной ссылки',
  downloadPng: 'Скачать QR-код (PNG)',
  downloadSvg: 'Скачать QR-код (SVG)',
  expires: 'Действует до',
  never: 'Бессрочно',
  linkPayments: 'Платежи по этой ссылке',
  noPayments: 'Платежей пока нет.',
  order: 'Заказ',
  paymentStatus: 'Статус',
  deactivate: 'Отключить эту ссылку',
  deactivateHint: 'Покупатели больше не смогут платить по ней. Это нельзя отменить.',
  backToList: 'Все платёжные ссылки',
  createdNotice: 'Платёжная ссылка создана.',
  deactivatedNotice: 'Платёжная ссылка отключена.',
  alreadyInactive: 'Платёжная ссылка уже была отключена.',
  paymentStatuses: {
    pending: 'Ожидает',
    processing: 'Обрабатывается',
    completed: 'Завершён',
    failed: 'Неуспешный',
    expired: 'Истёк',
    refunded: 'Возвращён',
  },
};

export const PAYMENT_LINKS_MESSAGES = defineMessages<PaymentLinksMessages>(
  'dashboard.payment-links',
  { en, hy, ru },
  {
    range: ['min', 'max'],
    paymentsCount: ['completed', 'all'],
    pageOf: ['page', 'last'],
    detailTitle: ['id'],
  },
);
