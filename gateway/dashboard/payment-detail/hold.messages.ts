/**
 * The texts of a held payment on its page (the hold, its capture and release, what became of it)
 * and of the capture and release confirmations, in the dashboard's three languages, in the words
 * of docs/glossary.md ("Holds"). Not escaped here: the pages escape everything they print.
 */
import { type Catalog, defineMessages } from '../../i18n/messages.js';

export interface HoldMessages {
  readonly holdTitle: string;
  readonly heldAmount: string;
  readonly captureBefore: string;
  /** What an open hold is and what can be done with it. */
  readonly openText: string;
  /** Authorized, but past `capture_before`: the gateway is releasing it. */
  readonly ranOutText: string;
  readonly capturedText: (amount: number, authorized: number) => string;
  readonly restReleased: string;
  readonly releasedText: string;
  readonly expiredText: string;
  /** An operation whose outcome the processor did not say: never a failure, being checked. */
  readonly checkingCapture: (amount: number) => string;
  readonly checkingRelease: string;
  readonly sendingCapture: (amount: number) => string;
  readonly sendingRelease: string;

  readonly captureTitle: string;
  readonly captureAmountLabel: string;
  readonly captureAmountHint: (authorized: number) => string;
  readonly captureWhole: (authorized: number) => string;
  readonly captureContinue: string;
  readonly releaseTitle: string;
  readonly releaseHint: string;
  readonly releaseContinue: string;

  readonly captureConfirmTitle: string;
  readonly captureConfirmText: (amount: number, orderId: string) => string;
  readonly captureConfirmRest: (rest: number) => string;
  readonly captureConfirmButton: string;
  readonly releaseConfirmTitle: string;
  readonly releaseConfirmText: (amount: number, orderId: string) => string;
  readonly releaseConfirmButton: string;
  readonly cancel: string;

  /** Notices after the page's redirect. */
  readonly captured: string;
  readonly released: string;
  readonly checking: string;

  /** Headings of the problems of a capture or release, at the top of the page. */
  readonly captureNotMade: string;
  readonly releaseNotMade: string;
  readonly amountInvalid: string;
  readonly amountTooLarge: (authorized: number) => string;
  readonly refusals: {
    readonly authorization_expired: string;
    readonly already_captured: string;
    readonly already_released: string;
    readonly not_authorized: string;
    readonly capture_declined: string;
    readonly void_declined: string;
    readonly processor_unavailable: string;
    readonly in_progress: string;
    readonly other: string;
  };
}

const en: Catalog<HoldMessages> = {
  holdTitle: 'Hold on the card',
  heldAmount: 'Held on the card',
  captureBefore: 'Capture by',
  openText:
    'The buyer’s card holds this amount until the deadline. Capture all of it or less, or release it; a hold not captured by then is released by the gateway, and nothing is taken.',
  ranOutText: 'The hold ran out: it can no longer be captured, and the gateway is releasing it. Nothing is taken.',
  capturedText: 'Captured {amount, number, amd}, of the {authorized, number, amd} held.',
  restReleased: 'The rest of the hold was released.',
  releasedText: 'Released: nothing was taken, and the buyer’s bank frees the held amount.',
  expiredText: 'The hold ran out before it was captured and was released: nothing was taken.',
  checkingCapture:
    'Capture of {amount, number, amd}: outcome unknown, being checked. The processor did not answer; the gateway is checking with it and never sends the capture twice. This page shows the outcome once it is known.',
  checkingRelease:
    'Release: outcome unknown, being checked. The processor did not answer; the gateway is checking with it and never sends the release twice. This page shows the outcome once it is known.',
  sendingCapture: 'A capture of {amount, number, amd} is being sent to the processor. Read the page again in a moment.',
  sendingRelease: 'The release is being sent to the processor. Read the page again in a moment.',
  captureTitle: 'Capture',
  captureAmountLabel: 'Amount to capture (AMD)',
  captureAmountHint:
    'Up to {authorized, number, amd}. A smaller amount captures that much, and the rest of the hold is released.',
  captureWhole: 'This payment is captured whole: {authorized, number, amd}.',
  captureContinue: 'Continue to capture',
  releaseTitle: 'Release the hold',
  releaseHint: 'Nothing is taken, and the payment can no longer be captured.',
  releaseContinue: 'Continue to release',
  captureConfirmTitle: 'Confirm the capture',
  captureConfirmText: 'Capture {amount, number, amd} from the buyer’s card for order {orderId}?',
  captureConfirmRest: 'The rest of the hold, {rest, number, amd}, is released: it cannot be captured later.',
  captureConfirmButton: 'Capture',
  releaseConfirmTitle: 'Confirm the release',
  releaseConfirmText:
    'Release the {amount, number, amd} held for order {orderId}? Nothing is taken, and the payment can no longer be captured.',
  releaseConfirmButton: 'Release the hold',
  cancel: 'Cancel',
  captured: 'The capture went through.',
  released: 'The hold was released: nothing was taken.',
  checking: 'The processor has not answered yet. The outcome is being checked with it, and nothing is sent twice.',
  captureNotMade: 'The capture was not made',
  releaseNotMade: 'The hold was not released',
  amountInvalid: 'Enter a whole number of AMD, at least 1.',
  amountTooLarge: 'That is more than the {authorized, number, amd} held on the card.',
  refusals: {
    authorization_expired: 'The hold ran out: it can no longer be captured, and the gateway releases it.',
    already_captured: 'This payment is already captured: a hold is captured once. Refund it instead.',
    already_released: 'The hold is already released: there is nothing left to capture or release.',
    not_authorized: 'Nothing is held on this payment: only an authorized payment can be captured or released.',
    capture_declined: 'The processor declined the capture: nothing was taken, and the hold stands.',
    void_declined:
      'The processor declined to release the hold: the payment stays authorized until its hold runs out, and nothing is taken without you.',
    processor_unavailable:
      'The processor could not be reached: nothing was sent, and the hold is unchanged. Try again later.',
    in_progress: 'A capture or release of this payment is already being sent. Read the page again in a moment.',
    other: 'The capture or release could not be made.',
  },
};

const hy: Catalog<HoldMessages> = {
  holdTitle: 'Քարտին արգելափակված գումար',
  heldAmount: 'Արգելափակված գումար',
  captureBefore: 'Գանձել մինչև',
  openText:
    'Գնորդի քարտին այս գումարն արգելափակված է մինչև նշված ժամկետը։ Գանձեք ամբողջը կամ ավելի քիչ, կամ ապաարգելափակեք այն. եթե մինչև ժամկետը չգանձվի, դարպասն այն կապաարգելափակի, և ոչինչ չի գանձվի։',
  ranOutText:
    'Արգելափակման ժամկետը լրացել է. այն այլևս հնարավոր չէ գանձել, և դարպասն այն ապաարգելափակում է։ Ոչինչ չի գանձվում։',
  capturedText: 'Գանձված՝ {amount, number, amd}։ Արգելափակված էր՝ {authorized, number, amd}։',
  restReleased: 'Մնացած գումարն ապաարգելափակվել է։',
  releasedText: 'Ապաարգելափակված է. ոչինչ չի գանձվել, և գնորդի բանկն ազատում է արգելափակված գումարը։',
  expiredText: 'Արգելափակման ժամկետը լրացավ մինչև գանձումը, և գումարն ապաարգելափակվեց. ոչինչ չի գանձվել։',
  checkingCapture:
    'Գանձում՝ {amount, number, amd}. արդյունքը դեռ հայտնի չէ, ստուգվում է։ Վճարային համակարգը չպատասխանեց. դարպասը ստուգում է նրա մոտ և գանձումը երբեք երկու անգամ չի ուղարկում։ Արդյունքը կերևա այս էջում, երբ հայտնի դառնա։',
  checkingRelease:
    'Ապաարգելափակում. արդյունքը դեռ հայտնի չէ, ստուգվում է։ Վճարային համակարգը չպատասխանեց. դարպասը ստուգում է նրա մոտ և ապաարգելափակումը երբեք երկու անգամ չի ուղարկում։ Արդյունքը կերևա այս էջում, երբ հայտնի դառնա։',
  sendingCapture:
    'Գանձումը՝ {amount, number, amd}, ուղարկվում է վճարային համակարգին։ Մի քանի վայրկյանից կրկին բացեք էջը։',
  sendingRelease: 'Ապաարգելափակումն ուղարկվում է վճարային համակարգին։ Մի քանի վայրկյանից կրկին բացեք էջը։',
  captureTitle: 'Գանձել',
  captureAmountLabel: 'Գանձվող գումարը (֏)',
  captureAmountHint:
    'Առավելագույնը՝ {authorized, number, amd}։ Ավելի փոքր գումար գանձելիս արգելափակման մնացորդն ապաարգելափակվում է։',
  captureWhole: 'Այս վճարումը գանձվում է միայն ամբողջությամբ՝ {authorized, number, amd}։',
  captureContinue: 'Անցնել գանձման հաստատմանը',
  releaseTitle: 'Ապաարգելափակել',
  releaseHint: 'Ոչինչ չի գանձվում, և վճարումն այլևս հնարավոր չի լինի գանձել։',
  releaseContinue: 'Անցնել ապաարգելափակման հաստատմանը',
  captureConfirmTitle: 'Հաստատեք գանձումը',
  captureConfirmText: 'Գանձե՞լ {amount, number, amd} գնորդի քարտից {orderId} պատվերի համար։',
  captureConfirmRest: 'Արգելափակման մնացորդը՝ {rest, number, amd}, կապաարգելափակվի. այն հետո հնարավոր չի լինի գանձել։',
  captureConfirmButton: 'Գանձել',
  releaseConfirmTitle: 'Հաստատեք ապաարգելափակումը',
  releaseConfirmText:
    'Ապաարգելափակե՞լ {orderId} պատվերի համար արգելափակված գումարը՝ {amount, number, amd}։ Ոչինչ չի գանձվի, և վճարումն այլևս հնարավոր չի լինի գանձել։',
  releaseConfirmButton: 'Ապաարգելափակել',
  cancel: 'Չեղարկել',
  captured: 'Գանձումը կատարվեց։',
  released: 'Գումարն ապաարգելափակվեց. ոչինչ չի գանձվել։',
  checking: 'Վճարային համակարգը դեռ չի պատասխանել։ Արդյունքը ստուգվում է նրա մոտ, և ոչինչ երկու անգամ չի ուղարկվում։',
  captureNotMade: 'Գանձումը չի կատարվել',
  releaseNotMade: 'Գումարը չի ապաարգելափակվել',
  amountInvalid: 'Մուտքագրեք գումարն ամբողջ դրամներով՝ առնվազն 1 ֏։',
  amountTooLarge: 'Գումարը գերազանցում է քարտին արգելափակված գումարը՝ {authorized, number, amd}։',
  refusals: {
    authorization_expired:
      'Արգելափակման ժամկետը լրացել է. այն այլևս հնարավոր չէ գանձել, և դարպասն այն ապաարգելափակում է։',
    already_captured:
      'Այս վճարումն արդեն գանձված է. արգելափակված գումարը գանձվում է մեկ անգամ։ Փոխարենը վերադարձրեք այն։',
    already_released: 'Գումարն արդեն ապաարգելափակված է. գանձելու կամ ապաարգելափակելու բան չկա։',
    not_authorized:
      'Այս վճարման համար գումար արգելափակված չէ. գանձել կամ ապաարգելափակել կարելի է միայն արգելափակված վճարումը։',
    capture_declined: 'Վճարային համակարգը մերժեց գանձումը. ոչինչ չի գանձվել, և գումարը մնում է արգելափակված։',
    void_declined:
      'Վճարային համակարգը մերժեց ապաարգելափակումը. վճարումը մնում է արգելափակված մինչև ժամկետի լրանալը, և առանց ձեզ ոչինչ չի գանձվի։',
    processor_unavailable:
      'Վճարային համակարգը հասանելի չէր. ոչինչ չի ուղարկվել, և արգելափակումը չի փոխվել։ Փորձեք ավելի ուշ։',
    in_progress: 'Այս վճարման գանձումը կամ ապաարգելափակումն արդեն ուղարկվում է։ Մի քանի վայրկյանից կրկին բացեք էջը։',
    other: 'Գանձումը կամ ապաարգելափակումը հնարավոր չեղավ կատարել։',
  },
};

const ru: Catalog<HoldMessages> = {
  holdTitle: 'Блокировка на карте',
  heldAmount: 'Заблокированная сумма',
  captureBefore: 'Списать до',
  openText:
    'Сумма заблокирована на карте покупателя до указанного срока. Спишите её целиком или частично либо отмените блокировку; если не списать до срока, шлюз сам отменит блокировку и ничего не спишет.',
  ranOutText: 'Срок блокировки истёк: списать сумму уже нельзя, шлюз отменяет блокировку. Ничего не списывается.',
  capturedText: 'Списано: {amount, number, amd}. Было заблокировано: {authorized, number, amd}.',
  restReleased: 'Блокировка остатка отменена.',
  releasedText: 'Блокировка отменена: ничего не списано, банк покупателя освобождает заблокированную сумму.',
  expiredText: 'Срок блокировки истёк до списания, блокировка отменена: ничего не списано.',
  checkingCapture:
    'Списание на {amount, number, amd}: итог пока неизвестен, идёт проверка. Платёжная система не ответила; шлюз выясняет итог у неё и никогда не отправляет списание повторно. Итог появится на этой странице.',
  checkingRelease:
    'Отмена блокировки: итог пока неизвестен, идёт проверка. Платёжная система не ответила; шлюз выясняет итог у неё и никогда не отправляет отмену повторно. Итог появится на этой странице.',
  sendingCapture:
    'Списание на {amount, number, amd} отправляется в платёжную систему. Обновите страницу через несколько секунд.',
  sendingRelease: 'Отмена блокировки отправляется в платёжную систему. Обновите страницу через несколько секунд.',
  captureTitle: 'Списать',
  captureAmountLabel: 'Сумма списания, драм',
  captureAmountHint: 'Максимум: {authorized, number, amd}. Если списать меньше, блокировка остатка отменяется.',
  captureWhole: 'Этот платёж списывается только целиком: {authorized, number, amd}.',
  captureContinue: 'Перейти к подтверждению списания',
  releaseTitle: 'Отменить блокировку',
  releaseHint: 'Ничего не списывается, и списать платёж будет уже нельзя.',
  releaseContinue: 'Перейти к подтверждению отмены',
  captureConfirmTitle: 'Подтвердите списание',
  captureConfirmText: 'Списать {amount, number, amd} с карты покупателя по заказу {orderId}?',
  captureConfirmRest: 'Блокировка остатка ({rest, number, amd}) будет отменена: списать его позже будет нельзя.',
  captureConfirmButton: 'Списать',
  releaseConfirmTitle: 'Подтвердите отмену блокировки',
  releaseConfirmText:
    'Отменить блокировку по заказу {orderId} ({amount, number, amd})? Ничего не будет списано, и списать платёж будет уже нельзя.',
  releaseConfirmButton: 'Отменить блокировку',
  cancel: 'Отмена',
  captured: 'Списание выполнено.',
  released: 'Блокировка отменена: ничего не списано.',
  checking: 'Платёжная система пока не ответила. Итог выясняется у неё, ничего не отправляется повторно.',
  captureNotMade: 'Списание не выполнено',
  releaseNotMade: 'Блокировка не отменена',
  amountInvalid: 'Введите сумму в целых драмах, не меньше 1 драма.',
  amountTooLarge: 'Сумма больше заблокированной на карте: {authorized, number, amd}.',
  refusals: {
    authorization_expired: 'Срок блокировки истёк: списать сумму уже нельзя, шлюз отменяет блокировку.',
    already_captured:
      'Этот платёж уже списан: заблокированная сумма списывается один раз. Вместо этого оформите возврат.',
    already_released: 'Блокировка уже отменена: списывать или разблокировать больше нечего.',
    not_authorized:
      'По этому платежу ничего не заблокировано: списать или разблокировать можно только авторизованный платёж.',
    capture_declined: 'Платёжная система отклонила списание: ничего не списано, блокировка сохраняется.',
    void_declined:
      'Платёжная система отказалась отменить блокировку: платёж остаётся авторизованным до истечения срока блокировки, и без вас ничего не спишется.',
    processor_unavailable:
      'Платёжная система недоступна: ничего не отправлено, блокировка не изменилась. Повторите позже.',
    in_progress:
      'Списание или отмена блокировки по этому платежу уже отправляется. Обновите страницу через несколько секунд.',
    other: 'Списание или отмену блокировки выполнить не удалось.',
  },
};

export const HOLD_MESSAGES = defineMessages<HoldMessages>(
  'dashboard.payment-detail.holds',
  { en, hy, ru },
  {
    capturedText: ['amount', 'authorized'],
    checkingCapture: ['amount'],
    sendingCapture: ['amount'],
    captureAmountHint: ['authorized'],
    captureWhole: ['authorized'],
    captureConfirmText: ['amount', 'orderId'],
    captureConfirmRest: ['rest'],
    releaseConfirmText: ['amount', 'orderId'],
    amountTooLarge: ['authorized'],
  },
);
