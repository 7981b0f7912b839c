/**
 * The failed-delivery email (spec "Delivery rules" 5, "Limits"): when a webhook delivery for a
 * completed or refunded payment fails for good, the merchant is emailed, at most once per domain
 * every 6 hours, in the account's language. It is queued in the outbox (merchant-emails.ts) in the
 * transaction that gave the delivery up.
 */
import type { Executor } from '../../storage/database.js';
import { claimFailureEmailSlot } from '../../storage/domain.repository.js';
import { findMerchant } from '../../storage/merchant.repository.js';
import type { Language } from '../checkout/i18n/index.js';
import { HOUR_MS, toStoredInstant } from '../domain/clock.js';
import { maskedUrl } from '../domain/masked-url.js';
import { type Catalog, defineMessages } from '../i18n/messages.js';
import type { Deps } from '../runtime/deps.js';
import { oneLine, queueMerchantEmail } from './merchant-emails.js';

/** Spec "Limits": failed-delivery email at most once per domain per 6 hours. */
export const FAILURE_EMAIL_INTERVAL_MS = 6 * HOUR_MS;

export const DELIVERY_FAILED_KIND = 'webhook_delivery_failed';

export interface DeliveryFailure {
  merchantId: string;
  domainId: string;
  deliveryId: string;
  url: string;
  event: string;
  paymentUuid: string;
  orderId: string;
  /** Attempts made, all failed. */
  attempts: number;
  /** The last HTTP status answered, null when there was no answer. */
  lastStatusCode: number | null;
  /** Why the last attempt failed when there was no usable answer (timeout, refused, redirect...). */
  lastError: string | null;
}

/**
 * Queues the failed-delivery email for `input` in the caller's transaction, unless the domain's
 * merchant was already emailed about failing deliveries in the last 6 hours. Call it from the
 * transaction that marks a delivery of a completed or refunded payment failed for good; call
 * `deps.dueSignal.notify()` once that transaction committed. Answers whether an email was queued.
 */
export async function queueDeliveryFailureEmail(deps: Deps, trx: Executor, input: DeliveryFailure): Promise<boolean> {
  const nowMs = deps.clock.nowMs();
  const now = toStoredInstant(nowMs);
  const slot = await claimFailureEmailSlot(
    trx,
    input.domainId,
    now,
    toStoredInstant(nowMs - FAILURE_EMAIL_INTERVAL_MS),
  );
  if (!slot) return false;
  const merchant = await findMerchant(trx, input.merchantId);
  const domain = await trx.selectFrom('domains').select('host').where('id', '=', input.domainId).executeTakeFirst();
  const content = deliveryFailureEmail(input, {
    domainHost: domain?.host ?? null,
    publicUrl: deps.config.publicUrl,
    language: merchant?.language ?? 'en',
  });
  await queueMerchantEmail(deps, trx, {
    merchantId: input.merchantId,
    domainId: input.domainId,
    kind: DELIVERY_FAILED_KIND,
    recipient: merchant?.email ?? null,
    ...content,
  });
  return true;
}

/** The webhook URL as the merchant set it, with credentials and query values hidden (see maskedUrl). */
function displayUrl(raw: string): { url: string; host: string | null } {
  const masked = maskedUrl(raw);
  if (masked === null) return { url: '(not a URL)', host: null };
  return { url: oneLine(masked, 500), host: new URL(masked).host };
}

/** The words of the failed-delivery email in each language of the service. */
interface DeliveryFailureWords {
  /** `host`: the webhook's host, or `none`. */
  readonly subject: (host: string) => string;
  readonly hello: string;
  /** `host`: the shop's domain, or `none`: the paragraph names it in its own case. */
  readonly intro: (host: string) => readonly string[];
  readonly whatFailed: string;
  /** The labels of the list, each padded to one width. */
  readonly labels: {
    readonly url: string;
    readonly event: string;
    readonly order: string;
    readonly payment: string;
    readonly delivery: string;
    readonly attempts: string;
    readonly last: string;
  };
  readonly noAnswer: string;
  readonly noUsableAnswer: (error: string) => string;
  readonly signature: string;
  readonly readBack: readonly string[];
  readonly checkTitle: string;
  readonly checks: readonly string[];
  readonly schedule: readonly string[];
}

const en: Catalog<DeliveryFailureWords> = {
  subject:
    '{host, select, none {Action needed: webhook delivery to your shop failed} other {Action needed: webhook delivery to {host} failed}}',
  hello: 'Hello,',
  intro: [
    '{host, select, none {We could not deliver a webhook (a payment notification) to your shop} other {We could not deliver a webhook (a payment notification) to your shop ({host})}}',
    'and have stopped retrying it. Your shop may not know the latest state',
    'of this payment yet, for example that it was paid or refunded.',
  ],
  whatFailed: 'What failed',
  labels: {
    url: 'Webhook URL:  ',
    event: 'Event:        ',
    order: 'Order ID:     ',
    payment: 'Payment UUID: ',
    delivery: 'Delivery ID:  ',
    attempts: 'Attempts:     ',
    last: 'Last result:  ',
  },
  noAnswer: 'no answer',
  noUsableAnswer: 'no usable answer: {error}',
  signature: 'Payment Gateway',
  readBack: [
    'The payment itself is not affected. Read its current state with your',
    'API key, and update the order in your shop if needed:',
  ],
  checkTitle: 'What to check on your webhook endpoint',
  checks: [
    '  - It answers with a 2xx status within 10 seconds. Do slow work after',
    '    answering.',
    '  - It answers itself: redirects (3xx) are not followed, so the URL must',
    '    be the final address (watch for http -> https or trailing-slash',
    '    redirects).',
    '  - It is reachable from the internet at a public address. Private and',
    '    local addresses (localhost, 10.x, 192.168.x ...) are refused.',
    '  - No firewall, maintenance page or bot protection blocks our requests.',
  ],
  schedule: [
    'Each delivery is retried three times, after 1, 5 and 30 minutes. We send',
    'this email at most once every 6 hours per domain, so other deliveries',
    'may have failed too: compare your recent orders with the gateway.',
  ],
};

const hy: Catalog<DeliveryFailureWords> = {
  subject:
    '{host, select, none {Անհրաժեշտ է Ձեր միջամտությունը. վեբհուքը չի առաքվել Ձեր խանութին} other {Անհրաժեշտ է Ձեր միջամտությունը. վեբհուքը չի առաքվել {host} հասցեին}}',
  hello: 'Բարև Ձեզ,',
  intro: [
    '{host, select, none {Մեզ չհաջողվեց վեբհուքը (վճարման ծանուցումը) առաքել Ձեր խանութին,} other {Մեզ չհաջողվեց վեբհուքը (վճարման ծանուցումը) առաքել Ձեր խանութին ({host}),}}',
    'և մենք դադարեցրինք կրկնակի փորձերը։ Ձեր խանութը կարող է դեռ չիմանալ',
    'այս վճարման վերջին վիճակը, օրինակ՝ որ այն վճարվել կամ վերադարձվել է։',
  ],
  whatFailed: 'Ինչը չստացվեց',
  labels: {
    url: 'Վեբհուքի URL՝    ',
    event: 'Իրադարձություն՝  ',
    order: 'Պատվերի ID՝      ',
    payment: 'Վճարման UUID՝    ',
    delivery: 'Առաքման ID՝      ',
    attempts: 'Փորձեր՝          ',
    last: 'Վերջին արդյունք՝ ',
  },
  noAnswer: 'պատասխան չկա',
  noUsableAnswer: 'օգտագործելի պատասխան չկա՝ {error}',
  signature: 'Վճարային դարպաս',
  readBack: [
    'Վճարումն ինքնին չի տուժել։ Կարդացեք դրա ընթացիկ վիճակը ձեր API',
    'բանալիով և անհրաժեշտության դեպքում թարմացրեք պատվերը ձեր խանութում՝',
  ],
  checkTitle: 'Ինչ ստուգել Ձեր վեբհուքի հասցեում',
  checks: [
    '  - Այն պատասխանում է 2xx կարգավիճակով 10 վայրկյանի ընթացքում։ Երկար',
    '    աշխատանքը կատարեք պատասխանելուց հետո։',
    '  - Այն պատասխանում է ինքը. վերահղումներին (3xx) չենք հետևում, ուստի',
    '    URL-ը պետք է լինի վերջնական հասցեն (ուշադրություն դարձրեք http -> https',
    '    կամ վերջի «/»-ի վերահղումներին)։',
    '  - Այն հասանելի է ինտերնետից՝ հանրային հասցեով։ Մասնավոր և տեղային',
    '    հասցեները (localhost, 10.x, 192.168.x ...) մերժվում են։',
    '  - Մեր հարցումները չեն արգելափակվում միջցանցային էկրանով, տեխնիկական',
    '    աշխատանքների էջով կամ բոտերից պաշտպանությամբ։',
  ],
  schedule: [
    'Յուրաքանչյուր առաքում կրկնվում է երեք անգամ՝ 1, 5 և 30 րոպե անց։ Այս',
    'նամակն ուղարկում ենք յուրաքանչյուր դոմենի համար առավելագույնը 6 ժամը մեկ',
    'անգամ, ուստի այլ առաքումներ նույնպես կարող էին չհաջողվել. համեմատեք ձեր',
    'վերջին պատվերները վճարային դարպասի տվյալների հետ։',
  ],
};

const ru: Catalog<DeliveryFailureWords> = {
  subject:
    '{host, select, none {Требуется действие: вебхук не доставлен в ваш магазин} other {Требуется действие: вебхук не доставлен на {host}}}',
  hello: 'Здравствуйте!',
  intro: [
    '{host, select, none {Нам не удалось доставить вебхук (уведомление о платеже) в ваш магазин,} other {Нам не удалось доставить вебхук (уведомление о платеже) в ваш магазин ({host}),}}',
    'и мы прекратили повторные попытки. Возможно, магазин ещё не знает',
    'последнего состояния этого платежа, например что он оплачен или возвращён.',
  ],
  whatFailed: 'Что не удалось',
  labels: {
    url: 'URL вебхука:        ',
    event: 'Событие:            ',
    order: 'ID заказа:          ',
    payment: 'UUID платежа:       ',
    delivery: 'ID доставки:        ',
    attempts: 'Попыток:            ',
    last: 'Последний результат:',
  },
  noAnswer: 'нет ответа',
  noUsableAnswer: 'нет пригодного ответа: {error}',
  signature: 'Платёжный шлюз',
  readBack: [
    'Сам платёж не затронут. Запросите его текущее состояние своим',
    'API-ключом и при необходимости обновите заказ в магазине:',
  ],
  checkTitle: 'Что проверить на адресе вебхука',
  checks: [
    '  - Он отвечает статусом 2xx в течение 10 секунд. Долгую работу',
    '    выполняйте после ответа.',
    '  - Он отвечает сам: переадресации (3xx) не выполняются, поэтому URL',
    '    должен быть окончательным адресом (проверьте переадресации',
    '    http -> https и на адрес с косой чертой в конце).',
    '  - Он доступен из интернета по публичному адресу. Частные и локальные',
    '    адреса (localhost, 10.x, 192.168.x ...) не принимаются.',
    '  - Наши запросы не блокируют межсетевой экран, страница техработ',
    '    или защита от ботов.',
  ],
  schedule: [
    'Каждая доставка повторяется три раза: через 1, 5 и 30 минут. Это письмо',
    'приходит не чаще раза в 6 часов на домен, поэтому могли не дойти и',
    'другие доставки: сверьте последние заказы с данными шлюза.',
  ],
};

const DELIVERY_FAILURE_WORDS = defineMessages<DeliveryFailureWords>(
  'mail.delivery-failure',
  { en, hy, ru },
  { subject: ['host'], intro: ['host'], noUsableAnswer: ['error'] },
);

function lastResult(input: DeliveryFailure, w: DeliveryFailureWords): string {
  const error = input.lastError === null ? null : oneLine(input.lastError, 300);
  if (input.lastStatusCode !== null) {
    return error === null ? `HTTP ${input.lastStatusCode}` : `HTTP ${input.lastStatusCode} (${error})`;
  }
  return error === null ? w.noAnswer : w.noUsableAnswer(error);
}

/** Subject and plain-text body of the failed-delivery email, in the account's language. Holds no key and no webhook secret. */
export function deliveryFailureEmail(
  input: DeliveryFailure,
  context: { domainHost: string | null; publicUrl: string; language?: Language },
): { subject: string; text: string } {
  const w = DELIVERY_FAILURE_WORDS[context.language ?? 'en'];
  const target = displayUrl(input.url);
  const orderId = oneLine(input.orderId, 200);
  const orderPath = `/api/v1/orders/${encodeURIComponent(input.orderId)}/payment`;
  const subject = w.subject(oneLine(target.host ?? context.domainHost ?? 'none', 200));
  const text = [
    w.hello,
    '',
    ...w.intro(context.domainHost ?? 'none'),
    '',
    w.whatFailed,
    `  ${w.labels.url} ${target.url}`,
    `  ${w.labels.event} ${oneLine(input.event, 100)}`,
    `  ${w.labels.order} ${orderId}`,
    `  ${w.labels.payment} ${input.paymentUuid}`,
    `  ${w.labels.delivery} ${input.deliveryId}`,
    `  ${w.labels.attempts} ${input.attempts}`,
    `  ${w.labels.last} ${lastResult(input, w)}`,
    '',
    ...w.readBack,
    `  GET ${context.publicUrl}${orderPath}`,
    '',
    w.checkTitle,
    ...w.checks,
    '',
    ...w.schedule,
    '',
    '--',
    w.signature,
    '',
  ].join('\n');
  return { subject, text };
}
