/**
 * The texts of the billing pages (balances, ledger, buying units, purchases, auto top-up), in the
 * dashboard's three languages (picked with `shell.lang`), as ICU messages: counts of units agree
 * with their noun by plural rules, a counter is a `select` (never a name glued into a sentence),
 * amounts are `{x, number, amd}`. Not escaped here: the pages escape everything they print.
 */
import type { BlockedState, Counter } from '../../domain/billing.js';
import { type Catalog, defineMessages } from '../../i18n/messages.js';

export type LedgerEvent = 'signup_grant' | 'purchase' | 'payment' | 'receipt' | 'adjustment';

export interface BillingMessages {
  readonly title: string;
  readonly intro: string;
  readonly counters: Readonly<Record<Counter, string>>;
  readonly balancesTitle: string;
  readonly available: string;
  readonly graceFloor: string;
  readonly state: string;
  readonly price: string;
  readonly pricePerUnit: (amd: number) => string;
  readonly states: Readonly<Record<BlockedState, (counter: Counter) => string>>;
  readonly unlimited: string;
  readonly buyCounter: (counter: Counter) => string;
  readonly viewerNote: string;
  readonly moreTitle: string;
  readonly ledgerLink: string;
  readonly purchasesLink: string;
  readonly autoTopupLink: string;
  readonly buyLink: string;
  readonly backToBilling: string;

  readonly ledgerTitle: string;
  readonly ledgerIntro: string;
  readonly filter: string;
  readonly allCounters: string;
  readonly when: string;
  readonly counter: string;
  readonly event: string;
  readonly change: string;
  readonly balanceAfter: string;
  readonly reference: string;
  readonly about: string;
  readonly note: string;
  readonly events: Readonly<Record<LedgerEvent, string>>;
  readonly noEntries: string;
  readonly older: string;
  readonly newest: string;
  readonly downloadCsv: string;
  readonly badCursor: string;

  readonly buyTitle: string;
  readonly buyIntro: (presets: string, minimum: number) => string;
  readonly counterLabel: string;
  readonly quantityLabel: string;
  readonly quantityHint: (presets: string, minimum: number) => string;
  readonly buyButton: string;
  readonly chooseCounter: string;
  readonly wholeNumber: string;
  readonly atLeast: (minimum: number) => string;
  readonly verificationNeeded: string;
  readonly goToBusiness: string;
  readonly changedAfterSending: string;

  readonly purchaseTitle: string;
  readonly createdNotice: string;
  readonly purchaseSummary: (quantity: number, counter: Counter, amount: number) => string;
  readonly bankTitle: string;
  readonly amount: string;
  readonly bankDetails: string;
  readonly noBankDetails: string;
  readonly instructions: (reference: string, amount: number) => readonly string[];
  readonly cardPending: string;
  readonly payByCard: string;
  /** `when`: an instant (Yerevan time). */
  readonly paidOn: (when: string) => string;
  readonly statuses: { readonly pending: string; readonly paid: string };
  readonly methods: { readonly card: string; readonly bank_transfer: string };
  readonly sources: Readonly<Record<string, string>>;

  readonly purchasesTitle: string;
  readonly purchasesIntro: string;
  readonly noPurchases: string;
  readonly created: string;
  readonly quantity: string;
  readonly method: string;
  readonly status: string;
  readonly receipt: string;
  readonly openReceipt: (quantity: number, counter: Counter) => string;
  readonly noReceipt: string;
  readonly details: (quantity: number, counter: Counter) => string;
  readonly backToPurchases: string;

  readonly autoTitle: string;
  readonly autoIntro: string;
  readonly notSet: string;
  readonly autoOn: (threshold: number, refill: number) => string;
  readonly autoOff: string;
  readonly enabledLabel: string;
  readonly thresholdLabel: string;
  readonly thresholdHint: string;
  readonly refillLabel: string;
  readonly refillHint: (presets: string, minimum: number) => string;
  readonly save: (counter: Counter) => string;
  readonly saved: string;
  readonly wholeNumberFromZero: string;
}

const en: Catalog<BillingMessages> = {
  title: 'Billing',
  intro:
    'Your account uses two counters: one transactions unit per completed live payment, one receipts unit per receipt of a sale not paid through the service. Test payments are free.',
  counters: { transactions: 'Transactions', receipts: 'Receipts' },
  balancesTitle: 'Balances',
  available: 'Available units',
  graceFloor: 'Grace floor',
  state: 'State',
  price: 'Price',
  pricePerUnit: '{amd, number, amd} per unit',
  states: {
    no: 'Active',
    grace:
      '{counter, select, transactions {In grace: below zero, live payments are still taken until the grace floor} other {In grace: below zero, receipts are still issued until the grace floor}}',
    yes: '{counter, select, transactions {Blocked: the grace floor is reached, new live payments are refused until you buy units (test payments still work)} other {Blocked: the grace floor is reached, receipts for sales not paid through the service are refused until you buy units}}',
  },
  unlimited: 'Unlimited: never blocked',
  buyCounter: '{counter, select, transactions {Buy transactions units} other {Buy receipts units}}',
  viewerNote: 'You can read billing. Only the owner and admins buy units or change auto top-up.',
  moreTitle: 'More',
  ledgerLink: 'Ledger: every change of the balances',
  purchasesLink: 'Purchases and receipts',
  autoTopupLink: 'Auto top-up',
  buyLink: 'Buy units',
  backToBilling: 'Back to billing',

  ledgerTitle: 'Ledger',
  ledgerIntro: 'Every change of your balances, newest first.',
  filter: 'Show',
  allCounters: 'All counters',
  when: 'When',
  counter: 'Counter',
  event: 'Event',
  change: 'Change',
  balanceAfter: 'Balance after',
  reference: 'Reference',
  about: 'Related to',
  note: 'Note',
  events: {
    signup_grant: 'Signup grant',
    purchase: 'Purchase',
    payment: 'Payment',
    receipt: 'Receipt',
    adjustment: 'Adjustment',
  },
  noEntries: 'No entries.',
  older: 'Older entries',
  newest: 'Newest entries',
  downloadCsv: 'Download as CSV',
  badCursor: 'This page link is no longer valid. Start again from the newest entries.',

  buyTitle: 'Buy units',
  buyIntro:
    'Preset quantities ({presets}) are paid by card through the checkout. Any other quantity of at least {minimum, number} is paid by bank transfer.',
  counterLabel: 'Counter',
  quantityLabel: 'Quantity (units)',
  quantityHint: 'By card: {presets}. By bank transfer: any other quantity from {minimum, number}.',
  buyButton: 'Buy',
  chooseCounter: 'Choose transactions or receipts.',
  wholeNumber: 'Enter a whole number of units from 1 to 1000000.',
  atLeast: 'The smallest purchase is {minimum, plural, one {# unit} other {# units}}.',
  verificationNeeded: 'Buying units needs a verified business.',
  goToBusiness: 'Verify your business',
  changedAfterSending: 'This form was already sent with other values. Check them and buy again.',

  purchaseTitle: 'Purchase',
  createdNotice: 'The purchase is created. Pay it by bank transfer as shown below.',
  purchaseSummary:
    '{quantity, plural, one {# {counter, select, transactions {transactions} other {receipts}} unit} other {# {counter, select, transactions {transactions} other {receipts}} units}} for {amount, number, amd}',
  bankTitle: 'Pay by bank transfer',
  amount: 'Amount',
  bankDetails: 'Bank details',
  noBankDetails: 'The bank details are not set up on this service yet: ask the service operator for them.',
  instructions: [
    'Transfer exactly {amount, number, amd} to the account above.',
    "Write the reference {reference} in the transfer's details (purpose of payment), nothing else, so we can match it.",
    'The units are added to your balance as soon as the transfer arrives; this page then says the purchase is paid.',
  ],
  cardPending: 'This purchase waits for its card payment.',
  payByCard: 'Pay by card',
  paidOn: 'Paid on {when, date, datetime}: the units are on your balance.',
  statuses: { pending: 'Waiting for payment', paid: 'Paid' },
  methods: { card: 'Card', bank_transfer: 'Bank transfer' },
  sources: { api: 'Bought', auto_topup: 'Auto top-up' },

  purchasesTitle: 'Purchases',
  purchasesIntro:
    'Your latest purchases of units. A purchase paid by card gets the service’s fiscal receipt once it is issued; bank transfers are documented by your bank’s statement.',
  noPurchases: 'No purchases yet.',
  created: 'Created',
  quantity: 'Units',
  method: 'Payment',
  status: 'Status',
  receipt: 'Receipt',
  openReceipt:
    '{counter, select, transactions {Receipt of {quantity, plural, one {# transactions unit} other {# transactions units}}} other {Receipt of {quantity, plural, one {# receipts unit} other {# receipts units}}}}',
  noReceipt: 'None yet',
  details:
    '{counter, select, transactions {Details of {quantity, plural, one {# transactions unit} other {# transactions units}}} other {Details of {quantity, plural, one {# receipts unit} other {# receipts units}}}}',
  backToPurchases: 'Back to purchases',

  autoTitle: 'Auto top-up',
  autoIntro:
    'When a balance falls to the threshold, the service prepares a purchase of the refill quantity and emails you how to pay it: a card payment link for a preset quantity, else a bank transfer reference.',
  notSet: 'Not set up',
  autoOn:
    'On: at {threshold, plural, one {# unit} other {# units}} or fewer, a purchase of {refill, plural, one {# unit} other {# units}} is prepared',
  autoOff: 'Off',
  enabledLabel: 'Auto top-up is on',
  thresholdLabel: 'Threshold (units)',
  thresholdHint: 'A purchase is prepared when the balance falls to this number.',
  refillLabel: 'Refill quantity (units)',
  refillHint: 'At least {minimum, number}. Paid by card for {presets}; other quantities by bank transfer.',
  save: '{counter, select, transactions {Save transactions auto top-up} other {Save receipts auto top-up}}',
  saved: 'Auto top-up is saved.',
  wholeNumberFromZero: 'Enter a whole number from 0 to 1000000.',
};

const hy: Catalog<BillingMessages> = {
  title: 'Հաշվարկներ',
  intro:
    'Ձեր հաշիվն ունի երկու հաշվիչ. գործարքների մեկ միավոր է ծախսվում յուրաքանչյուր ավարտված իրական վճարման համար, կտրոնների մեկ միավոր՝ ծառայության միջոցով չվճարված վաճառքի յուրաքանչյուր ՀԴՄ կտրոնի համար։ Թեստային վճարումներն անվճար են։',
  counters: { transactions: 'Գործարքներ', receipts: 'Կտրոններ' },
  balancesTitle: 'Մնացորդներ',
  available: 'Հասանելի միավորներ',
  graceFloor: 'Արտոնյալ սահման',
  state: 'Վիճակ',
  price: 'Գին',
  pricePerUnit: '{amd, number, amd} մեկ միավորի համար',
  states: {
    no: 'Ակտիվ',
    grace:
      '{counter, select, transactions {Արտոնյալ շրջան. մնացորդը զրոյից ցածր է, բայց իրական վճարումներն ընդունվում են, քանի դեռ այն չի հասել արտոնյալ սահմանին} other {Արտոնյալ շրջան. մնացորդը զրոյից ցածր է, բայց ՀԴՄ կտրոնները տրվում են, քանի դեռ այն չի հասել արտոնյալ սահմանին}}',
    yes: '{counter, select, transactions {Արգելափակված է. մնացորդը հասել է արտոնյալ սահմանին, և նոր իրական վճարումները մերժվում են, մինչև միավորներ գնեք (թեստային վճարումներն աշխատում են)} other {Արգելափակված է. մնացորդը հասել է արտոնյալ սահմանին, և ծառայության միջոցով չվճարված վաճառքների ՀԴՄ կտրոնները մերժվում են, մինչև միավորներ գնեք}}',
  },
  unlimited: 'Անսահմանափակ. երբեք չի արգելափակվում',
  buyCounter: '{counter, select, transactions {Գնել գործարքների միավորներ} other {Գնել կտրոնների միավորներ}}',
  viewerNote:
    'Դուք կարող եք դիտել այս էջերը։ Միավորներ գնել և ավտոմատ համալրումը փոխել կարող են միայն սեփականատերը և ադմինիստրատորները։',
  moreTitle: 'Այլ',
  ledgerLink: 'Մատյան. մնացորդների բոլոր փոփոխությունները',
  purchasesLink: 'Գնումներ և կտրոններ',
  autoTopupLink: 'Ավտոմատ համալրում',
  buyLink: 'Գնել միավորներ',
  backToBilling: 'Վերադառնալ հաշվարկներին',

  ledgerTitle: 'Մատյան',
  ledgerIntro: 'Ձեր մնացորդների բոլոր փոփոխությունները՝ սկսած ամենավերջինից։',
  filter: 'Ցույց տալ',
  allCounters: 'Բոլոր հաշվիչները',
  when: 'Երբ',
  counter: 'Հաշվիչ',
  event: 'Իրադարձություն',
  change: 'Փոփոխություն',
  balanceAfter: 'Մնացորդը գործարքից հետո',
  reference: 'Փոխանցման կոդ',
  about: 'Առնչվում է',
  note: 'Նշում',
  events: {
    signup_grant: 'Գրանցման նվեր',
    purchase: 'Գնում',
    payment: 'Վճարում',
    receipt: 'ՀԴՄ կտրոն',
    adjustment: 'Ճշգրտում',
  },
  noEntries: 'Գրառումներ չկան։',
  older: 'Ավելի հին գրառումներ',
  newest: 'Ամենավերջին գրառումները',
  downloadCsv: 'Ներբեռնել CSV ֆայլը',
  badCursor: 'Այս էջի հղումն այլևս վավեր չէ։ Սկսեք ամենավերջին գրառումներից։',

  buyTitle: 'Գնել միավորներ',
  buyIntro:
    'Նախապես սահմանված քանակները ({presets}) վճարվում են քարտով՝ վճարման էջում։ Ցանկացած այլ քանակ (առնվազն {minimum, number}) վճարվում է բանկային փոխանցումով։',
  counterLabel: 'Հաշվիչ',
  quantityLabel: 'Քանակ (միավոր)',
  quantityHint: 'Քարտով՝ {presets}։ Բանկային փոխանցումով՝ ցանկացած այլ քանակ՝ սկսած {minimum, number}-ից։',
  buyButton: 'Գնել',
  chooseCounter: 'Ընտրեք՝ գործարքներ, թե կտրոններ։',
  wholeNumber: 'Մուտքագրեք միավորների ամբողջ թիվ՝ 1-ից մինչև 1 000 000։',
  atLeast: 'Նվազագույն գնումը {minimum, number} միավոր է։',
  verificationNeeded: 'Միավորներ գնելու համար բիզնեսը պետք է հաստատված լինի։',
  goToBusiness: 'Հաստատել բիզնեսը',
  changedAfterSending: 'Այս ձևն արդեն ուղարկվել է այլ արժեքներով։ Ստուգեք դրանք և կրկին գնեք։',

  purchaseTitle: 'Գնում',
  createdNotice: 'Գնումը ստեղծված է։ Վճարեք այն բանկային փոխանցումով, ինչպես նշված է ստորև։',
  purchaseSummary:
    '{counter, select, transactions {Գործարքների} other {Կտրոնների}} {quantity, number} միավոր՝ {amount, number, amd}',
  bankTitle: 'Վճարել բանկային փոխանցումով',
  amount: 'Գումար',
  bankDetails: 'Բանկային վավերապայմաններ',
  noBankDetails:
    'Բանկային վավերապայմանները դեռ կարգավորված չեն այս ծառայությունում. խնդրեք դրանք ծառայության օպերատորից։',
  instructions: [
    'Փոխանցեք {amount, number, amd}՝ ոչ ավել, ոչ պակաս, վերը նշված հաշվեհամարին։',
    '«Վճարման նպատակ» դաշտում գրեք միայն {reference} փոխանցման կոդը, որպեսզի կարողանանք նույնականացնել փոխանցումը։',
    'Միավորները կավելացվեն ձեր մնացորդին, հենց որ փոխանցումը ստացվի. այդ ժամանակ այս էջում կնշվի, որ գնումը վճարված է։',
  ],
  cardPending: 'Այս գնումը սպասում է քարտային վճարման։',
  payByCard: 'Վճարել քարտով',
  paidOn: 'Վճարված է {when, date, datetime}. միավորներն արդեն ձեր մնացորդում են։',
  statuses: { pending: 'Սպասում է վճարման', paid: 'Վճարված է' },
  methods: { card: 'Քարտ', bank_transfer: 'Բանկային փոխանցում' },
  sources: { api: 'Գնված', auto_topup: 'Ավտոմատ համալրում' },

  purchasesTitle: 'Գնումներ',
  purchasesIntro:
    'Միավորների ձեր վերջին գնումները։ Քարտով վճարված գնման համար ծառայությունը տրամադրում է ՀԴՄ կտրոն. բանկային փոխանցումները հիմնավորվում են ձեր բանկի քաղվածքով։',
  noPurchases: 'Գնումներ դեռ չկան։',
  created: 'Ստեղծվել է',
  quantity: 'Միավորներ',
  method: 'Վճարման եղանակ',
  status: 'Կարգավիճակ',
  receipt: 'ՀԴՄ կտրոն',
  openReceipt:
    '{counter, select, transactions {Գործարքների {quantity, number} միավորի ՀԴՄ կտրոնը} other {Կտրոնների {quantity, number} միավորի ՀԴՄ կտրոնը}}',
  noReceipt: 'Դեռ չկա',
  details:
    '{counter, select, transactions {Գործարքների {quantity, number} միավորի գնման մանրամասները} other {Կտրոնների {quantity, number} միավորի գնման մանրամասները}}',
  backToPurchases: 'Վերադառնալ գնումներին',

  autoTitle: 'Ավտոմատ համալրում',
  autoIntro:
    'Երբ մնացորդը նվազում է մինչև շեմը, ծառայությունը պատրաստում է համալրման քանակով գնում և էլ. փոստով ուղարկում վճարման եղանակը. նախապես սահմանված քանակի համար՝ քարտով վճարման հղում, այլ քանակի համար՝ բանկային փոխանցման կոդ։',
  notSet: 'Կարգավորված չէ',
  autoOn:
    'Միացված է. երբ մնացորդը {threshold, number} միավոր է կամ պակաս, պատրաստվում է {refill, number} միավորի գնում',
  autoOff: 'Անջատված է',
  enabledLabel: 'Ավտոմատ համալրումը միացված է',
  thresholdLabel: 'Շեմ (միավոր)',
  thresholdHint: 'Գնումը պատրաստվում է, երբ մնացորդը նվազում է մինչև այս թիվը։',
  refillLabel: 'Համալրման քանակ (միավոր)',
  refillHint: 'Առնվազն {minimum, number}։ {presets} քանակները վճարվում են քարտով, մյուսները՝ բանկային փոխանցումով։',
  save: '{counter, select, transactions {Պահպանել գործարքների ավտոմատ համալրումը} other {Պահպանել կտրոնների ավտոմատ համալրումը}}',
  saved: 'Ավտոմատ համալրումը պահպանված է։',
  wholeNumberFromZero: 'Մուտքագրեք ամբողջ թիվ՝ 0-ից մինչև 1 000 000։',
};

const RU_UNITS = '{n, plural, one {# единица} few {# единицы} many {# единиц} other {# единицы}}';

const ru: Catalog<BillingMessages> = {
  title: 'Биллинг',
  intro:
    'В аккаунте два счётчика: одна единица транзакций списывается за каждый завершённый боевой платёж, одна единица чеков — за каждый фискальный чек продажи, оплаченной не через сервис. Тестовые платежи бесплатны.',
  counters: { transactions: 'Транзакции', receipts: 'Чеки' },
  balancesTitle: 'Балансы',
  available: 'Доступно единиц',
  graceFloor: 'Льготный порог',
  state: 'Состояние',
  price: 'Цена',
  pricePerUnit: '{amd, number, amd} за единицу',
  states: {
    no: 'Активен',
    grace:
      '{counter, select, transactions {Льготный период: баланс ниже нуля, но боевые платежи принимаются до льготного порога} other {Льготный период: баланс ниже нуля, но чеки выдаются до льготного порога}}',
    yes: '{counter, select, transactions {Заблокирован: достигнут льготный порог, новые боевые платежи отклоняются, пока вы не купите единицы (тестовые платежи работают)} other {Заблокирован: достигнут льготный порог, чеки продаж, оплаченных не через сервис, не выдаются, пока вы не купите единицы}}',
  },
  unlimited: 'Без ограничений: никогда не блокируется',
  buyCounter: '{counter, select, transactions {Купить единицы транзакций} other {Купить единицы чеков}}',
  viewerNote:
    'Вы можете просматривать эти страницы. Покупать единицы и менять автопополнение могут только владелец и администраторы.',
  moreTitle: 'Ещё',
  ledgerLink: 'Журнал: все изменения балансов',
  purchasesLink: 'Покупки и чеки',
  autoTopupLink: 'Автопополнение',
  buyLink: 'Купить единицы',
  backToBilling: 'Назад к биллингу',

  ledgerTitle: 'Журнал',
  ledgerIntro: 'Все изменения ваших балансов, сначала новые.',
  filter: 'Показать',
  allCounters: 'Все счётчики',
  when: 'Когда',
  counter: 'Счётчик',
  event: 'Событие',
  change: 'Изменение',
  balanceAfter: 'Баланс после',
  reference: 'Код перевода',
  about: 'Относится к',
  note: 'Примечание',
  events: {
    signup_grant: 'Подарок при регистрации',
    purchase: 'Покупка',
    payment: 'Платёж',
    receipt: 'Чек',
    adjustment: 'Корректировка',
  },
  noEntries: 'Записей нет.',
  older: 'Более старые записи',
  newest: 'Самые новые записи',
  downloadCsv: 'Скачать CSV',
  badCursor: 'Эта ссылка на страницу больше не действует. Начните с самых новых записей.',

  buyTitle: 'Купить единицы',
  buyIntro:
    'Готовые пакеты ({presets}) оплачиваются картой на странице оплаты. Любое другое количество, не меньше {minimum, number}, оплачивается банковским переводом.',
  counterLabel: 'Счётчик',
  quantityLabel: 'Количество (единиц)',
  quantityHint: 'Картой: {presets}. Банковским переводом: любое другое количество от {minimum, number}.',
  buyButton: 'Купить',
  chooseCounter: 'Выберите транзакции или чеки.',
  wholeNumber: 'Введите целое число единиц от 1 до 1 000 000.',
  atLeast: `Минимальная покупка — ${RU_UNITS.replace('n,', 'minimum,')}.`,
  verificationNeeded: 'Чтобы покупать единицы, подтвердите бизнес.',
  goToBusiness: 'Подтвердить бизнес',
  changedAfterSending: 'Эта форма уже была отправлена с другими значениями. Проверьте их и купите снова.',

  purchaseTitle: 'Покупка',
  createdNotice: 'Покупка создана. Оплатите её банковским переводом, как указано ниже.',
  purchaseSummary: `${RU_UNITS.replace('n,', 'quantity,')} {counter, select, transactions {транзакций} other {чеков}} за {amount, number, amd}`,
  bankTitle: 'Оплата банковским переводом',
  amount: 'Сумма',
  bankDetails: 'Банковские реквизиты',
  noBankDetails: 'Банковские реквизиты ещё не настроены в этом сервисе: запросите их у оператора сервиса.',
  instructions: [
    'Переведите ровно {amount, number, amd} на указанный выше счёт.',
    'В поле «Назначение платежа» укажите только код перевода {reference}, чтобы мы могли найти ваш перевод.',
    'Единицы зачисляются на баланс, как только поступит перевод; тогда на этой странице будет указано, что покупка оплачена.',
  ],
  cardPending: 'Эта покупка ждёт оплаты картой.',
  payByCard: 'Оплатить картой',
  paidOn: 'Оплачено {when, date, datetime}: единицы уже на вашем балансе.',
  statuses: { pending: 'Ожидает оплаты', paid: 'Оплачено' },
  methods: { card: 'Карта', bank_transfer: 'Банковский перевод' },
  sources: { api: 'Покупка', auto_topup: 'Автопополнение' },

  purchasesTitle: 'Покупки',
  purchasesIntro:
    'Ваши последние покупки единиц. На покупку, оплаченную картой, сервис выдаёт фискальный чек; банковские переводы подтверждаются выпиской вашего банка.',
  noPurchases: 'Покупок пока нет.',
  created: 'Создана',
  quantity: 'Единицы',
  method: 'Способ оплаты',
  status: 'Статус',
  receipt: 'Чек',
  openReceipt:
    '{counter, select, transactions {Чек за {quantity, plural, one {# единицу} few {# единицы} many {# единиц} other {# единицы}} транзакций} other {Чек за {quantity, plural, one {# единицу} few {# единицы} many {# единиц} other {# единицы}} чеков}}',
  noReceipt: 'Пока нет',
  details:
    '{counter, select, transactions {Покупка {quantity, plural, one {# единицы} few {# единиц} many {# единиц} other {# единицы}} транзакций} other {Покупка {quantity, plural, one {# единицы} few {# единиц} many {# единиц} other {# единицы}} чеков}}',
  backToPurchases: 'Назад к покупкам',

  autoTitle: 'Автопополнение',
  autoIntro:
    'Когда баланс опускается до порога, сервис готовит покупку заданного количества единиц и присылает письмо о том, как её оплатить: ссылку на оплату картой для готового пакета, иначе — код для банковского перевода.',
  notSet: 'Не настроено',
  autoOn: `Включено: когда на балансе ${RU_UNITS.replace('n,', 'threshold,')} или меньше, готовится покупка {refill, plural, one {# единицы} few {# единиц} many {# единиц} other {# единицы}}`,
  autoOff: 'Выключено',
  enabledLabel: 'Автопополнение включено',
  thresholdLabel: 'Порог (единиц)',
  thresholdHint: 'Покупка готовится, когда баланс опускается до этого числа.',
  refillLabel: 'Количество для пополнения (единиц)',
  refillHint:
    'Не меньше {minimum, number}. Пакеты {presets} оплачиваются картой, другие количества — банковским переводом.',
  save: '{counter, select, transactions {Сохранить автопополнение транзакций} other {Сохранить автопополнение чеков}}',
  saved: 'Автопополнение сохранено.',
  wholeNumberFromZero: 'Введите целое число от 0 до 1 000 000.',
};

export const BILLING_MESSAGES = defineMessages<BillingMessages>(
  'dashboard.billing',
  { en, hy, ru },
  {
    pricePerUnit: ['amd'],
    states: { no: ['counter'], grace: ['counter'], yes: ['counter'] },
    buyCounter: ['counter'],
    buyIntro: ['presets', 'minimum'],
    quantityHint: ['presets', 'minimum'],
    atLeast: ['minimum'],
    purchaseSummary: ['quantity', 'counter', 'amount'],
    instructions: ['reference', 'amount'],
    paidOn: ['when'],
    openReceipt: ['quantity', 'counter'],
    details: ['quantity', 'counter'],
    autoOn: ['threshold', 'refill'],
    refillHint: ['presets', 'minimum'],
    save: ['counter'],
  },
);
