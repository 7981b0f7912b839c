/**
 * The texts of the demo merchant's page (the link `gateway serve` prints on an empty database), in
 * English, Armenian and Russian. Not escaped here: the page escapes what it prints.
 */
import { type Catalog, defineMessages } from '../../i18n/messages.js';

export interface DemoMessages {
  readonly title: (account: string) => string;
  readonly text: (account: string) => string;
  readonly once: string;
  readonly email: string;
  readonly submit: string;
  readonly invalidTitle: string;
  readonly invalidText: string;
}

const en: Catalog<DemoMessages> = {
  title: 'Become the owner of {account}',
  text: '{account} is the demo merchant the gateway created when it started on an empty database. Its test key was printed with this link: the payments made with it appear here. Choose the email and password you will sign in with.',
  once: 'This link works once, for 24 hours from the start.',
  email: 'Your sign-in email',
  submit: 'Become the owner and sign in',
  invalidTitle: 'This link no longer works',
  invalidText:
    'The link printed at the first start was already used, or it expired (it works for 24 hours). Sign in with the account that used it, or create a new account.',
};

const hy: Catalog<DemoMessages> = {
  title: 'Դառնալ {account} հաշվի տերը',
  text: '{account}-ը ցուցադրական վաճառողն է, որը վճարային դարպասը ստեղծել է դատարկ տվյալների բազայով առաջին գործարկման ժամանակ։ Նրա թեստային բանալին տպվել է այս հղման հետ․ դրանով կատարված վճարումները երևում են այստեղ։ Ընտրեք մուտքի էլ. փոստը և գաղտնաբառը։',
  once: 'Այս հղումն աշխատում է մեկ անգամ՝ գործարկումից 24 ժամվա ընթացքում։',
  email: 'Ձեր մուտքի էլ. փոստը',
  submit: 'Դառնալ տեր և մուտք գործել',
  invalidTitle: 'Այս հղումն այլևս չի աշխատում',
  invalidText:
    'Առաջին գործարկման ժամանակ տպված հղումն արդեն օգտագործվել է կամ ժամկետանց է (այն աշխատում է 24 ժամ)։ Մուտք գործեք այն օգտագործած հաշվով կամ ստեղծեք նոր հաշիվ։',
};

const ru: Catalog<DemoMessages> = {
  title: 'Стать владельцем {account}',
  text: '{account} — демо-магазин, который шлюз создал при первом запуске на пустой базе данных. Его тестовый ключ напечатан вместе с этой ссылкой: платежи, созданные с ним, видны здесь. Выберите email и пароль для входа.',
  once: 'Ссылка работает один раз, 24 часа с момента запуска.',
  email: 'Ваш email для входа',
  submit: 'Стать владельцем и войти',
  invalidTitle: 'Эта ссылка больше не работает',
  invalidText:
    'Ссылка, напечатанная при первом запуске, уже использована или устарела (она работает 24 часа). Войдите с аккаунтом, который её использовал, или создайте новый аккаунт.',
};

export const DEMO_MESSAGES = defineMessages<DemoMessages>(
  'dashboard.demo',
  { en, hy, ru },
  { title: ['account'], text: ['account'] },
);
