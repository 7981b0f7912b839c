/**
 * The texts of the API keys page, in the dashboard's three languages (picked with `shell.lang`).
 * Not escaped here: the pages escape everything they print.
 */
import { type Catalog, defineMessages } from '../../i18n/messages.js';

export interface ApiKeysMessages {
  readonly title: string;
  readonly intro: string;
  readonly listTitle: string;
  readonly none: string;
  readonly key: string;
  readonly environment: string;
  readonly access: string;
  readonly created: string;
  readonly lastUsed: string;
  readonly status: string;
  readonly never: string;
  readonly active: string;
  /** `when`: an instant (Yerevan time). */
  readonly revokedOn: (when: string) => string;
  readonly environments: { readonly test: string; readonly live: string };
  readonly accesses: { readonly full: string; readonly payments: string };
  readonly viewerNote: string;

  readonly createTitle: string;
  readonly testHint: string;
  readonly liveHint: string;
  readonly fullHint: string;
  readonly paymentsHint: string;
  readonly liveNeedsVerification: string;
  readonly verifyBusiness: string;
  readonly chooseEnvironment: string;
  readonly chooseAccess: string;
  readonly create: string;

  readonly createdTitle: string;
  readonly createdText: (environment: 'test' | 'live', access: 'full' | 'payments') => string;
  readonly once: string;
  readonly backToKeys: string;

  readonly revoke: (key: string) => string;
  readonly revokeTitle: (key: string) => string;
  readonly revokeText: string;
  readonly cancel: string;
  readonly revoked: string;
  readonly alreadyRevoked: string;
}

const en: Catalog<ApiKeysMessages> = {
  title: 'API keys',
  intro:
    'Your server sends a secret key with every API request. Test keys create sandbox payments; live keys take real payments.',
  listTitle: 'Your keys',
  none: 'No keys yet.',
  key: 'Key',
  environment: 'Environment',
  access: 'Access',
  created: 'Created',
  lastUsed: 'Last used',
  status: 'Status',
  never: 'Never',
  active: 'Active',
  revokedOn: 'Revoked {when, date, datetime}',
  environments: { test: 'Test', live: 'Live' },
  accesses: { full: 'Full access', payments: 'Payments only' },
  viewerNote: 'As a viewer you can see the keys, but only the owner and admins can create or revoke them.',

  createTitle: 'Create a key',
  testHint: 'Sandbox payments only: no money moves.',
  liveHint: 'Real payments.',
  fullHint: 'Everything the API offers: payments, refunds, billing, receipts, webhooks.',
  paymentsHint: 'Creates and reads payments and payment links only: no refunds, billing, receipts or webhooks.',
  liveNeedsVerification: 'Live keys can be created once your business is verified.',
  verifyBusiness: 'Verify your business',
  chooseEnvironment: 'Choose test or live.',
  chooseAccess: 'Choose the access.',
  create: 'Create key',

  createdTitle: 'Your new key',
  createdText:
    '{environment, select, live {Live} other {Test}} key, {access, select, full {full access} other {payments only}}.',
  once: 'Copy it now: it is shown only this once. Keep it on your server, never in a web page or an app.',
  backToKeys: 'Back to API keys',

  revoke: 'Revoke {key}',
  revokeTitle: 'Revoke {key}?',
  revokeText:
    'Every request with this key is refused from now on, on every server. This cannot be undone: your integration needs a new key.',
  cancel: 'Cancel',
  revoked: 'The key is revoked.',
  alreadyRevoked: 'This key was already revoked.',
};

const hy: Catalog<ApiKeysMessages> = {
  title: 'API բանալիներ',
  intro:
    'Ձեր սերվերը յուրաքանչյուր API հարցման հետ ուղարկում է գաղտնի բանալի։ Թեստային բանալիներով ստեղծվում են թեստային վճարումներ, իրական բանալիներով՝ իրական վճարումներ։',
  listTitle: 'Ձեր բանալիները',
  none: 'Բանալիներ դեռ չկան։',
  key: 'Բանալի',
  environment: 'Միջավայր',
  access: 'Թույլտվություն',
  created: 'Ստեղծված',
  lastUsed: 'Վերջին օգտագործում',
  status: 'Կարգավիճակ',
  never: 'Երբեք',
  active: 'Ակտիվ',
  revokedOn: 'Հետ է կանչվել {when, date, datetime}',
  environments: { test: 'Թեստային', live: 'Իրական' },
  accesses: { full: 'Լրիվ թույլտվություն', payments: 'Միայն վճարումներ' },
  viewerNote:
    'Որպես դիտորդ՝ դուք տեսնում եք բանալիները, բայց ստեղծել կամ հետ կանչել դրանք կարող են միայն սեփականատերը և ադմինիստրատորները։',

  createTitle: 'Ստեղծել բանալի',
  testHint: 'Միայն թեստային վճարումներ. իրական գումար չի գանձվում։',
  liveHint: 'Իրական վճարումներ։',
  fullHint: 'API-ի բոլոր հնարավորությունները՝ վճարումներ, վերադարձներ, հաշվարկներ, ՀԴՄ կտրոններ, վեբհուքներ։',
  paymentsHint:
    'Միայն վճարումների և վճարման հղումների ստեղծում ու դիտում. առանց վերադարձների, հաշվարկների, ՀԴՄ կտրոնների և վեբհուքների։',
  liveNeedsVerification: 'Իրական բանալիներ կարելի է ստեղծել, երբ ձեր բիզնեսը հաստատվի։',
  verifyBusiness: 'Ուղարկել բիզնեսը ստուգման',
  chooseEnvironment: 'Ընտրեք թեստային կամ իրական։',
  chooseAccess: 'Ընտրեք թույլտվությունը։',
  create: 'Ստեղծել բանալի',

  createdTitle: 'Ձեր նոր բանալին',
  createdText:
    '{environment, select, live {Իրական} other {Թեստային}} բանալի՝ {access, select, full {լրիվ թույլտվությամբ} other {միայն վճարումների համար}}։',
  once: 'Պատճենեք այն հիմա. այն ցուցադրվում է միայն այս անգամ։ Պահեք այն ձեր սերվերում և երբեք մի՛ տեղադրեք վեբ էջում կամ հավելվածում։',
  backToKeys: 'Վերադառնալ API բանալիներին',

  revoke: 'Հետ կանչել {key} բանալին',
  revokeTitle: 'Հետ կանչե՞լ {key} բանալին',
  revokeText:
    'Այսուհետ այս բանալիով յուրաքանչյուր հարցում կմերժվի բոլոր սերվերներում։ Սա անդառնալի է. ձեր ինտեգրմանը նոր բանալի կպահանջվի։',
  cancel: 'Չեղարկել',
  revoked: 'Բանալին հետ է կանչված։',
  alreadyRevoked: 'Այս բանալին արդեն հետ էր կանչված։',
};

const ru: Catalog<ApiKeysMessages> = {
  title: 'API-ключи',
  intro:
    'Ваш сервер отправляет секретный ключ с каждым запросом к API. С тестовыми ключами создаются тестовые платежи, с боевыми — боевые, с настоящими деньгами.',
  listTitle: 'Ваши ключи',
  none: 'Ключей пока нет.',
  key: 'Ключ',
  environment: 'Среда',
  access: 'Доступ',
  created: 'Создан',
  lastUsed: 'Последнее использование',
  status: 'Статус',
  never: 'Никогда',
  active: 'Активен',
  revokedOn: 'Отозван {when, date, datetime}',
  environments: { test: 'Тестовый', live: 'Боевой' },
  accesses: { full: 'Полный доступ', payments: 'Только платежи' },
  viewerNote: 'Как наблюдатель вы видите ключи, но создавать и отзывать их могут только владелец и администраторы.',

  createTitle: 'Создать ключ',
  testHint: 'Только тестовые платежи: настоящие деньги не списываются.',
  liveHint: 'Боевые платежи с настоящими деньгами.',
  fullHint: 'Всё, что умеет API: платежи, возвраты, биллинг, чеки, вебхуки.',
  paymentsHint: 'Только создаёт и читает платежи и платёжные ссылки: без возвратов, биллинга, чеков и вебхуков.',
  liveNeedsVerification: 'Боевые ключи можно создать после проверки вашего бизнеса.',
  verifyBusiness: 'Пройти проверку бизнеса',
  chooseEnvironment: 'Выберите тестовый или боевой.',
  chooseAccess: 'Выберите доступ.',
  create: 'Создать ключ',

  createdTitle: 'Ваш новый ключ',
  createdText:
    '{environment, select, live {Боевой} other {Тестовый}} ключ, {access, select, full {полный доступ} other {только платежи}}.',
  once: 'Скопируйте его сейчас: он показывается только один раз. Храните его на сервере, никогда на веб-странице или в приложении.',
  backToKeys: 'Назад к API-ключам',

  revoke: 'Отозвать {key}',
  revokeTitle: 'Отозвать {key}?',
  revokeText:
    'С этого момента каждый запрос с этим ключом отклоняется на всех серверах. Это нельзя отменить: вашей интеграции понадобится новый ключ.',
  cancel: 'Отмена',
  revoked: 'Ключ отозван.',
  alreadyRevoked: 'Этот ключ уже был отозван.',
};

export const API_KEYS_MESSAGES = defineMessages<ApiKeysMessages>(
  'dashboard.api-keys',
  { en, hy, ru },
  {
    revokedOn: ['when'],
    createdText: ['environment', 'access'],
    revoke: ['key'],
    revokeTitle: ['key'],
  },
);
