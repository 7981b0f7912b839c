/**
 * The texts of the billing pages (balances, ledger, buying units, purchases, auto top-up), in the
 * dashboard's three languages (picked with `shell.lang`). Not escaped here: the pages escape
 * everything they print.
 */
import type { BlockedState, Counter } from '../../domain/billing.js';
import type { Language } from '../i18n/index.js';

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
  readonly buyCounter: (counter: string) => string;
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
  readonly purchaseSummary: (quantity: number, counter: string, amount: string) => string;
  readonly bankTitle: string;
  readonly amount: string;
  readonly bankDetails: string;
  readonly noBankDetails: string;
  readonly instructions: (reference: string, amount: string) => readonly string[];
  readonly cardPending: string;
  readonly payByCard: string;
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
  readonly openReceipt: (quantity: number, counter: string) => string;
  readonly noReceipt: string;
  readonly details: (quantity: number, counter: string) => string;
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
  readonly save: (counter: string) => string;
  readonly saved: string;
  readonly wholeNumberFromZero: string;
}

const en: BillingMessages = {
  title: 'Billing',
  intro:
    'Your account uses two counters: one transactions unit per completed live payment, one receipts unit per receipt of a sale not paid through the service. Test payments are free.',
  counters: { transactions: 'Transactions', receipts: 'Receipts' },
  balancesTitle: 'Balances',
  available: 'Available units',
  graceFloor: 'Grace floor',
  state: 'State',
  price: 'Price',
  pricePerUnit: (amd) => `${amd} AMD per unit`,
  states: {
    no: () => 'Active',
    grace: (counter) =>
      counter === 'transactions'
        ? 'In grace: below zero, live payments are still taken until the grace floor'
        : 'In grace: below zero, receipts are still issued until the grace floor',
    yes: (counter) =>
      counter === 'transactions'
        ? 'Blocked: the grace floor is reached, new live payments are refused until you buy units (test payments still work)'
        : 'Blocked: the grace floor is reached, receipts for sales not paid through the service are refused until you buy units',
  },
  unlimited: 'Unlimited: never blocked',
  buyCounter: (counter) => `Buy ${counter.toLowerCase()} units`,
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
  buyIntro: (presets, minimum) =>
    `Preset quantities (${presets}) are paid by card through the checkout. Any other quantity of at least ${minimum} is paid by bank transfer.`,
  counterLabel: 'Counter',
  quantityLabel: 'Quantity (units)',
  quantityHint: (presets, minimum) => `By card: ${presets}. By bank transfer: any other quantity from ${minimum}.`,
  buyButton: 'Buy',
  chooseCounter: 'Choose transactions or receipts.',
  wholeNumber: 'Enter a whole number of units from 1 to 1000000.',
  atLeast: (minimum) => `The smallest purchase is ${minimum} units.`,
  verificationNeeded: 'Buying units needs a verified business.',
  goToBusiness: 'Verify your business',
  changedAfterSending: 'This form was already sent with other values. Check them and buy again.',

  purchaseTitle: 'Purchase',
  createdNotice: 'The purchase is created. Pay it by bank transfer as shown below.',
  purchaseSummary: (quantity, counter, amount) => `${quantity} ${counter.toLowerCase()} units for ${amount}`,
  bankTitle: 'Pay by bank transfer',
  amount: 'Amount',
  bankDetails: 'Bank details',
  noBankDetails: 'The bank details are not set up on this service yet: ask the service operator for them.',
  instructions: (reference, amount) => [
    `Transfer exactly ${amount} to the account above.`,
    `Write the reference ${reference} in the transfer's details (purpose of payment), nothing else, so we can match it.`,
    'The units are added to your balance as soon as the transfer arrives; this page then says the purchase is paid.',
  ],
  cardPending: 'This purchase waits for its card payment.',
  payByCard: 'Pay by card',
  paidOn: (when) => `Paid on ${when}: the units are on your balance.`,
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
  openReceipt: (quantity, counter) => `Receipt of ${quantity} ${counter.toLowerCase()} units`,
  noReceipt: 'None yet',
  details: (quantity, counter) => `Details of ${quantity} ${counter.toLowerCase()} units`,
  backToPurchases: 'Back to purchases',

  autoTitle: 'Auto top-up',
  autoIntro:
    'When a balance falls to the threshold, the service prepares a purchase of the refill quantity and emails you how to pay it: a card payment link for a preset quantity, else a bank transfer reference.',
  notSet: 'Not set up',
  autoOn: (threshold, refill) => `On: at ${threshold} units or fewer, a purchase of ${refill} units is prepared`,
  autoOff: 'Off',
  enabledLabel: 'Auto top-up is on',
  thresholdLabel: 'Threshold (units)',
  thresholdHint: 'A purchase is prepared when the balance falls to this number.',
  refillLabel: 'Refill quantity (units)',
  refillHint: (presets, minimum) =>
    `At least ${minimum}. Paid by card for ${presets}; other quantities by bank transfer.`,
  save: (counter) => `Save ${counter.toLowerCase()} auto top-up`,
  saved: 'Auto top-up is saved.',
  wholeNumberFromZero: 'Enter a whole number from 0 to 1000000.',
};

const hy: BillingMessages = {
  title: 'Հաշվարկներ',
  intro:
    'Ձեր հաշիվը օգտագործում է երկու հաշվիչ՝ մեկ գործարքի միավոր յուրաքանչյուր ավարտված իրական վճարման համար, մեկ կտրոնի միավոր ծառայության միջոցով չվճարված վաճառքի յուրաքանչյուր կտրոնի համար։ Թեստային վճարումներն անվճար են։',
  counters: { transactions: 'Գործարքներ', receipts: 'Կտրոններ' },
  balancesTitle: 'Մնացորդներ',
  available: 'Հասանելի միավորներ',
  graceFloor: 'Արտոնյալ սահման',
  state: 'Վիճակ',
  price: 'Գին',
  pricePerUnit: (amd) => `${amd} դրամ մեկ միավորի համար`,
  states: {
    no: () => 'Ակտիվ',
    grace: (counter) =>
      counter === 'transactions'
        ? 'Արտոնյալ շրջան՝ զրոյից ցածր է, իրական վճարումներն ընդունվում են մինչև արտոնյալ սահմանը'
        : 'Արտոնյալ շրջան՝ զրոյից ցածր է, կտրոնները տրվում են մինչև արտոնյալ սահմանը',
    yes: (counter) =>
      counter === 'transactions'
        ? 'Արգելափակված է՝ արտոնյալ սահմանը հասել է, նոր իրական վճարումները մերժվում են, մինչև միավորներ գնեք (թեստային վճարումներն աշխատում են)'
        : 'Արգելափակված է՝ արտոնյալ սահմանը հասել է, ծառայության միջոցով չվճարված վաճառքների կտրոնները մերժվում են, մինչև միավորներ գնեք',
  },
  unlimited: 'Անսահմանափակ՝ երբեք չի արգելափակվում',
  buyCounter: (counter) => `Գնել միավորներ՝ ${counter}`,
  viewerNote:
    'Դուք կարող եք կարդալ այս էջերը։ Միավորներ գնում կամ ավտոմատ համալրումը փոխում են միայն սեփականատերը և ադմինիստրատորները։',
  moreTitle: 'Այլ',
  ledgerLink: 'Մատյան՝ մնացորդների բոլոր փոփոխությունները',
  purchasesLink: 'Գնումներ և կտրոններ',
  autoTopupLink: 'Ավտոմատ համալրում',
  buyLink: 'Գնել միավորներ',
  backToBilling: 'Վերադառնալ հաշվարկներին',

  ledgerTitle: 'Մատյան',
  ledgerIntro: 'Ձեր մնացորդների բոլոր փոփոխությունները՝ սկսած ամենանորից։',
  filter: 'Ցույց տալ',
  allCounters: 'Բոլոր հաշվիչները',
  when: 'Երբ',
  counter: 'Հաշվիչ',
  event: 'Իրադարձություն',
  change: 'Փոփոխություն',
  balanceAfter: 'Մնացորդը հետո',
  reference: 'Փոխանցման կոդ',
  about: 'Առնչվում է',
  note: 'Նշում',
  events: {
    signup_grant: 'Գրանցման նվեր',
    purchase: 'Գնում',
    payment: 'Վճարում',
    receipt: 'Կտրոն',
    adjustment: 'Ճշգրտում',
  },
  noEntries: 'Գրառումներ չկան։',
  older: 'Ավելի հին գրառումներ',
  newest: 'Ամենանոր գրառումները',
  downloadCsv: 'Ներբեռնել CSV',
  badCursor: 'Այս էջի հղումն այլևս վավեր չէ։ Սկսեք ամենանոր գրառումներից։',

  buyTitle: 'Գնել միավորներ',
  buyIntro: (presets, minimum) =>
    `Նախապես սահմանված քանակները (${presets}) վճարվում են քարտով՝ վճարման էջի միջոցով։ Առնվազն ${minimum} ցանկացած այլ քանակ վճարվում է բանկային փոխանցումով։`,
  counterLabel: 'Հաշվիչ',
  quantityLabel: 'Քանակ (միավոր)',
  quantityHint: (presets, minimum) => `Քարտով՝ ${presets}։ Բանկային փոխանցումով՝ ցանկացած այլ քանակ՝ ${minimum}-ից։`,
  buyButton: 'Գնել',
  chooseCounter: 'Ընտրեք գործարքներ կամ կտրոններ։',
  wholeNumber: 'Մուտքագրեք միավորների ամբողջ թիվ՝ 1-ից 1000000։',
  atLeast: (minimum) => `Ամենափոքր գնումը ${minimum} միավոր է։`,
  verificationNeeded: 'Միավորներ գնելու համար անհրաժեշտ է հաստատված բիզնես։',
  goToBusiness: 'Հաստատել բիզնեսը',
  changedAfterSending: 'Այս ձևն արդեն ուղարկվել է այլ արժեքներով։ Ստուգեք դրանք և գնեք նորից։',

  purchaseTitle: 'Գնում',
  createdNotice: 'Գնումը ստեղծված է։ Վճարեք այն բանկային փոխանցումով, ինչպես նշված է ստորև։',
  purchaseSummary: (quantity, counter, amount) => `${quantity} միավոր (${counter})՝ ${amount}`,
  bankTitle: 'Վճարել բանկային փոխանցումով',
  amount: 'Գումար',
  bankDetails: 'Բանկային վավերապայմաններ',
  noBankDetails:
    'Բանկային վավերապայմանները դեռ կարգավորված չեն այս ծառայությունում․ խնդրեք դրանք ծառայության օպերատորից։',
  instructions: (reference, amount) => [
    `Փոխանցեք ճիշտ ${amount} վերևում նշված հաշվին։`,
    `Փոխանցման նպատակում գրեք ${reference} կոդը և ուրիշ ոչինչ, որպեսզի կարողանանք այն համադրել։`,
    'Միավորները կավելացվեն ձեր մնացորդին, հենց որ փոխանցումը ստացվի․ այդ ժամանակ այս էջը ցույց կտա, որ գնումը վճարված է։',
  ],
  cardPending: 'Այս գնումը սպասում է քարտային վճարման։',
  payByCard: 'Վճարել քարտով',
  paidOn: (when) => `Վճարված է ${when}․ միավորներն արդեն ձեր մնացորդում են։`,
  statuses: { pending: 'Սպասում է վճարման', paid: 'Վճարված է' },
  methods: { card: 'Քարտ', bank_transfer: 'Բանկային փոխանցում' },
  sources: { api: 'Գնված', auto_topup: 'Ավտոմատ համալրում' },

  purchasesTitle: 'Գնումներ',
  purchasesIntro:
    'Միավորների ձեր վերջին գնումները։ Քարտով վճարված գնումը ստանում է ծառայության հարկային կտրոնը, երբ այն տրվի․ բանկային փոխանցումները հաստատվում են ձեր բանկի քաղվածքով։',
  noPurchases: 'Գնումներ դեռ չկան։',
  created: 'Ստեղծվել է',
  quantity: 'Միավորներ',
  method: 'Վճարում',
  status: 'Կարգավիճակ',
  receipt: 'Կտրոն',
  openReceipt: (quantity, counter) => `${quantity} միավորի (${counter}) կտրոնը`,
  noReceipt: 'Դեռ չկա',
  details: (quantity, counter) => `${quantity} միավորի (${counter}) մանրամասները`,
  backToPurchases: 'Վերադառնալ գնումներին',

  autoTitle: 'Ավտոմատ համալրում',
  autoIntro:
    'Երբ մնացորդը իջնում է մինչև շեմը, ծառայությունը պատրաստում է համալրման քանակի գնում և էլ․ փոստով ուղարկում է, թե ինչպես վճարել՝ քարտային վճարման հղում նախապես սահմանված քանակի համար, այլապես՝ բանկային փոխանցման կոդ։',
  notSet: 'Կարգավորված չէ',
  autoOn: (threshold, refill) =>
    `Միացված է՝ ${threshold} կամ ավելի քիչ միավորի դեպքում պատրաստվում է ${refill} միավորի գնում`,
  autoOff: 'Անջատված է',
  enabledLabel: 'Ավտոմատ համալրումը միացված է',
  thresholdLabel: 'Շեմ (միավոր)',
  thresholdHint: 'Գնումը պատրաստվում է, երբ մնացորդն իջնում է մինչև այս թիվը։',
  refillLabel: 'Համալրման քանակ (միավոր)',
  refillHint: (presets, minimum) =>
    `Առնվազն ${minimum}։ ${presets} քանակները վճարվում են քարտով, մյուսները՝ բանկային փոխանցումով։`,
  save: (counter) => `Պահպանել ավտոմատ համալրումը (${counter})`,
  saved: 'Ավտոմատ համալրումը պահպանված է։',
  wholeNumberFromZero: 'Մուտքագրեք ամբողջ թիվ՝ 0-ից 1000000։',
};

const ru: BillingMessages = {
  title: 'Биллинг',
  intro:
    'Ваш аккаунт использует два счётчика: одна единица транзакций за каждый завершённый живой платёж, одна единица чеков за каждый чек продажи, оплаченной не через сервис. Тестовые платежи бесплатны.',
  counters: { transactions: 'Транзакции', receipts: 'Чеки' },
  balancesTitle: 'Балансы',
  available: 'Доступно единиц',
  graceFloor: 'Льготный порог',
  state: 'Состояние',
  price: 'Цена',
  pricePerUnit: (amd) => `${amd} драмов за единицу`,
  states: {
    no: () => 'Активен',
    grace: (counter) =>
      counter === 'transactions'
        ? 'Льготный период: ниже нуля, живые платежи принимаются до льготного порога'
        : 'Льготный период: ниже нуля, чеки выдаются до льготного порога',
    yes: (counter) =>
      counter === 'transactions'
        ? 'Заблокирован: льготный порог достигнут, новые живые платежи отклоняются, пока вы не купите единицы (тестовые платежи работают)'
        : 'Заблокирован: льготный порог достигнут, чеки продаж, оплаченных не через сервис, отклоняются, пока вы не купите единицы',
  },
  unlimited: 'Без ограничений: никогда не блокируется',
  buyCounter: (counter) => `Купить единицы: ${counter.toLowerCase()}`,
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
  buyIntro: (presets, minimum) =>
    `Готовые количества (${presets}) оплачиваются картой на странице оплаты. Любое другое количество от ${minimum} оплачивается банковским переводом.`,
  counterLabel: 'Счётчик',
  quantityLabel: 'Количество (единиц)',
  quantityHint: (presets, minimum) =>
    `Картой: ${presets}. Банковским переводом: любое другое количество от ${minimum}.`,
  buyButton: 'Купить',
  chooseCounter: 'Выберите транзакции или чеки.',
  wholeNumber: 'Введите целое число единиц от 1 до 1000000.',
  atLeast: (minimum) => `Минимальная покупка — ${minimum} единиц.`,
  verificationNeeded: 'Для покупки единиц нужен подтверждённый бизнес.',
  goToBusiness: 'Подтвердить бизнес',
  changedAfterSending: 'Эта форма уже была отправлена с другими значениями. Проверьте их и купите снова.',

  purchaseTitle: 'Покупка',
  createdNotice: 'Покупка создана. Оплатите её банковским переводом, как указано ниже.',
  purchaseSummary: (quantity, counter, amount) => `${quantity} единиц (${counter.toLowerCase()}) за ${amount}`,
  bankTitle: 'Оплата банковским переводом',
  amount: 'Сумма',
  bankDetails: 'Банковские реквизиты',
  noBankDetails: 'Банковские реквизиты ещё не настроены в этом сервисе: запросите их у оператора сервиса.',
  instructions: (reference, amount) => [
    `Переведите ровно ${amount} на указанный выше счёт.`,
    `Укажите код ${reference} в назначении платежа, и больше ничего, чтобы мы могли его сопоставить.`,
    'Единицы зачисляются на баланс, как только поступит перевод; тогда эта страница покажет, что покупка оплачена.',
  ],
  cardPending: 'Эта покупка ждёт оплаты картой.',
  payByCard: 'Оплатить картой',
  paidOn: (when) => `Оплачено ${when}: единицы уже на вашем балансе.`,
  statuses: { pending: 'Ожидает оплаты', paid: 'Оплачено' },
  methods: { card: 'Карта', bank_transfer: 'Банковский перевод' },
  sources: { api: 'Покупка', auto_topup: 'Автопополнение' },

  purchasesTitle: 'Покупки',
  purchasesIntro:
    'Ваши последние покупки единиц. Покупка, оплаченная картой, получает фискальный чек сервиса, когда он выдан; банковские переводы подтверждаются выпиской вашего банка.',
  noPurchases: 'Покупок пока нет.',
  created: 'Создана',
  quantity: 'Единицы',
  method: 'Оплата',
  status: 'Статус',
  receipt: 'Чек',
  openReceipt: (quantity, counter) => `Чек за ${quantity} единиц (${counter.toLowerCase()})`,
  noReceipt: 'Пока нет',
  details: (quantity, counter) => `Подробнее о ${quantity} единицах (${counter.toLowerCase()})`,
  backToPurchases: 'Назад к покупкам',

  autoTitle: 'Автопополнение',
  autoIntro:
    'Когда баланс опускается до порога, сервис готовит покупку на количество пополнения и присылает письмо о том, как её оплатить: ссылку на оплату картой для готового количества, иначе — код для банковского перевода.',
  notSet: 'Не настроено',
  autoOn: (threshold, refill) => `Включено: при ${threshold} единицах или меньше готовится покупка ${refill} единиц`,
  autoOff: 'Выключено',
  enabledLabel: 'Автопополнение включено',
  thresholdLabel: 'Порог (единиц)',
  thresholdHint: 'Покупка готовится, когда баланс опускается до этого числа.',
  refillLabel: 'Количество пополнения (единиц)',
  refillHint: (presets, minimum) =>
    `Не меньше ${minimum}. ${presets} оплачиваются картой, другие количества — банковским переводом.`,
  save: (counter) => `Сохранить автопополнение: ${counter.toLowerCase()}`,
  saved: 'Автопополнение сохранено.',
  wholeNumberFromZero: 'Введите целое число от 0 до 1000000.',
};

export const BILLING_MESSAGES: Readonly<Record<Language, BillingMessages>> = { en, hy, ru };
