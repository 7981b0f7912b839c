/**
 * The texts of a payment link's page for the buyer (`/l/:id`), in the checkout's three languages.
 * Not escaped here: the pages escape everything they print.
 */
import type { Language } from '../checkout/i18n/index.js';

export interface LinkPageMessages {
  readonly pageTitle: string;
  readonly amountLabel: string;
  readonly chooseAmount: string;
  readonly rangeHint: (min: string, max: string) => string;
  readonly payButton: (amount: string) => string;
  readonly payChosen: string;
  readonly invalidAmount: (min: string, max: string) => string;
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

const en: LinkPageMessages = {
  pageTitle: 'Payment',
  amountLabel: 'Amount',
  chooseAmount: 'Amount to pay (AMD)',
  rangeHint: (min, max) => `From ${min} to ${max}.`,
  payButton: (amount) => `Pay ${amount}`,
  payChosen: 'Continue to payment',
  invalidAmount: (min, max) => `Enter a whole amount from ${min} to ${max}.`,
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

const hy: LinkPageMessages = {
  pageTitle: 'Վճարում',
  amountLabel: 'Գումար',
  chooseAmount: 'Վճարվող գումարը (AMD)',
  rangeHint: (min, max) => `${min}-ից մինչև ${max}։`,
  payButton: (amount) => `Վճարել ${amount}`,
  payChosen: 'Անցնել վճարմանը',
  invalidAmount: (min, max) => `Մուտքագրեք ամբողջ գումար՝ ${min}-ից մինչև ${max}։`,
  notFoundTitle: 'Վճարման հղումը չի գտնվել',
  notFoundText: 'Ստուգեք ձեզ տրված հասցեն կամ նոր հղում խնդրեք վաճառողից։',
  inactiveTitle: 'Այս վճարման հղումն այլևս ակտիվ չէ',
  inactiveText: 'Վաճառողն անջատել է այս հղումը։ Նոր հղում խնդրեք նրանից։',
  expiredTitle: 'Այս վճարման հղման ժամկետն անցել է',
  expiredText: 'Այս հղումով վճարելու ժամկետն ավարտվել է։ Նոր հղում խնդրեք վաճառողից։',
  completedTitle: 'Այս վճարման հղումն արդեն վճարված է',
  completedText: 'Այն կարելի էր վճարել մեկ անգամ, և այն վճարվել է։ Դրանով այլևս վճարելու բան չկա։',
  unavailableTitle: 'Վճարումը չհաջողվեց սկսել',
  unavailableText: 'Խնդրում ենք փորձել մի փոքր ուշ։',
  tooManyTitle: 'Չափազանց շատ վճարումներ են սկսվել',
  tooManyText: 'Վերջին րոպեում ձեր կապից մի քանի վճարում է սկսվել։ Խնդրում ենք սպասել մեկ րոպե և կրկին փորձել։',
  thanksTitle: 'Շնորհակալություն, վճարումը ստացված է',
  thanksText: 'Վաճառողը տեղեկացված է։ Կարող եք փակել այս էջը։',
  notPaidTitle: 'Վճարումը չի ավարտվել',
  notPaidText: 'Գումար չի գանձվել։ Կարող եք կրկին փորձել։',
  tryAgain: 'Վերադառնալ վճարման էջ',
};

const ru: LinkPageMessages = {
  pageTitle: 'Оплата',
  amountLabel: 'Сумма',
  chooseAmount: 'Сумма к оплате (AMD)',
  rangeHint: (min, max) => `От ${min} до ${max}.`,
  payButton: (amount) => `Оплатить ${amount}`,
  payChosen: 'Перейти к оплате',
  invalidAmount: (min, max) => `Введите целую сумму от ${min} до ${max}.`,
  notFoundTitle: 'Платёжная ссылка не найдена',
  notFoundText: 'Проверьте полученный адрес или попросите у продавца новую ссылку.',
  inactiveTitle: 'Эта платёжная ссылка больше не действует',
  inactiveText: 'Продавец отключил эту ссылку. Попросите у него новую.',
  expiredTitle: 'Срок действия платёжной ссылки истёк',
  expiredText: 'Время для оплаты по этой ссылке вышло. Попросите у продавца новую.',
  completedTitle: 'Эта платёжная ссылка уже оплачена',
  completedText: 'Её можно было оплатить один раз, и она оплачена. Больше по ней ничего не причитается.',
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

export const LINK_PAGE_MESSAGES: Readonly<Record<Language, LinkPageMessages>> = { en, hy, ru };
