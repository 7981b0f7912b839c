/**
 * The texts of the audit log page, with every action of `AUDIT_ACTIONS` worded in English,
 * Armenian and Russian. Not escaped here: the page escapes what it prints.
 */
import { type Catalog, defineMessages } from '../../i18n/messages.js';
import type { AuditAction } from './audit.service.js';

export interface AuditMessages {
  readonly title: string;
  readonly intro: string;
  readonly empty: string;
  readonly when: string;
  readonly who: string;
  readonly action: string;
  readonly subject: string;
  readonly address: string;
  readonly operator: string;
  readonly next: string;
  readonly first: string;
  readonly tableLabel: string;
  readonly badCursorTitle: string;
  readonly badCursorText: string;
  readonly actions: Readonly<Record<AuditAction, string>>;
}

const en: Catalog<AuditMessages> = {
  title: 'Audit log',
  intro: 'Sensitive actions on this account, newest first: who did what, when and from where. Times are UTC.',
  empty: 'Nothing recorded yet.',
  when: 'When',
  who: 'Who',
  action: 'Action',
  subject: 'Subject',
  address: 'Address',
  operator: 'Operator',
  next: 'Older entries',
  first: 'Newest entries',
  tableLabel: 'Audit log entries',
  badCursorTitle: 'This page of the log does not exist',
  badCursorText: 'The link to this page of the audit log is not valid. Start again from the newest entries.',
  actions: {
    'sign_in.new_address': 'Signed in from a new address',
    'api_key.created': 'API key created',
    'api_key.revoked': 'API key revoked',
    'domain.added': 'Domain added',
    'domain.verified': 'Domain verified',
    'webhook.url_changed': 'Webhook URL changed',
    'webhook.secret_revealed': 'Webhook secret revealed',
    'webhook.secret_rotated': 'Webhook secret rotated',
    'processor.configured': 'Processor configured',
    'processor.enabled': 'Processor enabled',
    'processor.disabled': 'Processor disabled',
    'connect_token.created': 'Connect token created',
    'connect_token.revoked': 'Connect token revoked',
    'member.invited': 'Member invited',
    'member.invitation_cancelled': 'Invitation cancelled',
    'member.removed': 'Member removed',
    'member.role_changed': 'Member’s role changed',
    'totp.enabled': 'Two-factor sign-in turned on',
    'totp.disabled': 'Two-factor sign-in turned off',
    'totp.recovery_codes_renewed': 'New recovery codes made',
    'business.submitted': 'Business details submitted',
    'business.verified': 'Business verified',
    'business.rejected': 'Business verification rejected',
    'refund.created': 'Refund made',
    'payment.settled': 'Payment settled with the processor’s reference',
    'payment.captured': 'Hold captured',
    'payment.released': 'Hold released',
    'billing.purchase_created': 'Units purchase created',
    'billing.auto_topup_changed': 'Auto top-up changed',
    'payment_link.created': 'Payment link created',
    'payment_link.deactivated': 'Payment link deactivated',
    'payments.exported': 'Payments exported (CSV)',
    'webhook.resent': 'Webhook event resent',
  },
};

const hy: Catalog<AuditMessages> = {
  title: 'Գործողությունների մատյան',
  intro: 'Այս հաշվի զգայուն գործողությունները՝ նորերը վերևում․ ով ինչ արեց, երբ և որտեղից։ Ժամերը UTC են։',
  empty: 'Դեռ ոչինչ գրանցված չէ։',
  when: 'Երբ',
  who: 'Ով',
  action: 'Գործողություն',
  subject: 'Օբյեկտ',
  address: 'Հասցե',
  operator: 'Օպերատոր',
  next: 'Ավելի հին գրառումներ',
  first: 'Նորագույն գրառումներ',
  tableLabel: 'Մատյանի գրառումներ',
  badCursorTitle: 'Մատյանի այս էջը գոյություն չունի',
  badCursorText: 'Մատյանի այս էջի հղումը վավեր չէ։ Սկսեք նորագույն գրառումներից։',
  actions: {
    'sign_in.new_address': 'Մուտք նոր հասցեից',
    'api_key.created': 'Ստեղծվել է API բանալի',
    'api_key.revoked': 'Չեղարկվել է API բանալի',
    'domain.added': 'Ավելացվել է դոմեն',
    'domain.verified': 'Դոմենը հաստատվել է',
    'webhook.url_changed': 'Վեբհուքի URL-ը փոխվել է',
    'webhook.secret_revealed': 'Վեբհուքի գաղտնիքը ցուցադրվել է',
    'webhook.secret_rotated': 'Վեբհուքի գաղտնիքը փոխարինվել է',
    'processor.configured': 'Վճարային համակարգը կարգավորվել է',
    'processor.enabled': 'Վճարային համակարգը միացվել է',
    'processor.disabled': 'Վճարային համակարգն անջատվել է',
    'connect_token.created': 'Ստեղծվել է միացման թոքեն',
    'connect_token.revoked': 'Չեղարկվել է միացման թոքեն',
    'member.invited': 'Անդամը հրավիրվել է',
    'member.invitation_cancelled': 'Հրավերը չեղարկվել է',
    'member.removed': 'Անդամը հեռացվել է',
    'member.role_changed': 'Անդամի դերը փոխվել է',
    'totp.enabled': 'Երկքայլ մուտքը միացվել է',
    'totp.disabled': 'Երկքայլ մուտքն անջատվել է',
    'totp.recovery_codes_renewed': 'Ստեղծվել են նոր վերականգնման կոդեր',
    'business.submitted': 'Բիզնեսի տվյալներն ուղարկվել են',
    'business.verified': 'Բիզնեսը հաստատվել է',
    'business.rejected': 'Բիզնեսի հաստատումը մերժվել է',
    'refund.created': 'Կատարվել է վերադարձ',
    'payment.settled': 'Վճարումը կարգավորվել է վճարային համակարգի հղումով',
    'payment.captured': 'Արգելափակված գումարը գանձվել է',
    'payment.released': 'Գումարն ապաարգելափակվել է',
    'billing.purchase_created': 'Ստեղծվել է միավորների գնում',
    'billing.auto_topup_changed': 'Փոխվել է ավտոմատ համալրումը',
    'payment_link.created': 'Ստեղծվել է վճարման հղում',
    'payment_link.deactivated': 'Վճարման հղումն ապաակտիվացվել է',
    'payments.exported': 'Վճարումներն արտահանվել են (CSV)',
    'webhook.resent': 'Վեբհուքի իրադարձությունը կրկին ուղարկվել է',
  },
};

const ru: Catalog<AuditMessages> = {
  title: 'Журнал действий',
  intro: 'Важные действия в этом аккаунте, новые сверху: кто что сделал, когда и откуда. Время в UTC.',
  empty: 'Пока ничего не записано.',
  when: 'Когда',
  who: 'Кто',
  action: 'Действие',
  subject: 'Объект',
  address: 'Адрес',
  operator: 'Оператор',
  next: 'Более старые записи',
  first: 'Самые новые записи',
  tableLabel: 'Записи журнала',
  badCursorTitle: 'Такой страницы журнала нет',
  badCursorText: 'Ссылка на эту страницу журнала недействительна. Начните с самых новых записей.',
  actions: {
    'sign_in.new_address': 'Вход с нового адреса',
    'api_key.created': 'Создан API-ключ',
    'api_key.revoked': 'Отозван API-ключ',
    'domain.added': 'Добавлен домен',
    'domain.verified': 'Домен подтверждён',
    'webhook.url_changed': 'Изменён URL вебхука',
    'webhook.secret_revealed': 'Показан секрет вебхука',
    'webhook.secret_rotated': 'Секрет вебхука заменён',
    'processor.configured': 'Платёжная система настроена',
    'processor.enabled': 'Платёжная система включена',
    'processor.disabled': 'Платёжная система выключена',
    'connect_token.created': 'Создан токен подключения',
    'connect_token.revoked': 'Отозван токен подключения',
    'member.invited': 'Участник приглашён',
    'member.invitation_cancelled': 'Приглашение отменено',
    'member.removed': 'Участник удалён',
    'member.role_changed': 'Роль участника изменена',
    'totp.enabled': 'Двухфакторный вход включён',
    'totp.disabled': 'Двухфакторный вход выключен',
    'totp.recovery_codes_renewed': 'Созданы новые коды восстановления',
    'business.submitted': 'Данные компании отправлены',
    'business.verified': 'Компания подтверждена',
    'business.rejected': 'В подтверждении компании отказано',
    'refund.created': 'Сделан возврат',
    'payment.settled': 'Платёж урегулирован по ссылке платёжной системы',
    'payment.captured': 'Заблокированная сумма списана',
    'payment.released': 'Блокировка отменена',
    'billing.purchase_created': 'Создана покупка единиц',
    'billing.auto_topup_changed': 'Изменено автопополнение',
    'payment_link.created': 'Создана платёжная ссылка',
    'payment_link.deactivated': 'Платёжная ссылка отключена',
    'payments.exported': 'Платежи выгружены (CSV)',
    'webhook.resent': 'Событие вебхука отправлено снова',
  },
};

export const AUDIT_MESSAGES = defineMessages<AuditMessages>('dashboard.audit', { en, hy, ru }, {});
