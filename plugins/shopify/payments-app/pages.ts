/**
 * The pages a buyer coming back from the gateway sees on the shop's storefront (through the app
 * proxy) while Shopify's next step is not there: the waiting page, which checks again every 3 s a
 * bounded number of times, and the final page with the way back to the shop. In the buyer's language
 * (the session's `customer.locale`, else the browser's `Accept-Language`): Armenian, Russian or
 * English. Never a failure: a buyer who paid is told so, and one whose payment is not known yet is
 * told they will hear from the shop and should not pay again.
 */
import { fromAcceptLanguage, isLanguage, type Language } from '../../../gateway/checkout/i18n/index.js';

interface Words {
  waitingTitle: string;
  waitingText: string;
  paidTitle: string;
  paidText: string;
  unknownTitle: string;
  unknownText: string;
  back: string;
}

const WORDS: Readonly<Record<Language, Words>> = {
  en: {
    waitingTitle: 'Confirming your payment…',
    waitingText: 'This page refreshes by itself and takes you back to the shop.',
    paidTitle: 'Your payment was received',
    paidText:
      'The shop is confirming your order. You will receive the order confirmation by email; there is no need to pay again.',
    unknownTitle: 'We are still confirming your payment',
    unknownText:
      'If your payment went through, you will receive the order confirmation by email. Please do not pay again before you hear from the shop.',
    back: 'Back to the shop',
  },
  hy: {
    waitingTitle: 'Վճարումը հաստատվում է…',
    waitingText: 'Այս էջը ինքն է թարմանում և ձեզ վերադարձնում է խանութ։',
    paidTitle: 'Ձեր վճարումը ստացվել է',
    paidText: 'Խանութը հաստատում է ձեր պատվերը։ Պատվերի հաստատումը կստանաք էլ. փոստով․ կրկին վճարել պետք չէ։',
    unknownTitle: 'Ձեր վճարումը դեռ հաստատվում է',
    unknownText:
      'Եթե վճարումը կատարվել է, պատվերի հաստատումը կստանաք էլ. փոստով։ Խնդրում ենք կրկին չվճարել, քանի դեռ խանութից պատասխան չեք ստացել։',
    back: 'Վերադառնալ խանութ',
  },
  ru: {
    waitingTitle: 'Подтверждаем оплату…',
    waitingText: 'Страница обновится сама и вернёт вас в магазин.',
    paidTitle: 'Оплата получена',
    paidText:
      'Магазин подтверждает ваш заказ. Подтверждение заказа придёт на электронную почту; платить повторно не нужно.',
    unknownTitle: 'Мы ещё подтверждаем оплату',
    unknownText:
      'Если оплата прошла, подтверждение заказа придёт на электронную почту. Пожалуйста, не платите повторно, пока магазин не ответит.',
    back: 'Вернуться в магазин',
  },
};

/** The buyer's language: the session's locale (`hy`, `ru-RU`, ...), else `Accept-Language`, else English. */
export function buyerLanguage(locale: string | null, acceptLanguage: string | undefined): Language {
  const primary = locale?.toLowerCase().split(/[-_]/)[0];
  if (isLanguage(primary)) return primary;
  return fromAcceptLanguage(acceptLanguage) ?? 'en';
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(language: Language, title: string, head: string, body: string): string {
  return `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8">${head}
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body><main>${body}</main></body></html>
`;
}

/** The page a returning buyer sees while the payment's outcome is not known yet: it checks again in 3 s. */
export function returnPage(language: Language = 'en', next = 1): string {
  const words = WORDS[language];
  // Relative: the storefront's own address (the app proxy) with the next check's number.
  return page(
    language,
    words.waitingTitle,
    `<meta http-equiv="refresh" content="3; url=?check=${next}">`,
    `<h1>${escapeHtml(words.waitingTitle)}</h1><p>${escapeHtml(words.waitingText)}</p>`,
  );
}

/** The final page: paid (Shopify is being told) or not known yet, with the way back to the shop. */
export function finalPage(language: Language, paid: boolean, shop: string): string {
  const words = WORDS[language];
  const title = paid ? words.paidTitle : words.unknownTitle;
  const text = paid ? words.paidText : words.unknownText;
  return page(
    language,
    title,
    '',
    `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p><p><a href="https://${escapeHtml(shop)}/">${escapeHtml(words.back)}</a></p>`,
  );
}
