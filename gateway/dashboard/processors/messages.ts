/**
 * The texts of the Processors section (the overview, a domain's processors, a processor's
 * settings form), in English, Armenian and Russian, and the labels of each adapter's settings
 * fields. Not escaped here: the pages escape everything they print.
 */
import { type Catalog, defineMessages } from '../../i18n/messages.js';

export interface FieldText {
  readonly label: string;
  readonly hint?: string;
}

export interface ProcessorsMessages {
  readonly overviewTitle: string;
  readonly overviewIntro: string;
  readonly domain: string;
  readonly checkoutOrder: string;
  readonly manage: string;
  readonly noneEnabled: string;
  readonly hostedTag: string;
  readonly verified: string;
  readonly notVerified: string;
  readonly noLiveShort: string;
  readonly sandboxName: string;

  readonly domainTitle: (host: string) => string;
  readonly domainIntro: string;
  readonly backToOverview: string;
  readonly domainPage: string;
  readonly orderTitle: string;
  readonly orderIntro: string;
  readonly orderEmpty: string;
  readonly moveUp: (name: string) => string;
  readonly moveDown: (name: string) => string;
  readonly allTitle: string;
  readonly processor: string;
  readonly status: string;
  readonly settings: string;
  readonly actions: string;
  readonly enabled: string;
  readonly disabled: string;
  readonly notInstalled: string;
  readonly settingsSaved: string;
  readonly settingsNone: string;
  readonly settingsNotNeeded: string;
  readonly enable: string;
  readonly install: string;
  readonly disable: string;
  readonly configure: string;
  readonly replace: string;
  readonly alwaysOn: string;
  readonly sandboxNote: string;
  readonly readOnly: string;

  readonly noLiveTitle: string;
  readonly noLiveNothing: string;
  readonly noLiveSandboxOnly: string;
  readonly noLiveWhat: string;
  readonly unverifiedTitle: string;
  readonly unverifiedText: string;
  readonly hostedLiveText: string;

  readonly settingsTitle: (name: string, host: string) => string;
  readonly settingsIntro: string;
  readonly replaceIntro: string;
  readonly savedReplaceNote: string;
  readonly secretHint: string;
  readonly defaultHint: (value: string) => string;
  readonly optional: string;
  readonly saveAndEnable: string;
  readonly noSettingsNeeded: string;
  readonly required: string;
  readonly invalid: (message: string) => string;
  readonly wholeSettings: (message: string) => string;
  readonly notInstalledViewer: string;
  readonly yes: string;

  readonly notices: {
    readonly configured: (name: string) => string;
    readonly enabled: (name: string) => string;
    readonly disabled: (name: string) => string;
    readonly moved: string;
    readonly needsSettings: (name: string) => string;
    readonly sandboxAlwaysOn: string;
  };
  /** Labels of settings fields, by key (the same key means the same thing in every adapter). */
  readonly fields: Readonly<Record<string, FieldText>>;
}

const en: Catalog<ProcessorsMessages> = {
  overviewTitle: 'Processors',
  overviewIntro:
    'Each domain offers its own processors on the hosted checkout, in the order you set. Choose a domain to install the sandbox, configure a live processor, or change the order.',
  domain: 'Domain',
  checkoutOrder: 'Checkout offers, in order',
  manage: 'Manage processors',
  noneEnabled: 'None enabled',
  hostedTag: 'hosted domain',
  verified: 'verified',
  notVerified: 'not verified',
  noLiveShort: 'No live processor',
  sandboxName: 'Sandbox (test cards)',

  domainTitle: 'Processors of {host}',
  domainIntro:
    'The hosted checkout of this domain offers the enabled processors in the order below. Settings are stored encrypted and are never shown again.',
  backToOverview: 'All domains',
  domainPage: 'Domain details',
  orderTitle: 'Checkout order',
  orderIntro: 'The buyer sees the enabled processors in this order.',
  orderEmpty: 'No processor is enabled on this domain.',
  moveUp: 'Move {name} up',
  moveDown: 'Move {name} down',
  allTitle: 'All processors',
  processor: 'Processor',
  status: 'Status',
  settings: 'Settings',
  actions: 'Actions',
  enabled: 'Enabled',
  disabled: 'Disabled',
  notInstalled: 'Not installed',
  settingsSaved: 'Settings saved',
  settingsNone: 'No settings yet',
  settingsNotNeeded: 'None needed',
  enable: 'Enable',
  install: 'Install',
  disable: 'Disable',
  configure: 'Configure',
  replace: 'Replace settings',
  alwaysOn: 'Always on',
  sandboxNote:
    'The hosted domain always offers the sandbox (test payments, no money moves), so it cannot be disabled here.',
  readOnly: 'You can see the processors of this domain; only the owner and admins can change them.',

  noLiveTitle: 'Live payments cannot be paid on this domain yet',
  noLiveNothing:
    'No processor is enabled here, so every live payment for this domain is refused with the error no_payment_method_configured.',
  noLiveSandboxOnly:
    'Only the sandbox is enabled here. It moves no money and never pays a live payment: a live key’s payment for this domain is refused with the error no_payment_method_configured, unless it is created with "processor": "sandbox", which makes it a test payment.',
  noLiveWhat: 'To take real payments, configure a live processor below with the settings your bank or wallet gave you.',
  unverifiedTitle: 'This domain is not verified',
  unverifiedText:
    'Live payments are taken only for verified domains: until this one is verified, they are refused with domain_not_registered. Verify it on its domain page.',
  hostedLiveText:
    'The hosted domain is for test payments and payment links; it always offers the sandbox to test payments, never to live ones.',

  settingsTitle: '{name} on {host}',
  settingsIntro: 'Enter the settings your provider gave you. Saving them enables the processor on this domain.',
  replaceIntro:
    'Settings are saved. They are stored encrypted and never shown again: to change anything, enter all of them again. Saving replaces every setting.',
  savedReplaceNote: 'Settings saved — replace',
  secretHint: 'Secret: stored encrypted, never shown again.',
  defaultHint: 'Leave empty for the default: {value}',
  optional: '(optional)',
  saveAndEnable: 'Save settings and enable',
  noSettingsNeeded: 'This processor needs no settings.',
  required: 'Fill in this field.',
  invalid: 'This value is not accepted: {message}',
  wholeSettings: 'The settings are not accepted: {message}',
  notInstalledViewer: 'No settings are saved for this processor on this domain.',
  yes: 'Yes',

  notices: {
    configured: '{name} settings were saved, and it is enabled.',
    enabled: '{name} is enabled.',
    disabled: '{name} is disabled. Its settings are kept.',
    moved: 'The checkout order was changed.',
    needsSettings: '{name} needs its settings before it can be enabled.',
    sandboxAlwaysOn: 'The hosted domain always offers the sandbox.',
  },
  fields: {
    base_url: { label: 'Service address (URL)' },
    form_url: { label: 'Payment form address (URL)' },
    client_id: { label: 'Client ID', hint: 'The ClientID (a GUID) the bank issued.' },
    username: { label: 'API username' },
    password: { label: 'API password' },
    order_id_min: { label: 'First order number', hint: 'The start of the OrderID range the bank assigned.' },
    order_id_max: { label: 'Last order number', hint: 'The end of the OrderID range the bank assigned.' },
    bank: { label: 'Bank name', hint: 'For your own records.' },
    callback_secret: { label: 'Callback secret', hint: 'Only when the bank sends signed callbacks.' },
    rec_account: { label: 'IdramID (EDP_REC_ACCOUNT)' },
    secret_key: { label: 'Secret key (SECRET_KEY)' },
    issuer: { label: 'Shop ID (issuer)' },
    shop_key: { label: 'Shop key' },
    valid_days: { label: 'Days the invoice stays payable' },
    two_stage: {
      label: 'Two-stage payments (holds)',
      hint: 'Only when the bank set the terminal up for two-stage payments: it then takes payments to capture later only.',
    },
    token: { label: 'API token', hint: 'The bearer token FastShift issued.' },
  },
};

const hy: Catalog<ProcessorsMessages> = {
  overviewTitle: 'Վճարային համակարգեր',
  overviewIntro:
    'Յուրաքանչյուր դոմեն վճարման էջում առաջարկում է իր վճարային համակարգերը՝ ձեր սահմանած հերթականությամբ։ Ընտրեք դոմենը՝ թեստային քարտերը տեղադրելու, իրական վճարային համակարգ կարգավորելու կամ հերթականությունը փոխելու համար։',
  domain: 'Դոմեն',
  checkoutOrder: 'Վճարման էջում՝ հերթականությամբ',
  manage: 'Կառավարել համակարգերը',
  noneEnabled: 'Միացված չէ ոչ մեկը',
  hostedTag: 'տրամադրված դոմեն',
  verified: 'հաստատված',
  notVerified: 'հաստատված չէ',
  noLiveShort: 'Իրական համակարգ չկա',
  sandboxName: 'Թեստային քարտեր',

  domainTitle: '{host} դոմենի վճարային համակարգերը',
  domainIntro:
    'Այս դոմենի վճարման էջը առաջարկում է միացված համակարգերը ստորև նշված հերթականությամբ։ Կարգավորումները պահվում են գաղտնագրված և այլևս չեն ցուցադրվում։',
  backToOverview: 'Բոլոր դոմենները',
  domainPage: 'Դոմենի տվյալները',
  orderTitle: 'Հերթականությունը վճարման էջում',
  orderIntro: 'Գնորդը տեսնում է միացված համակարգերը այս հերթականությամբ։',
  orderEmpty: 'Այս դոմենում միացված համակարգ չկա։',
  moveUp: 'Տեղափոխել վեր՝ {name}',
  moveDown: 'Տեղափոխել վար՝ {name}',
  allTitle: 'Բոլոր համակարգերը',
  processor: 'Համակարգ',
  status: 'Կարգավիճակ',
  settings: 'Կարգավորումներ',
  actions: 'Գործողություններ',
  enabled: 'Միացված է',
  disabled: 'Անջատված է',
  notInstalled: 'Տեղադրված չէ',
  settingsSaved: 'Կարգավորումները պահված են',
  settingsNone: 'Կարգավորումներ դեռ չկան',
  settingsNotNeeded: 'Պետք չեն',
  enable: 'Միացնել',
  install: 'Տեղադրել',
  disable: 'Անջատել',
  configure: 'Կարգավորել',
  replace: 'Փոխարինել կարգավորումները',
  alwaysOn: 'Միշտ միացված',
  sandboxNote:
    'Տրամադրված դոմենը միշտ առաջարկում է թեստային քարտերը (թեստային վճարումներ, գումար չի շարժվում), ուստի այն այստեղ հնարավոր չէ անջատել։',
  readOnly: 'Դուք տեսնում եք այս դոմենի համակարգերը. փոխել կարող են միայն սեփականատերը և ադմինիստրատորները։',

  noLiveTitle: 'Այս դոմենում իրական վճարումներ դեռ հնարավոր չեն',
  noLiveNothing:
    'Այստեղ միացված համակարգ չկա, ուստի այս դոմենի յուրաքանչյուր իրական վճարում մերժվում է no_payment_method_configured սխալով։',
  noLiveSandboxOnly:
    'Այստեղ միացված են միայն թեստային քարտերը։ Դրանցով իրական գումար չի գանձվում, և իրական վճարում երբեք չի վճարվում. այս դոմենի համար իրական բանալիով ստեղծված վճարումը մերժվում է no_payment_method_configured սխալով, եթե այն ստեղծված չէ "processor": "sandbox" դաշտով, որը այն դարձնում է թեստային վճարում։',
  noLiveWhat:
    'Իրական վճարումներ ընդունելու համար ստորև կարգավորեք իրական համակարգ՝ ձեր բանկի կամ դրամապանակի տրամադրած տվյալներով։',
  unverifiedTitle: 'Այս դոմենը հաստատված չէ',
  unverifiedText:
    'Իրական վճարումներն ընդունվում են միայն հաստատված դոմենների համար. մինչ այս դոմենի հաստատումը դրանք մերժվում են domain_not_registered սխալով։ Հաստատեք այն դոմենի էջում։',
  hostedLiveText:
    'Տրամադրված դոմենը թեստային վճարումների և վճարման հղումների համար է. այն միշտ առաջարկում է թեստային քարտերը թեստային վճարումներին, երբեք՝ իրականներին։',

  settingsTitle: '{name}՝ {host}',
  settingsIntro: 'Մուտքագրեք ձեր մատակարարի տրամադրած կարգավորումները։ Պահելով՝ համակարգը միանում է այս դոմենում։',
  replaceIntro:
    'Կարգավորումները պահված են։ Դրանք պահվում են գաղտնագրված և այլևս չեն ցուցադրվում. որևէ բան փոխելու համար մուտքագրեք բոլորը նորից։ Պահելը փոխարինում է բոլոր կարգավորումները։',
  savedReplaceNote: 'Կարգավորումները պահված են — փոխարինել',
  secretHint: 'Գաղտնի է. պահվում է գաղտնագրված, այլևս չի ցուցադրվում։',
  defaultHint: 'Թողեք դատարկ՝ լռելյայն արժեքի համար. {value}',
  optional: '(ոչ պարտադիր)',
  saveAndEnable: 'Պահել և միացնել',
  noSettingsNeeded: 'Այս համակարգին կարգավորումներ պետք չեն։',
  required: 'Լրացրեք այս դաշտը։',
  invalid: 'Այս արժեքը չի ընդունվում. {message}',
  wholeSettings: 'Կարգավորումները չեն ընդունվում. {message}',
  notInstalledViewer: 'Այս դոմենում այս համակարգի կարգավորումներ պահված չեն։',
  yes: 'Այո',

  notices: {
    configured: '«{name}» վճարային համակարգի կարգավորումները պահվեցին, և այն միացված է։',
    enabled: '«{name}» վճարային համակարգը միացված է։',
    disabled: '«{name}» վճարային համակարգն անջատված է։ Դրա կարգավորումները պահպանված են։',
    moved: 'Վճարման էջի հերթականությունը փոխվեց։',
    needsSettings: '«{name}» վճարային համակարգը միացնելուց առաջ պետք է կարգավորել։',
    sandboxAlwaysOn: 'Տրամադրված դոմենը միշտ առաջարկում է թեստային քարտերը։',
  },
  fields: {
    base_url: { label: 'Ծառայության հասցեն (URL)' },
    form_url: { label: 'Վճարման ձևի հասցեն (URL)' },
    client_id: { label: 'Client ID', hint: 'Բանկի տրամադրած ClientID-ն (GUID)։' },
    username: { label: 'API օգտանուն' },
    password: { label: 'API գաղտնաբառ' },
    order_id_min: { label: 'Պատվերի առաջին համարը', hint: 'Բանկի հատկացրած OrderID միջակայքի սկիզբը։' },
    order_id_max: { label: 'Պատվերի վերջին համարը', hint: 'Բանկի հատկացրած OrderID միջակայքի վերջը։' },
    bank: { label: 'Բանկի անվանումը', hint: 'Ձեր սեփական գրառումների համար։' },
    callback_secret: {
      label: 'Callback-ի գաղտնի բանալին',
      hint: 'Միայն եթե բանկը ուղարկում է ստորագրված callback-ներ։',
    },
    rec_account: { label: 'IdramID (EDP_REC_ACCOUNT)' },
    secret_key: { label: 'Գաղտնի բանալի (SECRET_KEY)' },
    issuer: { label: 'Խանութի ID (issuer)' },
    shop_key: { label: 'Խանութի բանալի' },
    valid_days: { label: 'Հաշիվը վճարելի է (օր)' },
    two_stage: {
      label: 'Երկփուլ վճարումներ (գումարի արգելափակում)',
      hint: 'Միայն եթե բանկը տերմինալը կարգավորել է երկփուլ վճարումների համար. այդ դեպքում այն ընդունում է միայն հետագայում գանձվող վճարումներ։',
    },
    token: { label: 'API թոքեն', hint: 'FastShift-ի տրամադրած bearer թոքենը։' },
  },
};

const ru: Catalog<ProcessorsMessages> = {
  overviewTitle: 'Платёжные системы',
  overviewIntro:
    'Каждый домен предлагает на странице оплаты свои платёжные системы в заданном вами порядке. Выберите домен, чтобы подключить тестовые карты, настроить боевую платёжную систему или изменить порядок.',
  domain: 'Домен',
  checkoutOrder: 'На странице оплаты, по порядку',
  manage: 'Управлять системами',
  noneEnabled: 'Ни одна не включена',
  hostedTag: 'предоставленный домен',
  verified: 'подтверждён',
  notVerified: 'не подтверждён',
  noLiveShort: 'Нет боевой системы',
  sandboxName: 'Тестовые карты',

  domainTitle: 'Платёжные системы {host}',
  domainIntro:
    'Страница оплаты этого домена предлагает включённые системы в порядке ниже. Настройки хранятся зашифрованными и больше не показываются.',
  backToOverview: 'Все домены',
  domainPage: 'Сведения о домене',
  orderTitle: 'Порядок на странице оплаты',
  orderIntro: 'Покупатель видит включённые системы в этом порядке.',
  orderEmpty: 'На этом домене не включена ни одна система.',
  moveUp: 'Переместить {name} выше',
  moveDown: 'Переместить {name} ниже',
  allTitle: 'Все системы',
  processor: 'Система',
  status: 'Состояние',
  settings: 'Настройки',
  actions: 'Действия',
  enabled: 'Включена',
  disabled: 'Выключена',
  notInstalled: 'Не установлена',
  settingsSaved: 'Настройки сохранены',
  settingsNone: 'Настроек пока нет',
  settingsNotNeeded: 'Не нужны',
  enable: 'Включить',
  install: 'Установить',
  disable: 'Выключить',
  configure: 'Настроить',
  replace: 'Заменить настройки',
  alwaysOn: 'Всегда включена',
  sandboxNote:
    'Предоставленный домен всегда предлагает тестовые карты (тестовые платежи, настоящие деньги не списываются), поэтому её здесь нельзя выключить.',
  readOnly: 'Вы видите платёжные системы этого домена; менять их могут только владелец и администраторы.',

  noLiveTitle: 'На этом домене пока нельзя принимать боевые платежи',
  noLiveNothing:
    'Здесь не включена ни одна система, поэтому каждый боевой платёж этого домена отклоняется с ошибкой no_payment_method_configured.',
  noLiveSandboxOnly:
    'Здесь включены только тестовые карты. Они не списывают настоящие деньги и никогда не оплачивают боевой платёж: платёж боевого ключа для этого домена отклоняется с ошибкой no_payment_method_configured, если он не создан с "processor": "sandbox" — тогда это тестовый платёж.',
  noLiveWhat:
    'Чтобы принимать настоящие платежи, настройте ниже боевую систему с данными, которые выдал ваш банк или кошелёк.',
  unverifiedTitle: 'Этот домен не подтверждён',
  unverifiedText:
    'Боевые платежи принимаются только для подтверждённых доменов: пока этот домен не подтверждён, они отклоняются с ошибкой domain_not_registered. Подтвердите его на странице домена.',
  hostedLiveText:
    'Предоставленный домен предназначен для тестовых платежей и платёжных ссылок; он всегда предлагает тестовые карты тестовым платежам, но никогда — боевым.',

  settingsTitle: '{name} на {host}',
  settingsIntro: 'Введите настройки, которые выдал ваш провайдер. После сохранения система включается на этом домене.',
  replaceIntro:
    'Настройки сохранены. Они хранятся зашифрованными и больше не показываются: чтобы что-то изменить, введите их все заново. Сохранение заменяет все настройки.',
  savedReplaceNote: 'Настройки сохранены — заменить',
  secretHint: 'Секрет: хранится зашифрованным, больше не показывается.',
  defaultHint: 'Оставьте пустым для значения по умолчанию: {value}',
  optional: '(необязательно)',
  saveAndEnable: 'Сохранить и включить',
  noSettingsNeeded: 'Этой системе не нужны настройки.',
  required: 'Заполните это поле.',
  invalid: 'Это значение не принято: {message}',
  wholeSettings: 'Настройки не приняты: {message}',
  notInstalledViewer: 'Для этой системы на этом домене настройки не сохранены.',
  yes: 'Да',

  notices: {
    configured: 'Настройки платёжной системы «{name}» сохранены, она включена.',
    enabled: 'Платёжная система «{name}» включена.',
    disabled: 'Платёжная система «{name}» выключена. Её настройки сохранены.',
    moved: 'Порядок на странице оплаты изменён.',
    needsSettings: 'Чтобы включить платёжную систему «{name}», сначала задайте её настройки.',
    sandboxAlwaysOn: 'Предоставленный домен всегда предлагает тестовые карты.',
  },
  fields: {
    base_url: { label: 'Адрес сервиса (URL)' },
    form_url: { label: 'Адрес формы оплаты (URL)' },
    client_id: { label: 'Client ID', hint: 'ClientID (GUID), выданный банком.' },
    username: { label: 'Имя пользователя API' },
    password: { label: 'Пароль API' },
    order_id_min: { label: 'Первый номер заказа', hint: 'Начало диапазона OrderID, выделенного банком.' },
    order_id_max: { label: 'Последний номер заказа', hint: 'Конец диапазона OrderID, выделенного банком.' },
    bank: { label: 'Название банка', hint: 'Для ваших записей.' },
    callback_secret: { label: 'Секрет callback', hint: 'Только если банк присылает подписанные callback.' },
    rec_account: { label: 'IdramID (EDP_REC_ACCOUNT)' },
    secret_key: { label: 'Секретный ключ (SECRET_KEY)' },
    issuer: { label: 'ID магазина (issuer)' },
    shop_key: { label: 'Ключ магазина' },
    valid_days: { label: 'Сколько дней счёт можно оплатить' },
    two_stage: {
      label: 'Двухстадийные платежи (холдирование)',
      hint: 'Только если банк настроил терминал на двухстадийные платежи: тогда он принимает только платежи со списанием позже.',
    },
    token: { label: 'API-токен', hint: 'Bearer-токен, выданный FastShift.' },
  },
};

export const PROCESSORS_MESSAGES = defineMessages<ProcessorsMessages>(
  'dashboard.processors',
  { en, hy, ru },
  {
    domainTitle: ['host'],
    moveUp: ['name'],
    moveDown: ['name'],
    settingsTitle: ['name', 'host'],
    defaultHint: ['value'],
    invalid: ['message'],
    wholeSettings: ['message'],
    notices: {
      configured: ['name'],
      enabled: ['name'],
      disabled: ['name'],
      needsSettings: ['name'],
    },
  },
);
