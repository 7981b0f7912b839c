/**
 * The texts of a payment link's page for the buyer (`/l/:id`), in the checkout's three languages,
 * as ICU messages (gateway/i18n/messages.ts): amounts are `{x, number, amd}`, the link's expiry is
 * Yerevan time with the zone named. Not escaped here: the pages escape everything they print.
 */
import type { Catalog } from '../i18n/messages.js';
import { defineMessages } from '../i18n/messages.js';

export interface LinkPageMessages {
  readonly pageTitle: string;
  readonly amountLabel: string;
  readonly chooseAmount: string;
  readonly rangeHint: (min: number, max: number) => string;
  readonly payButton: (amount: number) => string;
  readonly payChosen: string;
  readonly invalidAmount: (min: number, max: number) => string;
  /** The link's expiry, an instant (Yerevan time, zone named: the buyer may be abroad). */
  readonly validUntil: (when: string) => string;
  readonly notFoundTitle: string;
  readonly notFoundText: string;
  readonly inactiveTitle: string;
  readonly inactiveText: string;
  readonly expiredTitle: string;
  readonly expiredText: string;
  readonly completedTitle: string;
  readonly completedText: string;
  readonly unavailableTitle: string;
  readonly unavailableText: string;
  readonly tooManyTitle: string;
  readonly tooManyText: string;
  readonly thanksTitle: string;
  readonly thanksText: string;
  readonly notPaidTitle: string;
  readonly notPaidText: string;
  readonly tryAgain: string;
}

const en: Catalog<LinkPageMessages> = {
  pageTitle: 'Payment',
  amountLabel: 'Amount',
  chooseAmount: 'Amount to pay (AMD)',
  rangeHint: 'From {min, number, amd} to {max, number, amd}.',
  payButton: 'Pay {amount, number, amd}',
  payChosen: 'Continue to payment',
  invalidAmount: 'Enter a whole amount from {min, number, amd} to {max, number, amd}.',
  validUntil: 'You can pay with this link until {when, date, zoned}.',
  notFoundTitle: 'Payment link not found',
  notFoundText: 'Check the address you were given, or ask the seller for a new link.',
  inactiveTitle: 'This payment link is no longer active',
  inactiveText: 'The seller turned this link off. Ask them for a new one.',
  expiredTitle: 'This payment link has expired',
  expiredText: 'The time to pay with this link is over. Ask the seller for a new one.',
  completedTitle: 'This payment link has already been paid',
  completedText: 'It could be paid once, and it was. Nothing more is due through it.',
  unavailableTitle: 'Payment could not start',
  unavailableText: 'Please try again in a moment.',
  tooManyTitle: 'Too many payments started',
  tooManyText:
    'Several payments were started from your connection in the last minute. Please wait a minute and try again.',
  thanksTitle: 'Thank you, payment received',
  thanksText: 'The seller has been told. You may close this page.',
  notPaidTitle: 'The payment was not completed',
  notPaidText: 'No money was taken. You may try again.',
  tryAgain: 'Back to the payment page',
};

const hy: Catalog<LinkPageMessages> = {
  pageTitle: 'Վճարում',
  amountLabel: 'Գումար',
  chooseAmount: 'Վճարվող գումարը (դրամ)',
  rangeHint: 'Նվազագույնը՝ {min, number, amd}, առավելագույնը՝ {max, number, amd}։',
  payButton: 'Վճարել {amount, number, amd}',
  payChosen: 'Անցնել վճարման',
  invalidAmount: 'Մուտքագրեք ամբողջ գումար՝ նվազագույնը {min, number, amd}, առավելագույնը {max, number, amd}։',
  validUntil: 'Այս հղումով կարող եք վճարել մինչև {when, date, zoned}։',
  notFoundTitle: 'Վճարման հղումը չի գտնվել',
  notFoundText: 'Ստուգեք ձեզ տրված հասցեն կամ նոր հղում խնդրեք վաճառողից։',
  inactiveTitle: 'Այս վճարման հղումն այլևս չի գործում',
  inactiveText: 'Վաճառողն անջատել է այս հղումը։ Նոր հղում խնդրեք նրանից։',
  expiredTitle: 'Այս վճարման հղման ժամկետը լրացել է',
  expiredText: 'Այս հղումով վճարելու ժամկետն ավարտվել է։ Նոր հղում խնդրեք վաճառողից։',
  completedTitle: 'Այս վճարման հղումով արդեն վճարվել է',
  completedText: 'Այս հղումով կարելի էր վճարել մեկ անգամ, և վճարումն արդեն կատարվել է։ Այլևս վճարելու ոչինչ չկա։',
  unavailableTitle: 'Վճարումը չհաջողվեց սկսել',
  unavailableText: 'Խնդրում ենք մի փոքր ուշ կրկին փորձել։',
  tooManyTitle: 'Չափազանց շատ վճարումներ են սկսվել',
  tooManyText: 'Վերջին րոպեում ձեր կապից մի քանի վճարում է սկսվել։ Խնդրում ենք սպասել մեկ րոպե և կրկին փորձել։',
  thanksTitle: 'Շնորհակալություն, վճարումն ստացված է',
  thanksText: 'Վաճառողը տեղեկացված է։ Կարող եք փակել այս էջը։',
  notPaidTitle: 'Վճարումը չի կատարվել',
  notPaidText: 'Գումար չի գանձվել։ Կարող եք կրկին փորձել։',
  tryAgain: 'Վերադառնալ վճարման էջ',
};

const ru: Catalog<LinkPageMessages> = {
  pageTitle: 'Оплата',
  amountLabel: 'Сумма',
  chooseAmount: 'Сумма к оплате (в драмах)',
  rangeHint: 'Минимум {min, number, amd}, максимум {max, number, amd}.',
  payButton: 'Оплатить {amount, number, amd}',
  payChosen: 'Перейти к оплате',
  invalidAmount: 'Введите сумму в целых драмах: минимум {min, number, amd}, максимум {max, number, amd}.',
  validUntil: 'Оплатить по этой ссылке можно до {when, date, zoned}.',
  notFoundTitle: 'Платёжная ссылка не найдена',
  notFoundText: 'Проверьте полученный адрес или попросите у продавца новую ссылку.',
  inactiveTitle: 'Эта платёжная ссылка больше не действует',
  inactiveText: 'Продавец отключил эту ссылку. Попросите у него новую.',
  expiredTitle: 'Срок действия платёжной ссылки истёк',
  expiredText: 'Время для оплаты по этой ссылке вышло. Попросите у продавца новую ссылку.',
  completedTitle: 'По этой платёжной ссылке уже заплатили',
  completedText: 'По ней можно было заплатить один раз, и оплата уже получена. Больше платить по ней не нужно.',
  unavailableTitle: 'Не удалось начать оплату',
  unavailableText: 'Пожалуйста, попробуйте ещё раз чуть позже.',
  tooManyTitle: 'Слишком много начатых платежей',
  tooManyText:
    'За последнюю минуту с вашего подключения начато несколько платежей. Подождите минуту и попробуйте ещё раз.',
  thanksTitle: 'Спасибо, платёж получен',
  thanksText: 'Продавец уведомлён. Эту страницу можно закрыть.',
  notPaidTitle: 'Платёж не завершён',
  notPaidText: 'Деньги не списаны. Можно попробовать ещё раз.',
  tryAgain: 'Вернуться к странице оплаты',
};

export const LINK_PAGE_MESSAGES = defineMessages<LinkPageMessages>(
  'paymentLinkPage',
  { en, hy, ru },
  {
    rangeHint: ['min', 'max'],
    payButton: ['amount'],
    invalidAmount: ['min', 'max'],
    validUntil: ['when'],
  },
);
