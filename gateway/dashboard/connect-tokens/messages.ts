/**
 * The texts of the connect tokens page, in the dashboard's three languages (picked with
 * `shell.lang`), with each plugin's install steps (docs/connector.md "Install and connect",
 * docs/shopify.md). Not escaped here: the pages escape everything they print.
 */
import type { ConnectPlatform } from '../../domain/connect-tokens.js';
import { type Catalog, defineMessages } from '../../i18n/messages.js';

export interface ConnectTokensMessages {
  readonly title: string;
  readonly intro: string;
  readonly listTitle: string;
  readonly none: string;
  readonly token: string;
  readonly domain: string;
  readonly platform: string;
  readonly environment: string;
  readonly created: string;
  readonly expires: string;
  readonly lastUsed: string;
  readonly status: string;
  readonly never: string;
  readonly active: string;
  readonly expired: string;
  /** `when`: an instant (Yerevan time). */
  readonly revokedOn: (when: string) => string;
  readonly domainGone: string;
  readonly platforms: Readonly<Record<ConnectPlatform, string>>;
  readonly platformHints: Readonly<Record<ConnectPlatform, string>>;
  readonly environments: { readonly test: string; readonly live: string };
  readonly testHint: string;
  readonly liveHint: string;
  readonly viewerNote: string;

  readonly createTitle: string;
  readonly noVerifiedDomain: string;
  readonly goToDomains: string;
  readonly liveNeedsVerification: string;
  readonly verifyBusiness: string;
  readonly chooseDomain: string;
  readonly choosePlatform: string;
  readonly chooseEnvironment: string;
  readonly create: string;

  readonly createdTitle: string;
  /** `until`: an instant (Yerevan time). */
  readonly createdText: (environment: 'test' | 'live', platform: string, host: string, until: string) => string;
  readonly once: string;
  readonly installTitle: (platform: string) => string;
  readonly installSteps: Readonly<Record<ConnectPlatform, readonly string[]>>;
  readonly backToTokens: string;

  readonly revoke: (platform: string, host: string, shortId: string) => string;
  readonly revokeTitle: string;
  readonly revokeText: (platform: string, host: string) => string;
  readonly cancel: string;
  readonly revoked: string;
  readonly alreadyRevoked: string;
}

const en: Catalog<ConnectTokensMessages> = {
  title: 'Connect tokens',
  intro:
    'A connect token links one store (WooCommerce or Shopify) on one of your verified domains to your account. Paste it into the plugin’s settings; revoke it if the store is gone or the token leaked.',
  listTitle: 'Your tokens',
  none: 'No connect tokens yet.',
  token: 'Token',
  domain: 'Domain',
  platform: 'Platform',
  environment: 'Environment',
  created: 'Created',
  expires: 'Expires',
  lastUsed: 'Last used',
  status: 'Status',
  never: 'Never',
  active: 'Active',
  expired: 'Expired',
  revokedOn: 'Revoked {when, date, datetime}',
  domainGone: '(domain removed)',
  platforms: { woocommerce: 'WooCommerce', shopify: 'Shopify' },
  platformHints: {
    woocommerce: 'The Armenian Payment Gateway plugin for WordPress and WooCommerce.',
    shopify: 'The Armenian Payment Gateway app in your Shopify admin.',
  },
  environments: { test: 'Test', live: 'Live' },
  testHint: 'Test payments only: no money moves.',
  liveHint: 'Real payments.',
  viewerNote: 'As a viewer you can see the tokens, but only the owner and admins can create or revoke them.',

  createTitle: 'Create a connect token',
  noVerifiedDomain:
    'A connect token is issued for a verified domain of your store, and you have none yet. Add your store’s domain and verify it first.',
  goToDomains: 'Go to domains',
  liveNeedsVerification: 'Live tokens can be created once your business is verified.',
  verifyBusiness: 'Verify your business',
  chooseDomain: 'Choose one of your verified domains.',
  choosePlatform: 'Choose WooCommerce or Shopify.',
  chooseEnvironment: 'Choose test or live.',
  create: 'Create token',

  createdTitle: 'Your new connect token',
  createdText:
    '{environment, select, live {Live} other {Test}} token for {platform} on {host}, valid until {until, date, datetime}.',
  once: 'Copy it now: it is shown only this once. Paste it only into your store’s plugin settings.',
  installTitle: 'Install it in {platform}',
  installSteps: {
    woocommerce: [
      'In WordPress, install and activate the Armenian Payment Gateway plugin (Plugins › Add New › Upload Plugin).',
      'Open WooCommerce › Settings › Payments › Armenian Payment Gateway and tick Enable.',
      'Paste this token into “Connect token”, with the connector URL that came with the plugin. Keep “Test mode” on with a test token; turn it off with a live token.',
      'Click “Save changes”, then “Connect WooCommerce” and approve the access: the page says Connected.',
      'Place an order in your shop to check that the payment goes through.',
    ],
    shopify: [
      'Install the Armenian Payment Gateway app in your Shopify admin and approve the access it asks for.',
      'Open the app from Apps in your Shopify admin.',
      'Paste this token into “Connect token”, choose how buyers pay, and set “Test mode” to match the token (on for a test token).',
      'Click “Save”: the page says Connected.',
      'Place an order in your shop to check that the payment goes through.',
    ],
  },
  backToTokens: 'Back to connect tokens',

  revoke: 'Revoke the {platform} token for {host} ({shortId})',
  revokeTitle: 'Revoke this connect token?',
  revokeText:
    'The {platform} store on {host} can no longer take payments with it, from now on, on every server. This cannot be undone: the store needs a new token.',
  cancel: 'Cancel',
  revoked: 'The connect token is revoked.',
  alreadyRevoked: 'This connect token was already revoked.',
};

const hy: Catalog<ConnectTokensMessages> = {
  title: 'Միացման թոքեններ',
  intro:
    'Միացման թոքենը ձեր հաշվին կապում է մեկ խանութ (WooCommerce կամ Shopify), որը գտնվում է ձեր հաստատված դոմեններից մեկում։ Տեղադրեք այն պլագինի կարգավորումներում և հետ կանչեք, եթե խանութն այլևս չկա կամ թոքենը հայտնի է դարձել կողմնակի անձանց։',
  listTitle: 'Ձեր թոքենները',
  none: 'Միացման թոքեններ դեռ չկան։',
  token: 'Թոքեն',
  domain: 'Դոմեն',
  platform: 'Հարթակ',
  environment: 'Միջավայր',
  created: 'Ստեղծվել է',
  expires: 'Գործում է մինչև',
  lastUsed: 'Վերջին օգտագործում',
  status: 'Կարգավիճակ',
  never: 'Երբեք',
  active: 'Ակտիվ',
  expired: 'Ժամկետանց',
  revokedOn: 'Հետ է կանչվել {when, date, datetime}',
  domainGone: '(դոմենը հեռացված է)',
  platforms: { woocommerce: 'WooCommerce', shopify: 'Shopify' },
  platformHints: {
    woocommerce: '«Armenian Payment Gateway» պլագինը WordPress և WooCommerce հարթակների համար։',
    shopify: '«Armenian Payment Gateway» հավելվածը Shopify խանութի կառավարման վահանակում։',
  },
  environments: { test: 'Թեստային', live: 'Իրական' },
  testHint: 'Միայն թեստային վճարումներ. իրական գումար չի գանձվում։',
  liveHint: 'Իրական վճարումներ։',
  viewerNote:
    'Որպես դիտորդ՝ դուք տեսնում եք թոքենները, բայց ստեղծել կամ հետ կանչել դրանք կարող են միայն սեփականատերը և ադմինիստրատորները։',

  createTitle: 'Ստեղծել միացման թոքեն',
  noVerifiedDomain:
    'Միացման թոքենը տրվում է ձեր խանութի հաստատված դոմենի համար, իսկ դուք դեռ այդպիսին չունեք։ Նախ ավելացրեք ձեր խանութի դոմենը և հաստատեք այն։',
  goToDomains: 'Անցնել դոմեններին',
  liveNeedsVerification: 'Իրական թոքեններ կարելի է ստեղծել, երբ ձեր բիզնեսը հաստատվի։',
  verifyBusiness: 'Ուղարկել բիզնեսը ստուգման',
  chooseDomain: 'Ընտրեք ձեր հաստատված դոմեններից մեկը։',
  choosePlatform: 'Ընտրեք WooCommerce կամ Shopify։',
  chooseEnvironment: 'Ընտրեք՝ թեստային, թե իրական։',
  create: 'Ստեղծել թոքեն',

  createdTitle: 'Ձեր նոր միացման թոքենը',
  createdText:
    '{platform} խանութի {environment, select, live {իրական} other {թեստային}} թոքեն՝ {host} դոմենի համար, գործում է մինչև {until, date, datetime}։',
  once: 'Պատճենեք այն հիմա. այն ցուցադրվում է միայն այս անգամ։ Տեղադրեք այն միայն ձեր խանութի պլագինի կարգավորումներում։',
  installTitle: 'Տեղադրում {platform} հարթակում',
  installSteps: {
    woocommerce: [
      'WordPress-ի կառավարման վահանակում տեղադրեք և ակտիվացրեք «Armenian Payment Gateway» պլագինը («Plugins › Add New › Upload Plugin»)։',
      'Բացեք «WooCommerce › Settings › Payments › Armenian Payment Gateway» բաժինը և նշեք «Enable» վանդակը։',
      'Այս թոքենը տեղադրեք «Connect token» դաշտում, իսկ պլագինի հետ ստացած միացման ծառայության URL-ը՝ իր դաշտում։ Թեստային թոքենի դեպքում «Test mode» վանդակը թողեք նշված, իրականի դեպքում՝ հանեք նշումը։',
      'Սեղմեք «Save changes», ապա «Connect WooCommerce» և հաստատեք մուտքի թույլտվությունը. էջում կհայտնվի «Connected» գրությունը։',
      'Կատարեք պատվեր ձեր խանութում՝ ստուգելու, որ վճարումն անցնում է։',
    ],
    shopify: [
      'Shopify խանութի կառավարման վահանակում տեղադրեք «Armenian Payment Gateway» հավելվածը և հաստատեք պահանջվող թույլտվությունները։',
      'Բացեք հավելվածը կառավարման վահանակի «Apps» բաժնից։',
      'Այս թոքենը տեղադրեք «Connect token» դաշտում, ընտրեք, թե ինչպես են գնորդները վճարում, և «Test mode» վանդակը համապատասխանեցրեք թոքենին (թեստային թոքենի դեպքում՝ նշված)։',
      'Սեղմեք «Save». էջում կհայտնվի «Connected» գրությունը։',
      'Կատարեք պատվեր ձեր խանութում՝ ստուգելու, որ վճարումն անցնում է։',
    ],
  },
  backToTokens: 'Վերադառնալ միացման թոքեններին',

  revoke: 'Հետ կանչել {platform} խանութի թոքենը ({host}, {shortId})',
  revokeTitle: 'Հետ կանչե՞լ այս միացման թոքենը',
  revokeText:
    '{host} դոմենի {platform} խանութն այսուհետ չի կարող այս թոքենով վճարումներ ընդունել ոչ մի սերվերում։ Սա անդառնալի է. խանութին նոր թոքեն կպահանջվի։',
  cancel: 'Չեղարկել',
  revoked: 'Միացման թոքենը հետ է կանչված։',
  alreadyRevoked: 'Այս միացման թոքենն արդեն հետ էր կանչված։',
};

const ru: Catalog<ConnectTokensMessages> = {
  title: 'Токены подключения',
  intro:
    'Токен подключения связывает с вашим аккаунтом один магазин (WooCommerce или Shopify) на одном из ваших подтверждённых доменов. Вставьте его в настройки плагина; отзовите, если магазина больше нет или токен попал к посторонним.',
  listTitle: 'Ваши токены',
  none: 'Токенов подключения пока нет.',
  token: 'Токен',
  domain: 'Домен',
  platform: 'Платформа',
  environment: 'Среда',
  created: 'Создан',
  expires: 'Истекает',
  lastUsed: 'Последнее использование',
  status: 'Статус',
  never: 'Никогда',
  active: 'Активен',
  expired: 'Истёк',
  revokedOn: 'Отозван {when, date, datetime}',
  domainGone: '(домен удалён)',
  platforms: { woocommerce: 'WooCommerce', shopify: 'Shopify' },
  platformHints: {
    woocommerce: 'Плагин «Armenian Payment Gateway» для WordPress и WooCommerce.',
    shopify: 'Приложение «Armenian Payment Gateway» в панели управления Shopify.',
  },
  environments: { test: 'Тестовый', live: 'Боевой' },
  testHint: 'Только тестовые платежи: настоящие деньги не списываются.',
  liveHint: 'Боевые платежи с настоящими деньгами.',
  viewerNote: 'Как наблюдатель вы видите токены, но создавать и отзывать их могут только владелец и администраторы.',

  createTitle: 'Создать токен подключения',
  noVerifiedDomain:
    'Токен подключения выдаётся для подтверждённого домена вашего магазина, а такого домена у вас пока нет. Сначала добавьте домен магазина и подтвердите его.',
  goToDomains: 'Перейти к доменам',
  liveNeedsVerification: 'Боевые токены можно создать после проверки вашего бизнеса.',
  verifyBusiness: 'Пройти проверку бизнеса',
  chooseDomain: 'Выберите один из ваших подтверждённых доменов.',
  choosePlatform: 'Выберите WooCommerce или Shopify.',
  chooseEnvironment: 'Выберите тестовый или боевой.',
  create: 'Создать токен',

  createdTitle: 'Ваш новый токен подключения',
  createdText:
    '{environment, select, live {Боевой} other {Тестовый}} токен для {platform} на {host}, действует до {until, date, datetime}.',
  once: 'Скопируйте его сейчас: он показывается только один раз. Вставляйте его только в настройки плагина вашего магазина.',
  installTitle: 'Установка в {platform}',
  installSteps: {
    woocommerce: [
      'В панели управления WordPress установите и активируйте плагин «Armenian Payment Gateway» («Plugins › Add New › Upload Plugin»).',
      'Откройте «WooCommerce › Settings › Payments › Armenian Payment Gateway» и отметьте «Enable».',
      'Вставьте этот токен в поле «Connect token», а адрес сервиса подключения, полученный вместе с плагином, — в его поле. С тестовым токеном оставьте «Test mode» включённым, с боевым — выключите.',
      'Нажмите «Save changes», затем «Connect WooCommerce» и подтвердите доступ: на странице появится «Connected».',
      'Оформите заказ в магазине, чтобы проверить, что оплата проходит.',
    ],
    shopify: [
      'Установите приложение «Armenian Payment Gateway» в панели управления Shopify и подтвердите запрошенный доступ.',
      'Откройте приложение в разделе «Apps» панели управления.',
      'Вставьте этот токен в поле «Connect token», выберите, как платят покупатели, и установите «Test mode» в соответствии с токеном (включён для тестового токена).',
      'Нажмите «Save»: на странице появится «Connected».',
      'Оформите заказ в магазине, чтобы проверить, что оплата проходит.',
    ],
  },
  backToTokens: 'Назад к токенам подключения',

  revoke: 'Отозвать токен {platform} для {host} ({shortId})',
  revokeTitle: 'Отозвать этот токен подключения?',
  revokeText:
    'Магазин {platform} на {host} с этого момента не сможет принимать платежи с этим токеном ни на одном сервере. Это нельзя отменить: магазину понадобится новый токен.',
  cancel: 'Отмена',
  revoked: 'Токен подключения отозван.',
  alreadyRevoked: 'Этот токен подключения уже был отозван.',
};

export const CONNECT_TOKENS_MESSAGES = defineMessages<ConnectTokensMessages>(
  'dashboard.connect-tokens',
  { en, hy, ru },
  {
    revokedOn: ['when'],
    createdText: ['environment', 'platform', 'host', 'until'],
    installTitle: ['platform'],
    revoke: ['platform', 'host', 'shortId'],
    revokeText: ['platform', 'host'],
  },
);
