/**
 * The texts of the connect tokens page, in the dashboard's three languages (picked with
 * `shell.lang`), with each plugin's install steps (docs/connector.md "Install and connect",
 * docs/shopify.md). Not escaped here: the pages escape everything they print.
 */
import type { ConnectPlatform } from '../../domain/connect-tokens.js';
import type { Language } from '../i18n/index.js';

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
  readonly createdText: (environment: string, platform: string, host: string, until: string) => string;
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

const en: ConnectTokensMessages = {
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
  revokedOn: (when) => `Revoked ${when}`,
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
  createdText: (environment, platform, host, until) =>
    `${environment} token for ${platform} on ${host}, valid until ${until}.`,
  once: 'Copy it now: it is shown only this once. Paste it only into your store’s plugin settings.',
  installTitle: (platform) => `Install it in ${platform}`,
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

  revoke: (platform, host, shortId) => `Revoke the ${platform} token for ${host} (${shortId})`,
  revokeTitle: 'Revoke this connect token?',
  revokeText: (platform, host) =>
    `The ${platform} store on ${host} can no longer take payments with it, from now on, on every server. This cannot be undone: the store needs a new token.`,
  cancel: 'Cancel',
  revoked: 'The connect token is revoked.',
  alreadyRevoked: 'This connect token was already revoked.',
};

const hy: ConnectTokensMessages = {
  title: 'Միացման թոքեններ',
  intro:
    'Միացման թոքենը ձեր հաշվին կապում է մեկ խանութ (WooCommerce կամ Shopify) ձեր ստուգված դոմեններից մեկի վրա։ Տեղադրեք այն պլագինի կարգավորումներում, ետ կանչեք, եթե խանութն այլևս չկա կամ թոքենը արտահոսել է։',
  listTitle: 'Ձեր թոքենները',
  none: 'Միացման թոքեններ դեռ չկան։',
  token: 'Թոքեն',
  domain: 'Դոմեն',
  platform: 'Հարթակ',
  environment: 'Միջավայր',
  created: 'Ստեղծված',
  expires: 'Ժամկետը լրանում է',
  lastUsed: 'Վերջին օգտագործում',
  status: 'Կարգավիճակ',
  never: 'Երբեք',
  active: 'Ակտիվ',
  expired: 'Ժամկետանց',
  revokedOn: (when) => `Ետ կանչված ${when}`,
  domainGone: '(դոմենը հեռացված է)',
  platforms: { woocommerce: 'WooCommerce', shopify: 'Shopify' },
  platformHints: {
    woocommerce: 'Armenian Payment Gateway պլագինը WordPress-ի և WooCommerce-ի համար։',
    shopify: 'Armenian Payment Gateway հավելվածը ձեր Shopify ադմինում։',
  },
  environments: { test: 'Թեստային', live: 'Իրական' },
  testHint: 'Միայն թեստային վճարումներ․ գումար չի փոխանցվում։',
  liveHint: 'Իրական վճարումներ։',
  viewerNote:
    'Որպես դիտորդ՝ դուք տեսնում եք թոքենները, բայց ստեղծել կամ ետ կանչել կարող են միայն սեփականատերը և ադմինները։',

  createTitle: 'Ստեղծել միացման թոքեն',
  noVerifiedDomain:
    'Միացման թոքենը տրվում է ձեր խանութի ստուգված դոմենի համար, իսկ դուք դեռ այդպիսին չունեք։ Նախ ավելացրեք ձեր խանութի դոմենը և ստուգեք այն։',
  goToDomains: 'Անցնել դոմեններին',
  liveNeedsVerification: 'Իրական թոքեններ կարելի է ստեղծել ձեր բիզնեսի ստուգումից հետո։',
  verifyBusiness: 'Ստուգել ձեր բիզնեսը',
  chooseDomain: 'Ընտրեք ձեր ստուգված դոմեններից մեկը։',
  choosePlatform: 'Ընտրեք WooCommerce կամ Shopify։',
  chooseEnvironment: 'Ընտրեք թեստային կամ իրական։',
  create: 'Ստեղծել թոքեն',

  createdTitle: 'Ձեր նոր միացման թոքենը',
  createdText: (environment, platform, host, until) =>
    `${environment} թոքեն ${platform}-ի համար՝ ${host} դոմենի վրա, վավեր է մինչև ${until}։`,
  once: 'Պատճենեք այն հիմա․ այն ցուցադրվում է միայն այս անգամ։ Տեղադրեք այն միայն ձեր խանութի պլագինի կարգավորումներում։',
  installTitle: (platform) => `Տեղադրեք այն ${platform}-ում`,
  installSteps: {
    woocommerce: [
      'WordPress-ում տեղադրեք և ակտիվացրեք Armenian Payment Gateway պլագինը (Plugins › Add New › Upload Plugin)։',
      'Բացեք WooCommerce › Settings › Payments › Armenian Payment Gateway և նշեք Enable։',
      'Տեղադրեք այս թոքենը «Connect token» դաշտում՝ պլագինի հետ ստացած connector-ի URL-ի հետ միասին։ Թեստային թոքենի դեպքում թողեք «Test mode»-ը միացված, իրականի դեպքում՝ անջատեք։',
      'Սեղմեք «Save changes», ապա «Connect WooCommerce» և հաստատեք մուտքը․ էջում կգրվի Connected։',
      'Կատարեք պատվեր ձեր խանութում՝ ստուգելու, որ վճարումն անցնում է։',
    ],
    shopify: [
      'Տեղադրեք Armenian Payment Gateway հավելվածը ձեր Shopify ադմինում և հաստատեք պահանջվող մուտքը։',
      'Բացեք հավելվածը Shopify ադմինի Apps բաժնից։',
      'Տեղադրեք այս թոքենը «Connect token» դաշտում, ընտրեք, թե ինչպես են գնորդները վճարում, և «Test mode»-ը համապատասխանեցրեք թոքենին (միացված՝ թեստային թոքենի դեպքում)։',
      'Սեղմեք «Save»․ էջում կգրվի Connected։',
      'Կատարեք պատվեր ձեր խանութում՝ ստուգելու, որ վճարումն անցնում է։',
    ],
  },
  backToTokens: 'Վերադառնալ միացման թոքեններին',

  revoke: (platform, host, shortId) => `Ետ կանչել ${platform}-ի թոքենը ${host}-ի համար (${shortId})`,
  revokeTitle: 'Ետ կանչե՞լ այս միացման թոքենը',
  revokeText: (platform, host) =>
    `${host}-ի ${platform} խանութն այսուհետ այլևս չի կարող դրանով վճարումներ ընդունել՝ բոլոր սերվերներում։ Սա հնարավոր չէ հետարկել․ խանութին նոր թոքեն է պետք։`,
  cancel: 'Չեղարկել',
  revoked: 'Միացման թոքենը ետ է կանչված։',
  alreadyRevoked: 'Այս միացման թոքենն արդեն ետ էր կանչված։',
};

const ru: ConnectTokensMessages = {
  title: 'Токены подключения',
  intro:
    'Токен подключения связывает с вашим аккаунтом один магазин (WooCommerce или Shopify) на одном из ваших проверенных доменов. Вставьте его в настройки плагина; отзовите, если магазина больше нет или токен утёк.',
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
  revokedOn: (when) => `Отозван ${when}`,
  domainGone: '(домен удалён)',
  platforms: { woocommerce: 'WooCommerce', shopify: 'Shopify' },
  platformHints: {
    woocommerce: 'Плагин Armenian Payment Gateway для WordPress и WooCommerce.',
    shopify: 'Приложение Armenian Payment Gateway в админке Shopify.',
  },
  environments: { test: 'Тестовый', live: 'Боевой' },
  testHint: 'Только тестовые платежи: деньги не списываются.',
  liveHint: 'Настоящие платежи.',
  viewerNote: 'Как наблюдатель вы видите токены, но создавать и отзывать их могут только владелец и администраторы.',

  createTitle: 'Создать токен подключения',
  noVerifiedDomain:
    'Токен подключения выдаётся для проверенного домена вашего магазина, а у вас его пока нет. Сначала добавьте домен магазина и подтвердите его.',
  goToDomains: 'Перейти к доменам',
  liveNeedsVerification: 'Боевые токены можно создать после проверки вашего бизнеса.',
  verifyBusiness: 'Пройти проверку бизнеса',
  chooseDomain: 'Выберите один из ваших проверенных доменов.',
  choosePlatform: 'Выберите WooCommerce или Shopify.',
  chooseEnvironment: 'Выберите тестовый или боевой.',
  create: 'Создать токен',

  createdTitle: 'Ваш новый токен подключения',
  createdText: (environment, platform, host, until) =>
    `${environment} токен для ${platform} на ${host}, действует до ${until}.`,
  once: 'Скопируйте его сейчас: он показывается только один раз. Вставляйте его только в настройки плагина вашего магазина.',
  installTitle: (platform) => `Установка в ${platform}`,
  installSteps: {
    woocommerce: [
      'В WordPress установите и активируйте плагин Armenian Payment Gateway (Plugins › Add New › Upload Plugin).',
      'Откройте WooCommerce › Settings › Payments › Armenian Payment Gateway и отметьте Enable.',
      'Вставьте этот токен в поле «Connect token» вместе с URL коннектора, полученным с плагином. С тестовым токеном оставьте «Test mode» включённым, с боевым — выключите.',
      'Нажмите «Save changes», затем «Connect WooCommerce» и подтвердите доступ: на странице появится Connected.',
      'Оформите заказ в магазине, чтобы проверить, что оплата проходит.',
    ],
    shopify: [
      'Установите приложение Armenian Payment Gateway в админке Shopify и подтвердите запрошенный доступ.',
      'Откройте приложение в разделе Apps админки Shopify.',
      'Вставьте этот токен в поле «Connect token», выберите, как платят покупатели, и установите «Test mode» в соответствии с токеном (включён для тестового токена).',
      'Нажмите «Save»: на странице появится Connected.',
      'Оформите заказ в магазине, чтобы проверить, что оплата проходит.',
    ],
  },
  backToTokens: 'Назад к токенам подключения',

  revoke: (platform, host, shortId) => `Отозвать токен ${platform} для ${host} (${shortId})`,
  revokeTitle: 'Отозвать этот токен подключения?',
  revokeText: (platform, host) =>
    `Магазин ${platform} на ${host} с этого момента больше не сможет принимать с ним платежи — на всех серверах. Это нельзя отменить: магазину понадобится новый токен.`,
  cancel: 'Отмена',
  revoked: 'Токен подключения отозван.',
  alreadyRevoked: 'Этот токен подключения уже был отозван.',
};

export const CONNECT_TOKENS_MESSAGES: Readonly<Record<Language, ConnectTokensMessages>> = { en, hy, ru };
