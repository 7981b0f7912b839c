/**
 * The texts of a payment's webhook events on its page (each event, its deliveries and their
 * attempts, and Resend), in the dashboard's three languages. Not escaped here.
 */
import { type Catalog, defineMessages } from '../../i18n/messages.js';

export interface EventMessages {
  readonly eventsTitle: string;
  readonly eventsIntro: string;
  readonly noEvents: string;
  readonly noDeliveries: string;
  readonly deliveryTarget: string;
  readonly deliveryStatus: string;
  readonly deliveryAttempts: string;
  readonly deliveryLastAttempt: string;
  readonly deliveryAnswer: string;
  readonly deliveryError: string;
  readonly deliveryNext: string;
  readonly deliveryStates: { readonly pending: string; readonly delivered: string; readonly failed: string };
  readonly notYet: string;
  /** Heading of a delivery's attempts; `n` is the delivery's place in the event's list. */
  readonly attemptsTitle: (n: number) => string;
  readonly attemptNumber: string;
  readonly attemptTime: string;
  readonly attemptTarget: string;
  readonly attemptAnswer: string;
  readonly attemptDuration: string;
  readonly attemptError: string;
  readonly attemptOutcome: string;
  readonly attemptOutcomes: { readonly delivered: string; readonly retry: string; readonly failed: string };
  readonly noAnswer: string;
  readonly durationMs: (ms: number) => string;
  readonly noAttempts: string;
  readonly resend: (event: string) => string;
  readonly resent: string;
  readonly noWebhookTarget: string;
}

const en: Catalog<EventMessages> = {
  eventsTitle: 'Webhook events',
  eventsIntro:
    'Each event the payment sent to your webhook, and how each delivery went. Resend queues a new signed delivery of the event to the current webhook address.',
  noEvents: 'No events yet: a payment sends one when it completes, fails, expires or is refunded.',
  noDeliveries: 'Not delivered: the payment had no callback URL and its domain no webhook URL.',
  deliveryTarget: 'Target',
  deliveryStatus: 'Status',
  deliveryAttempts: 'Attempts',
  deliveryLastAttempt: 'Last attempt',
  deliveryAnswer: 'Answer',
  deliveryError: 'Error',
  deliveryNext: 'Next attempt',
  deliveryStates: { pending: 'Pending', delivered: 'Delivered', failed: 'Failed' },
  notYet: 'Not yet',
  attemptsTitle: 'Delivery {n}: attempts',
  attemptNumber: '#',
  attemptTime: 'Time',
  attemptTarget: 'Target',
  attemptAnswer: 'Answer',
  attemptDuration: 'Duration',
  attemptError: 'Error',
  attemptOutcome: 'Outcome',
  attemptOutcomes: { delivered: 'Delivered', retry: 'Will retry', failed: 'Given up' },
  noAnswer: 'No answer',
  durationMs: '{ms, number} ms',
  noAttempts: 'No attempt yet.',
  resend: 'Resend {event}',
  resent: 'The event is queued for a new delivery.',
  noWebhookTarget:
    'Nothing to send to: the payment has no callback URL and its domain no webhook URL. Set the webhook URL, then resend.',
};

const hy: Catalog<EventMessages> = {
  eventsTitle: 'Վեբհուքի իրադարձություններ',
  eventsIntro:
    'Յուրաքանչյուր իրադարձություն, որ վճարումն ուղարկել է ձեր վեբհուքին, և ինչպես է անցել յուրաքանչյուր առաքումը։ «Կրկին ուղարկել»-ը իրադարձության նոր ստորագրված առաքում է հերթագրում ընթացիկ վեբհուքի հասցեին։',
  noEvents:
    'Իրադարձություններ դեռ չկան. վճարումն իրադարձություն է ուղարկում, երբ ավարտվում է, ձախողվում, ժամկետանց է դառնում կամ վերադարձվում։',
  noDeliveries: 'Չի առաքվել. վճարումը callback հասցե չուներ, իսկ դոմենը՝ վեբհուքի հասցե։',
  deliveryTarget: 'Հասցե',
  deliveryStatus: 'Կարգավիճակ',
  deliveryAttempts: 'Փորձեր',
  deliveryLastAttempt: 'Վերջին փորձը',
  deliveryAnswer: 'Պատասխան',
  deliveryError: 'Սխալ',
  deliveryNext: 'Հաջորդ փորձը',
  deliveryStates: { pending: 'Սպասման մեջ', delivered: 'Առաքված', failed: 'Չառաքված' },
  notYet: 'Դեռ ոչ',
  attemptsTitle: 'Առաքում {n}՝ փորձեր',
  attemptNumber: '№',
  attemptTime: 'Ժամանակ',
  attemptTarget: 'Հասցե',
  attemptAnswer: 'Պատասխան',
  attemptDuration: 'Տևողություն',
  attemptError: 'Սխալ',
  attemptOutcome: 'Արդյունք',
  attemptOutcomes: { delivered: 'Առաքված', retry: 'Կկրկնվի', failed: 'Դադարեցված' },
  noAnswer: 'Պատասխան չկա',
  durationMs: '{ms, number} մվ',
  noAttempts: 'Դեռ փորձ չի եղել։',
  resend: 'Կրկին ուղարկել {event}',
  resent: 'Իրադարձությունը հերթագրված է նոր առաքման համար։',
  noWebhookTarget:
    'Ուղարկելու տեղ չկա. վճարումը callback հասցե չունի, իսկ դոմենը՝ վեբհուքի հասցե։ Սահմանեք վեբհուքի հասցեն, ապա կրկին ուղարկեք։',
};

const ru: Catalog<EventMessages> = {
  eventsTitle: 'События вебхуков',
  eventsIntro:
    'Каждое событие, которое платёж отправил на ваш вебхук, и как прошла каждая доставка. «Отправить снова» ставит в очередь новую подписанную доставку события на текущий адрес вебхука.',
  noEvents: 'Событий пока нет: платёж отправляет событие, когда завершается, не проходит, истекает или возвращается.',
  noDeliveries: 'Не доставлено: у платежа не было callback-адреса, а у домена — адреса вебхука.',
  deliveryTarget: 'Адрес',
  deliveryStatus: 'Статус',
  deliveryAttempts: 'Попытки',
  deliveryLastAttempt: 'Последняя попытка',
  deliveryAnswer: 'Ответ',
  deliveryError: 'Ошибка',
  deliveryNext: 'Следующая попытка',
  deliveryStates: { pending: 'Ожидает', delivered: 'Доставлено', failed: 'Не доставлено' },
  notYet: 'Ещё нет',
  attemptsTitle: 'Доставка {n}: попытки',
  attemptNumber: '№',
  attemptTime: 'Время',
  attemptTarget: 'Адрес',
  attemptAnswer: 'Ответ',
  attemptDuration: 'Длительность',
  attemptError: 'Ошибка',
  attemptOutcome: 'Итог',
  attemptOutcomes: { delivered: 'Доставлено', retry: 'Будет повтор', failed: 'Попытки прекращены' },
  noAnswer: 'Нет ответа',
  durationMs: '{ms, number} мс',
  noAttempts: 'Попыток ещё не было.',
  resend: 'Отправить снова {event}',
  resent: 'Событие поставлено в очередь на новую доставку.',
  noWebhookTarget:
    'Некуда отправлять: у платежа нет callback-адреса, а у домена — адреса вебхука. Укажите адрес вебхука и отправьте снова.',
};

export const EVENT_MESSAGES = defineMessages<EventMessages>(
  'dashboard.payment-detail.events',
  { en, hy, ru },
  {
    attemptsTitle: ['n'],
    durationMs: ['ms'],
    resend: ['event'],
  },
);
