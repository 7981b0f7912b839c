/**
 * Emails to merchants (spec "Delivery rules" 5, "Limits"): when a webhook delivery for a completed
 * or refunded payment fails for good, the merchant is emailed, at most once per domain every
 * 6 hours. The email is written to the `merchant_emails` outbox in the transaction that gave the
 * delivery up, and sent later by due work (`gateway/jobs/send-merchant-emails.ts`), so a crash never
 * loses it and a rolled-back transaction never sends it.
 *
 * Sending claims one email at a time in a short transaction, leasing it for `EMAIL_LEASE_MS`
 * (`next_attempt_at` moves to the end of the lease and the attempt is counted), sends it outside
 * the transaction, then records the outcome only if the claim still holds. So two instances never
 * send one email at the same time, and an email whose sender crashed is tried again when its lease
 * ends. A failed send is retried after `EMAIL_RETRY_MS`, `EMAIL_MAX_ATTEMPTS` attempts in all.
 */
import type { Executor } from '../../storage/database.js';
import { claimFailureEmailSlot } from '../../storage/domain.repository.js';
import { findMerchant } from '../../storage/merchant.repository.js';
import {
  claimDueMerchantEmails,
  insertMerchantEmail,
  markMerchantEmailFailed,
  markMerchantEmailLogged,
  markMerchantEmailSent,
  scheduleMerchantEmailRetry,
} from '../../storage/merchant-email.repository.js';
import type { MerchantEmailRow } from '../../storage/merchant-email.table.js';
import type { Language } from '../checkout/i18n/index.js';
import { HOUR_MS, MINUTE_MS, toStoredInstant } from '../domain/clock.js';
import { maskedUrl } from '../domain/masked-url.js';
import { type Catalog, defineMessages } from '../i18n/messages.js';
import type { Deps } from '../runtime/deps.js';
import type { Mailer } from './mailer.js';

/** Spec "Limits": failed-delivery email at most once per domain per 6 hours. */
export const FAILURE_EMAIL_INTERVAL_MS = 6 * HOUR_MS;
/** How long a claimed email is reserved for its sender (longer than one send can take). */
export const EMAIL_LEASE_MS = 2 * MINUTE_MS;
/** Wait after a failed send before the next attempt. */
export const EMAIL_RETRY_MS = 5 * MINUTE_MS;
/** Attempts before an email is given up (`failed`). */
export const EMAIL_MAX_ATTEMPTS = 5;

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

/**
 * Writes an email to the merchant into the outbox, in the caller's transaction; due work sends it
 * (or logs it) once the transaction committed. `recipient` null: the merchant has no address.
 */
export async function queueMerchantEmail(
  deps: Deps,
  trx: Executor,
  email: {
    merchantId: string;
    domainId: string | null;
    kind: string;
    recipient: string | null;
    subject: string;
    text: string;
  },
): Promise<void> {
  const nowMs = deps.clock.nowMs();
  const now = toStoredInstant(nowMs);
  await insertMerchantEmail(trx, {
    id: deps.ids.uuid(nowMs),
    merchant_id: email.merchantId,
    domain_id: email.domainId,
    kind: email.kind,
    recipient: email.recipient,
    subject: email.subject,
    body: email.text,
    status: 'pending',
    attempts: 0,
    next_attempt_at: now,
    last_error: null,
    created_at: now,
    sent_at: null,
  });
}

/** Merchant-supplied text on one line (no header or line injection), at most `max` characters. */
function oneLine(value: string, max: number): string {
  const flat = value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
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

/**
 * Sends up to `limit` due emails (see the file comment). Answers how many it handled (sent, logged,
 * failed or set to retry). It stops at the first failed send (the SMTP server is likely down), so
 * a batch never waits on more than one failing send; the rest are tried on the next run.
 */
export async function sendMerchantEmails(deps: Deps, mailer: Mailer, limit: number): Promise<number> {
  return (await sendMerchantEmailBatch(deps, mailer, limit)).handled;
}

/** `sendMerchantEmails`, also telling whether the batch stopped at a failed send. */
export async function sendMerchantEmailBatch(
  deps: Deps,
  mailer: Mailer,
  limit: number,
): Promise<{ handled: number; stoppedOnFailure: boolean }> {
  let handled = 0;
  while (handled < limit) {
    const [email] = await claimNext(deps);
    if (email === undefined) break;
    handled += 1;
    if (!(await sendOne(deps, mailer, email))) return { handled, stoppedOnFailure: true };
  }
  return { handled, stoppedOnFailure: false };
}

/**
 * Sends the given queued emails now rather than at the next run of due work: a process without the
 * scheduler (the CLI) that just queued them. They are claimed like any other, so a running gateway
 * never sends one twice; one that fails stays in the outbox and is retried by due work. Answers how
 * many were handled.
 */
export async function sendMerchantEmailsNow(deps: Deps, mailer: Mailer, ids: readonly string[]): Promise<number> {
  let handled = 0;
  for (const id of ids) {
    const [email] = await claimNext(deps, [id]);
    if (email === undefined) continue;
    handled += 1;
    if (!(await sendOne(deps, mailer, email))) break;
  }
  return handled;
}

function claimNext(deps: Deps, ids?: readonly string[]): Promise<MerchantEmailRow[]> {
  const nowMs = deps.clock.nowMs();
  return deps.transact((trx) =>
    claimDueMerchantEmails(trx, {
      now: toStoredInstant(nowMs),
      leaseUntil: toStoredInstant(nowMs + EMAIL_LEASE_MS),
      limit: 1,
      lock: deps.dialect === 'postgres',
      ...(ids === undefined ? {} : { ids }),
    }),
  );
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return oneLine(String(error), 500);
  const code = (error as { code?: unknown }).code;
  const message =
    typeof code === 'string' && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
  return oneLine(message, 500);
}

/** Sends (or logs) one claimed email and records the outcome; answers false when sending failed. */
async function sendOne(deps: Deps, mailer: Mailer, email: MerchantEmailRow): Promise<boolean> {
  const claimed = email.attempts;
  const about = { email_id: email.id, merchant_id: email.merchant_id, kind: email.kind, attempts: claimed };
  const record = async (finish: (trx: Executor) => Promise<boolean>, outcome: string): Promise<void> => {
    const recorded = await deps.transact(finish);
    if (!recorded) deps.logger.warn({ ...about, outcome }, 'merchant email outcome not recorded: its claim lapsed');
  };

  if (claimed > EMAIL_MAX_ATTEMPTS) {
    // Earlier claims ended without an outcome (the sender stopped while sending): give up.
    await record(
      (trx) => markMerchantEmailFailed(trx, email.id, claimed, 'sending was interrupted too often'),
      'failed',
    );
    deps.logger.error(about, 'merchant email given up: sending was interrupted too often');
    return true;
  }
  if (email.recipient === null) {
    deps.logger.warn(
      { ...about, subject: email.subject },
      'merchant has no email address: email kept in merchant_emails as logged, not sent',
    );
    await record(
      (trx) => markMerchantEmailLogged(trx, email.id, claimed, 'the merchant has no email address'),
      'logged',
    );
    return true;
  }

  try {
    await mailer.send({ to: email.recipient, subject: email.subject, text: email.body });
  } catch (error) {
    const reason = describeError(error);
    const nowMs = deps.clock.nowMs();
    if (claimed >= EMAIL_MAX_ATTEMPTS) {
      await record((trx) => markMerchantEmailFailed(trx, email.id, claimed, reason), 'failed');
      deps.logger.error({ ...about, error: reason }, 'merchant email failed for good');
    } else {
      const retryAt = toStoredInstant(nowMs + EMAIL_RETRY_MS);
      await record((trx) => scheduleMerchantEmailRetry(trx, email.id, claimed, retryAt, reason), 'retry');
      deps.logger.warn({ ...about, error: reason, next_attempt_at: retryAt }, 'merchant email not sent; will retry');
    }
    return false;
  }

  if (mailer.kind === 'log') {
    await record((trx) => markMerchantEmailLogged(trx, email.id, claimed, null), 'logged');
  } else {
    const now = toStoredInstant(deps.clock.nowMs());
    await record((trx) => markMerchantEmailSent(trx, email.id, claimed, now), 'sent');
    deps.logger.info(about, 'merchant email sent');
  }
  return true;
}
