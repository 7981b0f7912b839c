/**
 * The texts of two-step sign-in (the account page's card, setup, recovery codes, turning it off,
 * and the second step of sign-in), in the dashboard's three languages. Not escaped here.
 */
import { type Catalog, defineMessages } from '../../i18n/messages.js';

export interface TwoFactorMessages {
  readonly title: string;
  readonly on: string;
  readonly off: string;
  readonly statusOn: string;
  readonly statusOff: string;
  readonly manage: string;
  readonly setUp: string;
  readonly backToAccount: string;

  readonly intro: string;
  readonly scanTitle: string;
  readonly scanText: string;
  readonly qrAlt: string;
  readonly secretLabel: string;
  readonly confirmTitle: string;
  readonly confirmText: string;
  readonly code: string;
  readonly codeHint: string;
  readonly turnOn: string;
  readonly wrongCode: string;

  readonly enabledNotice: string;
  readonly disabledNotice: string;
  /** `date`: an instant (the day in Yerevan time). */
  readonly onSince: (date: string) => string;
  readonly recoveryLeft: (count: number) => string;
  readonly disableTitle: string;
  readonly disableText: string;
  readonly codeOrRecovery: string;
  readonly codeOrRecoveryHint: string;
  readonly turnOff: string;
  readonly newCodesTitle: string;
  readonly newCodesText: string;
  readonly makeNewCodes: string;

  readonly recoveryTitle: string;
  readonly recoveryText: string;
  readonly recoveryOnce: string;
  readonly savedThem: string;

  readonly stepTitle: string;
  readonly stepText: string;
  readonly stepCode: string;
  readonly stepHint: string;
  readonly stepContinue: string;
  readonly stepWrong: string;
  readonly stepCancel: string;
  readonly stepExpiredTitle: string;
  readonly stepExpiredText: string;
}

const en: Catalog<TwoFactorMessages> = {
  title: 'Two-step sign-in',
  on: 'On',
  off: 'Off',
  statusOn: 'Signing in asks for your password and a code from your authenticator app.',
  statusOff: 'Signing in asks for your password only. Add a code from your phone for more safety.',
  manage: 'Manage two-step sign-in',
  setUp: 'Set up two-step sign-in',
  backToAccount: 'Back to your account',

  intro:
    'After your password, signing in will ask for a 6-digit code from an authenticator app on your phone (such as Google Authenticator, Microsoft Authenticator or 1Password).',
  scanTitle: '1. Add your account to the app',
  scanText: 'Scan this QR code with the app, or type the key below into it.',
  qrAlt: 'QR code holding the key for your authenticator app',
  secretLabel: 'Key',
  confirmTitle: '2. Enter a code from the app',
  confirmText: 'To check that the app is set up, enter the code it shows now, and your password.',
  code: 'Code from the app',
  codeHint: '6 digits, without spaces.',
  turnOn: 'Turn on two-step sign-in',
  wrongCode: 'This code is not right. Enter the code the app shows now.',

  enabledNotice: 'Two-step sign-in is on.',
  disabledNotice: 'Two-step sign-in is off.',
  onSince: 'On since {date, date, day}.',
  recoveryLeft: '{count, plural, one {# unused recovery code left.} other {# unused recovery codes left.}}',
  disableTitle: 'Turn off two-step sign-in',
  disableText: 'Signing in will ask for your password only.',
  codeOrRecovery: 'Code from the app, or a recovery code',
  codeOrRecoveryHint: '6 digits, or a recovery code such as abcd-efgh-jkmn.',
  turnOff: 'Turn off',
  newCodesTitle: 'New recovery codes',
  newCodesText: 'Make ten new recovery codes. The ones you have now stop working.',
  makeNewCodes: 'Make new recovery codes',

  recoveryTitle: 'Your recovery codes',
  recoveryText:
    'If you lose your phone, each of these codes signs you in once instead of a code from the app. Keep them somewhere safe, such as a password manager.',
  recoveryOnce: 'These codes are shown only now. Copy them or write them down before you leave this page.',
  savedThem: 'I have saved them: back to my account',

  stepTitle: 'Enter your code',
  stepText:
    'Open your authenticator app and enter the 6-digit code it shows for this account. Lost your phone? Enter one of your recovery codes instead.',
  stepCode: 'Code',
  stepHint: '6 digits from the app, or a recovery code.',
  stepContinue: 'Continue',
  stepWrong: 'This code is not right. Enter the code the app shows now, or a recovery code you have not used.',
  stepCancel: 'Start again',
  stepExpiredTitle: 'This sign-in has expired',
  stepExpiredText: 'The code must be entered within 5 minutes of the password. Please sign in again.',
};

const hy: Catalog<TwoFactorMessages> = {
  title: 'Երկքայլ մուտք',
  on: 'Միացված է',
  off: 'Անջատված է',
  statusOn: 'Մուտքի ժամանակ պահանջվում են ձեր գաղտնաբառը և նույնականացման հավելվածի կոդը։',
  statusOff: 'Մուտքի ժամանակ պահանջվում է միայն գաղտնաբառը։ Ավելի մեծ անվտանգության համար ավելացրեք կոդ ձեր հեռախոսից։',
  manage: 'Կառավարել երկքայլ մուտքը',
  setUp: 'Կարգավորել երկքայլ մուտքը',
  backToAccount: 'Վերադառնալ հաշիվ',

  intro:
    'Գաղտնաբառից հետո մուտքի ժամանակ կպահանջվի 6 թվանշանանոց կոդ ձեր հեռախոսի նույնականացման հավելվածից (օրինակ՝ Google Authenticator, Microsoft Authenticator կամ 1Password)։',
  scanTitle: '1. Ավելացրեք ձեր հաշիվը հավելվածում',
  scanText: 'Սկանավորեք այս QR կոդը հավելվածով կամ մուտքագրեք ստորև նշված բանալին։',
  qrAlt: 'QR կոդ՝ նույնականացման հավելվածի բանալիով',
  secretLabel: 'Բանալի',
  confirmTitle: '2. Մուտքագրեք հավելվածի կոդը',
  confirmText:
    'Ստուգելու համար, որ հավելվածը կարգավորված է, մուտքագրեք այն կոդը, որը այն ցույց է տալիս հիմա, և ձեր գաղտնաբառը։',
  code: 'Հավելվածի կոդը',
  codeHint: '6 թվանշան՝ առանց բացատների։',
  turnOn: 'Միացնել երկքայլ մուտքը',
  wrongCode: 'Կոդը ճիշտ չէ։ Մուտքագրեք այն կոդը, որը հավելվածը ցույց է տալիս հիմա։',

  enabledNotice: 'Երկքայլ մուտքը միացված է։',
  disabledNotice: 'Երկքայլ մուտքն անջատված է։',
  onSince: 'Միացված է՝ սկսած {date, date, day}։',
  recoveryLeft: 'Մնացել է {count, number} չօգտագործված վերականգնման կոդ։',
  disableTitle: 'Անջատել երկքայլ մուտքը',
  disableText: 'Մուտքի ժամանակ կպահանջվի միայն գաղտնաբառը։',
  codeOrRecovery: 'Հավելվածի կոդը կամ վերականգնման կոդ',
  codeOrRecoveryHint: '6 թվանշան կամ վերականգնման կոդ, օրինակ՝ abcd-efgh-jkmn։',
  turnOff: 'Անջատել',
  newCodesTitle: 'Նոր վերականգնման կոդեր',
  newCodesText: 'Ստեղծել տասը նոր վերականգնման կոդ։ Ներկայիս կոդերն այլևս չեն գործի։',
  makeNewCodes: 'Ստեղծել նոր վերականգնման կոդեր',

  recoveryTitle: 'Ձեր վերականգնման կոդերը',
  recoveryText:
    'Եթե կորցնեք ձեր հեռախոսը, այս կոդերից յուրաքանչյուրը մեկ անգամ թույլ կտա մուտք գործել հավելվածի կոդի փոխարեն։ Պահեք դրանք ապահով տեղում, օրինակ՝ գաղտնաբառերի կառավարիչում։',
  recoveryOnce: 'Այս կոդերը ցույց են տրվում միայն հիմա։ Պատճենեք կամ գրի առեք դրանք՝ նախքան այս էջից հեռանալը։',
  savedThem: 'Պահպանել եմ՝ վերադառնալ հաշիվ',

  stepTitle: 'Մուտքագրեք ձեր կոդը',
  stepText:
    'Բացեք նույնականացման հավելվածը և մուտքագրեք այս հաշվի 6 թվանշանանոց կոդը։ Կորցրե՞լ եք հեռախոսը։ Մուտքագրեք ձեր վերականգնման կոդերից մեկը։',
  stepCode: 'Կոդ',
  stepHint: 'Հավելվածի 6 թվանշանը կամ վերականգնման կոդ։',
  stepContinue: 'Շարունակել',
  stepWrong: 'Կոդը ճիշտ չէ։ Մուտքագրեք այն կոդը, որը հավելվածը ցույց է տալիս հիմա, կամ չօգտագործված վերականգնման կոդ։',
  stepCancel: 'Սկսել նորից',
  stepExpiredTitle: 'Այս մուտքի ժամկետն անցել է',
  stepExpiredText: 'Կոդը պետք է մուտքագրել գաղտնաբառից հետո 5 րոպեի ընթացքում։ Խնդրում ենք նորից մուտք գործել։',
};

const ru: Catalog<TwoFactorMessages> = {
  title: 'Двухэтапный вход',
  on: 'Включён',
  off: 'Выключен',
  statusOn: 'При входе запрашиваются пароль и код из приложения-аутентификатора.',
  statusOff: 'При входе запрашивается только пароль. Для большей безопасности добавьте код с телефона.',
  manage: 'Настроить двухэтапный вход',
  setUp: 'Включить двухэтапный вход',
  backToAccount: 'Вернуться в аккаунт',

  intro:
    'После пароля при входе будет запрашиваться 6-значный код из приложения-аутентификатора на вашем телефоне (например, Google Authenticator, Microsoft Authenticator или 1Password).',
  scanTitle: '1. Добавьте аккаунт в приложение',
  scanText: 'Отсканируйте этот QR-код приложением или введите в него ключ, указанный ниже.',
  qrAlt: 'QR-код с ключом для приложения-аутентификатора',
  secretLabel: 'Ключ',
  confirmTitle: '2. Введите код из приложения',
  confirmText: 'Чтобы проверить, что приложение настроено, введите код, который оно показывает сейчас, и ваш пароль.',
  code: 'Код из приложения',
  codeHint: '6 цифр, без пробелов.',
  turnOn: 'Включить двухэтапный вход',
  wrongCode: 'Код неверный. Введите код, который приложение показывает сейчас.',

  enabledNotice: 'Двухэтапный вход включён.',
  disabledNotice: 'Двухэтапный вход выключен.',
  onSince: 'Включён с {date, date, day}.',
  recoveryLeft:
    '{count, plural, one {Остался # неиспользованный резервный код.} few {Осталось # неиспользованных резервных кода.} many {Осталось # неиспользованных резервных кодов.} other {Осталось # неиспользованного резервного кода.}}',
  disableTitle: 'Выключить двухэтапный вход',
  disableText: 'При входе будет запрашиваться только пароль.',
  codeOrRecovery: 'Код из приложения или резервный код',
  codeOrRecoveryHint: '6 цифр или резервный код вида abcd-efgh-jkmn.',
  turnOff: 'Выключить',
  newCodesTitle: 'Новые резервные коды',
  newCodesText: 'Создать десять новых резервных кодов. Нынешние коды перестанут действовать.',
  makeNewCodes: 'Создать новые резервные коды',

  recoveryTitle: 'Ваши резервные коды',
  recoveryText:
    'Если вы потеряете телефон, каждый из этих кодов позволит войти один раз вместо кода из приложения. Храните их в надёжном месте, например в менеджере паролей.',
  recoveryOnce: 'Эти коды показываются только сейчас. Скопируйте или запишите их, прежде чем уйти с этой страницы.',
  savedThem: 'Я их сохранил(а): вернуться в аккаунт',

  stepTitle: 'Введите код',
  stepText:
    'Откройте приложение-аутентификатор и введите 6-значный код для этого аккаунта. Потеряли телефон? Введите один из резервных кодов.',
  stepCode: 'Код',
  stepHint: '6 цифр из приложения или резервный код.',
  stepContinue: 'Продолжить',
  stepWrong: 'Код неверный. Введите код, который приложение показывает сейчас, или неиспользованный резервный код.',
  stepCancel: 'Начать заново',
  stepExpiredTitle: 'Срок этого входа истёк',
  stepExpiredText: 'Код нужно ввести в течение 5 минут после пароля. Пожалуйста, войдите снова.',
};

export const TWO_FACTOR_MESSAGES = defineMessages<TwoFactorMessages>(
  'dashboard.two-factor',
  { en, hy, ru },
  {
    onSince: ['date'],
    recoveryLeft: ['count'],
  },
);
